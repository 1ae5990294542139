-- `table.remove(t, 1)` shifts every element.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    for _ = 1, 3000 do table.remove(t, 1); t[#t + 1] = 0 end
  end,
}
