-- A plain search is one VM instruction however long the subject is.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep("a", 1 << 24)
    while true do s:find("b", 1, true) end --!
  end,
}
