-- `string.format('%q')` escapes byte by byte.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("\n", 1024), 1024)
    for _ = 1, 100 do string.format("%q", s) end
  end,
}
