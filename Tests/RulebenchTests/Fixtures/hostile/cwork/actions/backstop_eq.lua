-- `==` on two long equal strings: one instruction of C work no charge sees.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local a, b = string.rep(string.rep("x", 1024), 8192), string.rep(string.rep("x", 1024), 8192)
    local n = 0
    while true do if a == b then n = n + 1 end end
  end,
}
