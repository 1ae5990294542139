-- Applies fine; its undo fails.
return {
  apply = function(game) game.counter = game.counter + 1 end,
  undo = function(game)
    game.counter = game.counter - 1
    error("undo broke") --!
  end,
}
