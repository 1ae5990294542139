return {
  check = function(game) return coroutine.yield("maybe") end, --!
  apply = function(game) game.counter = game.counter + 1 end,
}
