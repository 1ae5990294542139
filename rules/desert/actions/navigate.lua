-- navigate: the navigator guides another player up to 3 moves (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * The moved player follows their own movement rules at every step: the
--     explorer may go diagonally, the climber may cross blocked tiles, and
--     tunnel to tunnel counts as one step. The storm is never crossed.
--   * The moved player must not be buried; they end on a different tile.
--   * The navigator cannot move themself this way, and carries no passenger.
-- Made of one `relocate` subaction.
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  why = D.role_check(game, a.player, "navigator")
  if why then return why end
  if not game.players[a.target] then return "no player " .. tostring(a.target) end
  if a.target == a.player then return "the navigator guides others, not themself" end
  if D.buried(game, a.target) then return a.target .. " is buried in sand" end
  local reach = D.reach(game, a.target, 3)
  if not reach[a.to] then return a.to .. " is not within 3 moves of " .. a.target end
end

---@type rulebench.Action
local action = {
  description = "Navigator: move another player up to 3 tiles.",
  params = { player = "string", target = "string", to = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    local name = game.turn.player
    if game.players[name].role ~= "navigator" or game.turn.actions < 1 then return end
    for _, target in ipairs(game.order) do
      if target ~= name and not D.buried(game, target) then
        local _, list = D.reach(game, target, 3)
        for _, cell in ipairs(list) do emit { player = name, target = target, to = cell } end
      end
    end
  end,

  check = check,

  apply = function(game, a, act)
    D.spend(game, a)
    act:sub("relocate", { player = a.target, to = a.to })
  end,

  undo = function(game, a)
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      D.spend_plan(anim, a),
      anim.cue { name = "point_the_way", args = { navigator = a.player, target = a.target, to = a.to } },
    }
  end,
  sound = "compass",
}
return action
