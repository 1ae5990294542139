return {
  apply = function(game) game.counter = game.counter + 1 end,
  sound = function(game, a, direction)
    game.counter = 0 --!
  end,
}
