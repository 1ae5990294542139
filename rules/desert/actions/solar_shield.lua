-- solar_shield (equipment, 2 cards): shade everyone on your tile from the sun.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free; any holder may play it at any time while the game runs.
--   * The shield covers the holder's tile itself (it moves with the tile when
--     the wind slides it): every player on that tile when the sun beats down
--     loses no water.
--   * It lasts until the start of the holder's next turn (see next_turn).
--   * A tile already under a shield cannot get a second one.
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "solar_shield")
  if why then return why end
  local _, id = D.tile_at(game, game.players[a.player].cell)
  if game.shields[id] then return "this tile is already shielded" end
end

---@type rulebench.Action
local action = {
  description = "Equipment: shade your tile from the sun until your next turn.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    local candidates = {}
    for _, name in ipairs(game.order) do candidates[#candidates + 1] = { player = name } end
    D.emit_checked(game, emit, check, candidates)
  end,

  check = check,

  apply = function(game, a, act)
    local _, id = D.tile_at(game, game.players[a.player].cell)
    a.tile = id
    game.shields[id] = a.player
    act:sub("discard_gear", { player = a.player, card = "solar_shield" })
  end,

  undo = function(game, a)
    game.shields[a.tile] = nil
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.tween { target = "shield:" .. a.tile, property = "opacity", from = 0, to = 1, duration = 0.4 }
  end,
  sound = "shield_hum",
}
return action
