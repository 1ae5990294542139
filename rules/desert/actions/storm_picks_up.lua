-- storm_picks_up (internal): the storm meter rises one mark (part of
-- draw_storm). Past the last number lies the deadly mark: the game is lost.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: the storm meter rises one mark.",
  internal = true,
  params = {},

  apply = function(game, a)
    if game.result then return end
    a.level = game.meter.level
    game.meter.level = a.level + 1
    if game.meter.level > #game.meter.track then
      a.deadly = true
      game.result = "lost"
      game.reason = "the storm reached its deadly strength"
    end
  end,

  undo = function(game, a)
    if a.level then
      if a.deadly then game.result, game.reason = nil, nil end
      game.meter.level = a.level
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.level then return nil end
    local rise = anim.tween { target = "meter", property = "level", from = a.level, to = a.level + 1, duration = 0.5, easing = "easeOut" }
    -- The story sequence sequences/storm_rises.yaml plays as the meter rises.
    local scene = anim.parallel { rise, anim.sequence("storm_rises") }
    if a.deadly then return anim.sequence { scene, anim.cue { name = "defeat", args = { reason = "storm" } } } end
    return scene
  end,
  sound = "thunder",
}
return action
