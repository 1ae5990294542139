-- dbl: n * 2 (the journal undoes it).
return {
  legal = function(game, emit) if game.n * 2 <= 100 then emit {} end end,
  apply = function(game) game.n = game.n * 2 end,
}
