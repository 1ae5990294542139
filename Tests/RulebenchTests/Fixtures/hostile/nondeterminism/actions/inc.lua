-- The well-behaved action the tests run after each hostile case.
return {
  apply = function(game) game.counter = game.counter + 1 end,
}
