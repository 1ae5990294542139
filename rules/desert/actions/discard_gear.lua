-- discard_gear (internal): a used equipment card goes from the player's hand
-- to the equipment discard pile (part of every equipment action).
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: discard a used equipment card.",
  internal = true,
  params = { player = "string", card = "string" },

  check = function(game, a)
    if not D.has_card(game, a.player, a.card) then return tostring(a.player) .. " holds no " .. a.card end
  end,

  apply = function(game, a)
    local hand = game.players[a.player].gear
    for i, card in ipairs(hand) do
      if card == a.card then a.index = i; break end
    end
    a.size = #hand
    table.remove(hand, a.index)
    table.insert(game.gear_discard, a.card)
  end,

  undo = function(game, a)
    table.remove(game.gear_discard)
    table.insert(game.players[a.player].gear, a.index, a.card)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.tween { target = "hand:" .. a.player, property = "size", from = a.size, to = a.size - 1, duration = 0.25 }
  end,
  sound = "card",
}
return action
