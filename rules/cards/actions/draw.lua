-- draw (internal): the top card of the deck goes to a player's hand.
---@type rulebench.Action
local action = {
  internal = true,   -- runs only as a subaction of deal
  params = { player = "string" },
  description = "Move the top card of the deck to a hand.",
  check = function(game, a)
    if not game.hands[a.player] then return "no player " .. a.player end
    if #game.deck == 0 then return "the deck is empty" end
  end,
  apply = function(game, a)
    a.card = table.remove(game.deck)
    table.insert(game.hands[a.player], a.card)
    a.place = #game.hands[a.player]   -- where the card lands, for the animation
  end,
  undo = function(game, a)
    table.remove(game.hands[a.player])
    table.insert(game.deck, a.card)
  end,
  -- On undo nothing is returned: the engine plays the do plan backwards.
  -- (Reading the hand here would be wrong on undo: the card has left it.)
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local tween = anim.tween{ target = "card:" .. a.card.id, property = "position",
                              from = { 0, 0 }, to = { 1, a.place }, duration = 0.25, easing = "easeOut" }
    return tween
  end,
  sound = "card",
}
return action
