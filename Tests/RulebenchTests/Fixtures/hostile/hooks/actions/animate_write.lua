return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game)
    game.counter = 0 --!
  end,
}
