return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.far = math.huge --!
  end,
}
