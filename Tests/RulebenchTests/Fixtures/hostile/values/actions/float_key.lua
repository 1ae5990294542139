return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars[1.5] = "half" --!
  end,
}
