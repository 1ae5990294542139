-- The classic loop over next, on two table keys.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local seen = { [{}] = 1, [{}] = 2 }
    for _, n in next, seen do game.counter = game.counter + n end --!
  end,
}
