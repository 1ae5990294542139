-- draw (internal): the top card of the deck goes to the table.
return {
  internal = true,
  params = {},
  apply = function(game, a)
    game.table[#game.table + 1] = game.deck[1]    -- moves the card table
    table.remove(game.deck, 1)
  end,
  undo = function(game, a)
    table.insert(game.deck, 1, game.table[#game.table])   -- the move empties the table's slot
  end,
}
