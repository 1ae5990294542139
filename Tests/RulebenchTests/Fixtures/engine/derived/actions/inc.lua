-- Overrides lab's inc: steps of ten.
return {
  apply = function(game, a) game.counter = game.counter + 10 end,
  undo = function(game, a) game.counter = game.counter - 10 end,
}
