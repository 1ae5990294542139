-- gmatch, with a local copy of the function.
local gmatch = string.gmatch
return {
  apply = function(game)
    game.counter = game.counter + 1
    for _ in gmatch(string.rep("ab", 50000), "(a-)%1b-$") do end --!
  end,
}
