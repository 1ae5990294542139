return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game, a, direction)
    error("animate broke on " .. direction) --!
  end,
}
