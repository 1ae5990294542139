-- launch: the crew flies away and wins.
--
-- Rules (choices where the printed rules are open are marked *):
--   * All four parts are carried (by anyone), and every player stands on the
--     launch pad, which is excavated and unblocked (at most 1 sand).
--   * Taken by the current player on their turn; it costs no action (the
--     crew may launch even with no actions left).
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 0)
  if why then return why end
  for _, part in ipairs(D.PARTS) do
    if not game.parts[part].holder then return "the " .. part .. " is not on board yet" end
  end
  local pad = D.face_up(game, "pad")
  if not pad then return "the launch pad has not been excavated" end
  if pad.sand >= 2 then return "the launch pad is blocked by sand" end
  for _, name in ipairs(game.order) do
    if game.players[name].cell ~= pad.cell then return name .. " is not on the launch pad" end
  end
end

---@type rulebench.Action
local action = {
  description = "Fly away: every player on the excavated launch pad, carrying all four parts.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    D.emit_checked(game, emit, check, { { player = game.turn.player } })
  end,

  check = check,

  apply = function(game, a)
    game.result = "won"
    game.reason = "the crew flew away from the launch pad"
  end,

  undo = function(game, a)
    game.result = nil
    game.reason = nil
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.sequence {
      anim.cue { name = "engines_start", args = { cell = D.face_up(game, "pad").cell } },
      anim.tween { target = "airship", property = "altitude", from = 0, to = 100, duration = 2.0, easing = "easeIn" },
      anim.cue { name = "victory", do_only = true },   -- undoing the win fires no victory
    }
  end,
  -- The takeoff is the win's alone: its undo (the mirrored plan) plays silently.
  sound = function(game, a, direction) if direction == "do" then return "takeoff" end end,
}
return action
