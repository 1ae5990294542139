-- `string.upper` and `string.reverse` rewrite every byte.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("a", 1024), 1024)
    for _ = 1, 50 do string.upper(s); s:reverse() end
  end,
}
