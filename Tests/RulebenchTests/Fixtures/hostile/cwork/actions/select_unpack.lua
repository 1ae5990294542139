-- `select('#', table.unpack(t))`: both move every element.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    for _ = 1, 3000 do select("#", table.unpack(t)) end
  end,
}
