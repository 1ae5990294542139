-- `s:byte(1, -1)` returns a value per byte.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("b", 1000), 100)
    for _ = 1, 100 do s:byte(1, -1) end
  end,
}
