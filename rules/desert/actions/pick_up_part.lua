-- pick_up_part: the current player takes a part lying on their tile (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * The part must have been revealed (both clues excavated) and lie on the
--     player's tile, and the tile must be unblocked (at most 1 sand).
--   * A carried part stays with its holder for the rest of the game; parts
--     are not passed between players (only the launch needs them, and the
--     launch needs everyone aboard anyway).
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  local where = game.parts[a.part]
  if not where then return "no part " .. tostring(a.part) end
  if where.holder then return a.part .. " is already carried by " .. where.holder end
  if where.cell == nil then return a.part .. " has not been found yet" end
  local here = game.players[a.player].cell
  if where.cell ~= here then return a.part .. " is not on " .. a.player .. "'s tile" end
  if D.tile_at(game, here).sand >= 2 then return "the tile is blocked by sand" end
end

---@type rulebench.Action
local action = {
  description = "Pick up a revealed part from your unblocked tile.",
  params = { player = "string", part = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    local candidates = {}
    for _, part in ipairs(D.PARTS) do candidates[#candidates + 1] = { player = game.turn.player, part = part } end
    D.emit_checked(game, emit, check, candidates)
  end,

  check = check,

  apply = function(game, a)
    D.spend(game, a)
    local where = game.parts[a.part]
    a.cell = where.cell
    where.cell = nil
    where.holder = a.player
  end,

  undo = function(game, a)
    local where = game.parts[a.part]
    where.holder = nil
    where.cell = a.cell
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      D.spend_plan(anim, a),
      anim.tween { target = "part:" .. a.part, property = "holder", from = a.cell, to = a.player, duration = 0.4, easing = "easeInOut" },
    }
  end,
  sound = "pickup",
}
return action
