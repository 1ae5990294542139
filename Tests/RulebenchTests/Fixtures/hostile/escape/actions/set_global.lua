-- Assigns a global: refused once the game runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    late_global = true --!
  end,
}
