-- `string.char` of many arguments.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = 65 end
    for _ = 1, 3000 do string.char(table.unpack(t)) end
  end,
}
