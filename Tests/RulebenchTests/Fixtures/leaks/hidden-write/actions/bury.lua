-- bury: the top card goes to the bottom of the deck, but only when it is
-- c3 (the leak: the deck's hidden slots change, or not, by the card).
return {
  legal = function(game, emit) emit{} end,
  apply = function(game)
    if game.deck[#game.deck] == "c3" then table.insert(game.deck, 1, table.remove(game.deck)) end
  end,
}
