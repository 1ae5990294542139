-- deal: every player draws up to the hand size, one card at a time, in turn
-- order. Only legal at the start of the game.
---@type rulebench.Action
local action = {
  description = "Deal the opening hands.",
  legal = function(game, emit) if game.dealt == 0 then emit{} end end,
  check = function(game, a)
    if game.dealt ~= 0 then return "the cards were already dealt" end
  end,
  apply = function(game, a, act)
    for _ = 1, game.handsize do
      for _, name in ipairs(game.order) do act:sub("draw", { player = name }) end
    end
    a.before = game.dealt
    game.dealt = game.handsize * #game.order
  end,
  undo = function(game, a)
    game.dealt = a.before
  end,
  subanimations = "stagger",   -- each card leaves the deck 0.1 s after the one before
  stagger = 0.1,
  sound = "shuffle",
}
return action
