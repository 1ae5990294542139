-- deal: three cards from the deck to the table, when the table holds no set.
local S = require "sets"

return {
  params = {},
  legal = function(game, emit)
    if #game.deck > 0 and #S.sets(game) == 0 then emit{} end
  end,
  check = function(game, a)
    if #game.deck == 0 then return "the deck is empty" end
    if #S.sets(game) > 0 then return "there is a set on the table" end
  end,
  apply = function(game, a, act)
    for _ = 1, math.min(3, #game.deck) do act:sub("draw", {}) end
  end,
  sound = "deal",
}
