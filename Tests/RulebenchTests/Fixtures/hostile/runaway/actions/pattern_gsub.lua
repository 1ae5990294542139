-- Greedy items backtrack as badly as lazy ones.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep("a", 5000)
    return (s:gsub("a*a*a*b", "")) --!
  end,
}
