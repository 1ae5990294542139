-- `load` with a reader function: each piece is charged as it is handed over.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local piece = string.rep("x = 1 ", 10000)
    for _ = 1, 100 do
      local left = 5
      load(function() left = left - 1; if left >= 0 then return piece end end)
    end
  end,
}
