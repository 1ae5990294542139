-- `utf8.offset` scans the subject.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep(string.rep("\u{e9}", 512), 1024)
    for _ = 1, 100 do utf8.offset(s, 1 << 19) end
  end,
}
