return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.deep = -1 / 0 --!
  end,
}
