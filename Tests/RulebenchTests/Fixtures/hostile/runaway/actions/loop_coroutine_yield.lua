-- A coroutine that yields forever, resumed forever.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local co = coroutine.wrap(function() while true do coroutine.yield() end end) --!
    while true do co() end
  end,
}
