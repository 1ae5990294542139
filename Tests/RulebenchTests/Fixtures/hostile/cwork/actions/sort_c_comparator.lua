-- `table.sort` with a C function as the comparator runs no instruction.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    for _ = 1, 300 do table.sort(t, rawequal) end
  end,
}
