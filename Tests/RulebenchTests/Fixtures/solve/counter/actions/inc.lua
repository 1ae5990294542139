-- inc: n + 1 (the journal undoes it).
return {
  legal = function(game, emit) if game.n < 100 then emit {} end end,
  apply = function(game) game.n = game.n + 1 end,
}
