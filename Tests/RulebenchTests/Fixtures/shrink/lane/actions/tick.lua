-- tick: counts; always legal.
return {
  legal = function(game, emit) emit{} end,
  apply = function(game) game.ticks = game.ticks + 1 end,
  undo = function(game) game.ticks = game.ticks - 1 end,
}
