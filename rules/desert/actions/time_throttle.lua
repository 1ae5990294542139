-- time_throttle (equipment, 1 card): two more actions this turn.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free; only the current player may play it, on their own turn.
--   * Adds 2 to the actions left this turn (no upper limit).
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "time_throttle")
  if why then return why end
  if game.turn.player ~= a.player then return "only on your own turn" end
end

---@type rulebench.Action
local action = {
  description = "Equipment: take 2 more actions this turn.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    D.emit_checked(game, emit, check, { { player = game.turn.player } })
  end,

  check = check,

  apply = function(game, a, act)
    a.left = game.turn.actions
    game.turn.actions = a.left + 2
    act:sub("discard_gear", { player = a.player, card = "time_throttle" })
  end,

  undo = function(game, a)
    game.turn.actions = a.left
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.tween { target = "turn", property = "actions", from = a.left, to = a.left + 2, duration = 0.3 }
  end,
  sound = "clock",
}
return action
