-- sun_beats_down (internal): every player drinks 1 water (part of draw_storm).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Players on an excavated tunnel, and players on a tile under a solar
--     shield, do not drink.
--   * A player with an empty canteen who must drink dies of thirst: the game
--     is lost (water never goes below 0). Everyone else still drinks.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: the sun beats down; unsheltered players lose 1 water.",
  internal = true,
  params = {},

  apply = function(game, a)
    if game.result then return end
    a.drank, a.thirsty = {}, {}
    for _, name in ipairs(game.order) do
      local p = game.players[name]
      local _, id = D.tile_at(game, p.cell)
      local sheltered = D.excavated_tunnel(game, p.cell) or game.shields[id] ~= nil
      if not sheltered then
        if p.water == 0 then
          a.thirsty[#a.thirsty + 1] = name
        else
          p.water = p.water - 1
          a.drank[#a.drank + 1] = name
        end
      end
    end
    if #a.thirsty > 0 then
      game.result = "lost"
      game.reason = table.concat(a.thirsty, ", ") .. " died of thirst"
    end
  end,

  undo = function(game, a)
    if a.drank then
      if #a.thirsty > 0 then game.result, game.reason = nil, nil end
      for _, name in ipairs(a.drank) do
        local p = game.players[name]
        p.water = p.water + 1
      end
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.drank then return nil end
    local items = { anim.cue { name = "heat_wave" } }
    local dry = #a.thirsty > 0
    for _, name in ipairs(a.drank) do
      local now = game.players[name].water
      items[#items + 1] = anim.tween { target = "pawn:" .. name, property = "water", from = now + 1, to = now, duration = 0.3 }
      if now == 0 then dry = true end
    end
    if #a.thirsty > 0 then items[#items + 1] = anim.cue { name = "defeat", args = { reason = "thirst" } } end
    if dry then items[#items + 1] = anim.sequence("out_of_water") end   -- sequences/out_of_water.yaml
    return anim.parallel(items)
  end,
  sound = "sizzle",
}
return action
