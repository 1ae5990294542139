-- BUG on purpose: undo puts back a copy of the card, not the card itself.
local rulebench = require "rulebench"
return {
  apply = function(game, a)
    a.card = table.remove(game.deck)
    table.insert(game.hand, a.card)
  end,
  undo = function(game, a)
    table.remove(game.hand)
    table.insert(game.deck, rulebench.copy(a.card))
  end,
}
