-- Two table keys have no order that is the same in every process (it would
-- follow memory addresses): pairs refuses rather than let a replay differ.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local seen = { [{}] = 1, [{}] = 2 }
    for _, n in pairs(seen) do game.counter = game.counter + n end --!
  end,
}
