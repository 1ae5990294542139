-- take_water: the water carrier fills up at an excavated well (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Only the water carrier; their tile is an excavated well (a mirage gives
--     nothing). Sand on the well does not matter.
--   * Gains 2 water, up to the canteen; not allowed with a full canteen.
--   * A well never runs dry.
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  why = D.role_check(game, a.player, "water_carrier")
  if why then return why end
  local p = game.players[a.player]
  local face = D.shown_face(game, game.board[p.cell])
  if not face or face.kind ~= "well" then return "there is no excavated well here" end
  if p.water >= p.canteen then return "the canteen is full" end
end

---@type rulebench.Action
local action = {
  description = "Water carrier: take 2 water from an excavated well.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    D.emit_checked(game, emit, check, { { player = game.turn.player } })
  end,

  check = check,

  apply = function(game, a)
    D.spend(game, a)
    local p = game.players[a.player]
    a.before = p.water
    a.gain = D.fill(p, 2)
  end,

  undo = function(game, a)
    game.players[a.player].water = a.before
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      D.spend_plan(anim, a),
      anim.tween { target = "pawn:" .. a.player, property = "water", from = a.before, to = a.before + a.gain, duration = 0.4 },
    }
  end,
  sound = "splash",
}
return action
