-- Sorting a long list in C, again and again: charged by its length.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local list = {}
    for i = 1, 100000 do list[i] = (i * 7919) % 100003 end
    while true do table.sort(list) end --!
  end,
}
