-- Catastrophic backtracking in C, where the instruction hook never runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local at = string.find(string.rep("a", 1e6), ".-.-.-.-b") --!
    return at
  end,
}
