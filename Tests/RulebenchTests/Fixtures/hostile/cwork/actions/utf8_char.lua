-- `utf8.char` of many code points.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local points = {}
    for i = 1, 1000 do points[i] = 65 end
    for _ = 1, 3000 do utf8.char(table.unpack(points)) end
  end,
}
