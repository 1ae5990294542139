-- The test passes a NaN param from Swift; storing it is refused.
return {
  params = { v = "number" },
  apply = function(game, a)
    game.counter = game.counter + 1
    game.vars.v = a.v --!
  end,
}
