-- calm_storm: the meteorologist spends an action to draw one storm card
-- fewer at the end of this turn.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Only the meteorologist, on their own turn, as often as actions allow,
--     but not below zero cards.
--   * The reduction counts against the meter at the end of the turn; it is
--     forgotten when the turn ends.
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  why = D.role_check(game, a.player, "meteorologist")
  if why then return why end
  if game.turn.calm >= D.storm_cards(game) then return "no storm cards are left to hold back" end
end

---@type rulebench.Action
local action = {
  description = "Meteorologist: draw one storm card fewer this turn.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    D.emit_checked(game, emit, check, { { player = game.turn.player } })
  end,

  check = check,

  apply = function(game, a)
    D.spend(game, a)
    a.calm = game.turn.calm
    game.turn.calm = a.calm + 1
  end,

  undo = function(game, a)
    game.turn.calm = a.calm
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      D.spend_plan(anim, a),
      anim.tween { target = "turn", property = "calm", from = a.calm, to = a.calm + 1, duration = 0.3 },
    }
  end,
  sound = "wind_dies",
}
return action
