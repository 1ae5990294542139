-- Threads cost memory too.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local threads = {}
    while true do threads[#threads + 1] = coroutine.create(function() end) end --!
  end,
}
