-- guess: legal only when the top of the face-down deck is c3 (the leak).
return {
  legal = function(game, emit) if game.deck[#game.deck] == "c3" then emit{} end end,
  apply = function(game) end,
}
