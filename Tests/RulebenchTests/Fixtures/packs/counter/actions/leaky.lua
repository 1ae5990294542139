-- leaky: its undo forgets the log entry, which strict undo must catch.
return {
  apply = function(game)
    game.count = game.count + 1
    game.log[#game.log + 1] = "leak"
  end,
  undo = function(game)
    game.count = game.count - 1
  end,
}
