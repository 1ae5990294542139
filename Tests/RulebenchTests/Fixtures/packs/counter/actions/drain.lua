-- drain: takes the count below zero, so the pack invariant fails.
return {
  apply = function(game) game.count = game.count - 100 end,
}
