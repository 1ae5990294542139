return {
  apply = function(game) game.counter = game.counter + 1 end,
  sound = function(game, a, direction)
    return coroutine.yield("bang") --!
  end,
}
