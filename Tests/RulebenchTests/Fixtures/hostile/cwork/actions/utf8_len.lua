-- `utf8.len` scans the subject.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("a", 1024), 1024)
    for _ = 1, 100 do utf8.len(s) end
  end,
}
