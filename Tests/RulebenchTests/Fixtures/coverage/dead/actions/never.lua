-- never: emitted by no one, so its apply never runs.
return {
  legal = function(game, emit)
  end,
  apply = function(game)
    game.count = game.count + 100
  end,
}
