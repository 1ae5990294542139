-- a coroutine handed many values at each resume.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    local co = coroutine.wrap(function(...) while true do coroutine.yield(...) end end)
    for _ = 1, 3000 do co(table.unpack(t)) end
  end,
}
