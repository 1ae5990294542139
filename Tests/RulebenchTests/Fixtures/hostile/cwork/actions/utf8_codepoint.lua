-- `utf8.codepoint(s, 1, -1)` returns a value per character.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("a", 1000), 100)
    for _ = 1, 100 do utf8.codepoint(s, 1, -1) end
  end,
}
