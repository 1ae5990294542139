-- `table.insert(t, 1, v)` shifts every element.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    for _ = 1, 3000 do table.insert(t, 1, 0); t[#t] = nil end
  end,
}
