-- Moves the top card (a table) from the deck to the hand; undo moves it back.
return {
  check = function(game) if #game.deck == 0 then return "the deck is empty" end end,
  apply = function(game, a)
    a.card = table.remove(game.deck)
    table.insert(game.hand, a.card)
  end,
  undo = function(game, a)
    table.remove(game.hand)
    table.insert(game.deck, a.card)
  end,
}
