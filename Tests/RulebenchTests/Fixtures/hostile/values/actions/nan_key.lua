return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars[0 / 0] = 1 --!
  end,
}
