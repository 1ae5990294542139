return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars[true] = 1 --!
  end,
}
