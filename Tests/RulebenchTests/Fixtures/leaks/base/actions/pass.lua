-- pass: the turn goes to the other seat.
return {
  checkpoint = true,
  legal = function(game, emit) emit{} end,
  apply = function(game) game.current = game.current == "p1" and "p2" or "p1" end,
}
