-- end_turn: a checkpoint, so that "undo turn" stops before it.
return {
  checkpoint = true,
  legal = function(game, emit) emit{} end,
  apply = function(game) game.turns = game.turns + 1 end,
  undo = function(game) game.turns = game.turns - 1 end,
}
