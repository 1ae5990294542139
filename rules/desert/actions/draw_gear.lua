-- draw_gear (internal): the player takes the top equipment card (part of
-- excavate on a gear tile, a tunnel or the crash site). There are exactly as
-- many cards as such tiles; should the deck be empty anyway, nothing happens.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: draw the top equipment card.",
  internal = true,
  params = { player = "string" },

  check = function(game, a)
    if not game.players[a.player] then return "no player " .. a.player end
  end,

  apply = function(game, a)
    local hand = game.players[a.player].gear
    a.card = table.remove(game.gear_deck, 1)
    a.size = #hand
    if a.card then table.insert(hand, a.card) end
  end,

  undo = function(game, a)
    if a.card then
      table.remove(game.players[a.player].gear)
      table.insert(game.gear_deck, 1, a.card)
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.card then return anim.wait(0.1) end
    return anim.sequence {
      anim.cue { name = "show_equipment", args = { player = a.player, card = a.card } },
      anim.tween { target = "hand:" .. a.player, property = "size", from = a.size, to = a.size + 1, duration = 0.3 },
    }
  end,
  sound = "card",
}
return action
