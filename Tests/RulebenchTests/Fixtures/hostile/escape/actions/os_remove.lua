-- Deleting a file.
return {
  apply = function(game)
    game.counter = game.counter + 1
    os.remove("/tmp/rulebench-hostile-victim") --!
  end,
}
