-- `s:lower()` rewrites every byte.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("A", 1024), 1024)
    for _ = 1, 100 do s:lower() end
  end,
}
