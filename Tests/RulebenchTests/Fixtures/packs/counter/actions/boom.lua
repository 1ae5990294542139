-- boom: a script error after a write, which must be rolled back.
return {
  apply = function(game)
    game.count = game.count + 10
    error("boom: the fuse was lit")
  end,
}
