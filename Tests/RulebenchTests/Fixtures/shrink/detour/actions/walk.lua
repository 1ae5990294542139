-- walk: one square on.
return {
  legal = function(game, emit) if game.pos < 4 then emit{} end end,
  apply = function(game) game.pos = game.pos + 1 end,
  undo = function(game) game.pos = game.pos - 1 end,
}
