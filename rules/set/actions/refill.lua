-- refill (internal): the top card of the deck goes to an empty place on
-- the table. Only `take` queues it.
---@type rulebench.Action
local action = {
  internal = true,
  params = { place = "integer" },
  description = "Deal the deck's top card to an empty place.",

  check = function(game, a)
    if game.table[a.place] ~= 0 then return "place " .. a.place .. " is not empty" end
    if #game.deck == 0 then return "the deck is empty" end
  end,

  apply = function(game, a)
    a.card = table.remove(game.deck)
    game.table[a.place] = a.card
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end   -- mirrored by the engine
    return anim.tween{ target = "card:" .. a.card, property = "place", from = "deck",
                       to = "table " .. a.place, duration = 0.3, easing = "easeOut" }
  end,

  sound = "card",
}
return action
