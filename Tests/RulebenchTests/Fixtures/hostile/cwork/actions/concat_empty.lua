-- `table.concat` of many empty strings: one instruction per element.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local empty = {}
    for i = 1, 1000 do empty[i] = "" end
    for _ = 1, 3000 do table.concat(empty) end
  end,
}
