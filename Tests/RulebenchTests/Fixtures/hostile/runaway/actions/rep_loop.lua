-- string.rep copies piece by piece in C, one VM instruction however many
-- pieces: each call is charged one instruction per repetition.
return {
  apply = function(game)
    game.counter = game.counter + 1
    while true do local s = string.rep("z", 1 << 23) end --!
  end,
}
