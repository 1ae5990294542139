-- `('%s'):format(s)` copies its string arguments.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("s", 1024), 1024)
    for _ = 1, 100 do ("%s%s"):format(s, s) end
  end,
}
