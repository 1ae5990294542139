-- A loop inside table.sort's comparator (called from C).
return {
  apply = function(game)
    game.counter = game.counter + 1
    local list = { 3, 1, 2 }
    table.sort(list, function(a, b) while true do end end) --!
  end,
}
