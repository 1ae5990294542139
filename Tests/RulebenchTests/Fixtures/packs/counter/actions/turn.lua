-- turn: a checkpoint; `undo: turn` stops after it.
return {
  checkpoint = true,
  apply = function(game) game.turn = game.turn + 1 end,
}
