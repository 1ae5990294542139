return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game, a, direction)
    return coroutine.yield(anim.wait(1)) --!
  end,
}
