-- move: the current player walks one step (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * A step goes to an orthogonal neighbour; the explorer may also step diagonally.
--   * The storm cell can never be entered. A blocked tile (2+ sand) can be
--     entered only by the climber.
--   * A player on an excavated tunnel may instead step to any other excavated
--     tunnel (unblocked, unless the player is the climber) as one move.
--   * A buried player (on a blocked tile with no climber on it) cannot move;
--     other actions are still allowed.
--   * The climber may carry one other player standing on the same tile
--     (param `passenger`); the passenger spends nothing.
-- Made of subactions: one `relocate` per pawn, played in parallel.
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  if not D.POS[a.to] then return "no cell " .. tostring(a.to) end
  if D.buried(game, a.player) then return a.player .. " is buried in sand and must dig out first" end
  local from = game.players[a.player].cell
  if a.to == from then return "already there" end
  if not game.board[a.to] then return "the storm cannot be entered" end
  if not D.enterable(game, a.player, a.to) then return a.to .. " is blocked by sand" end
  if not D.one_step(game, a.player, from, a.to) then return a.to .. " is not adjacent to " .. from end
  if a.passenger ~= nil then
    if game.players[a.player].role ~= "climber" then return "only the climber can carry a passenger" end
    local q = game.players[a.passenger]
    if not q then return "no player " .. a.passenger end
    if a.passenger == a.player then return "a player cannot carry themself" end
    if q.cell ~= from then return a.passenger .. " is not on " .. a.player .. "'s tile" end
  end
end

---@type rulebench.Action
local action = {
  description = "Move one step to an adjacent unblocked tile, or between excavated tunnels.",
  params = { player = "string", to = "string", passenger = "string?" },

  legal = function(game, emit)
    if D.over(game) then return end
    local name = game.turn.player
    if game.turn.actions < 1 or D.buried(game, name) then return end
    local me = game.players[name]
    local riders = {}
    if me.role == "climber" then
      for _, other in ipairs(D.players_at(game, me.cell)) do
        if other ~= name then riders[#riders + 1] = other end
      end
    end
    for _, cell in ipairs(D.steps(game, name, me.cell)) do
      emit { player = name, to = cell }
      for _, other in ipairs(riders) do emit { player = name, to = cell, passenger = other } end
    end
  end,

  check = check,

  apply = function(game, a, act)
    D.spend(game, a)
    act:sub("relocate", { player = a.player, to = a.to })
    if a.passenger then act:sub("relocate", { player = a.passenger, to = a.to }) end
  end,

  undo = function(game, a)
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end   -- the do plan, reversed
    return D.spend_plan(anim, a)
  end,
  sound = "footsteps",
  subanimations = "parallel",
}
return action
