-- remove_sand: the current player clears sand from their own tile or a
-- neighbouring one (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * Neighbour means orthogonal; the explorer may also clear diagonally.
--   * The archeologist removes 2 sand per action (1 if only 1 is there).
--   * Sand goes back to the supply. A tile with no sand cannot be chosen.
--   * A buried player may clear sand anywhere in reach, not only on their own tile.
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  if not D.POS[a.at] then return "no cell " .. tostring(a.at) end
  local tile = D.tile_at(game, a.at)
  if not tile then return "there is no sand in the storm" end
  local here = game.players[a.player].cell
  if a.at ~= here and not D.beside(game, a.player, here, a.at) then return a.at .. " is not adjacent to " .. here end
  if tile.sand < 1 then return "there is no sand on " .. a.at end
end

---@type rulebench.Action
local action = {
  description = "Remove one sand (two for the archeologist) from your tile or an adjacent one.",
  params = { player = "string", at = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    local name = game.turn.player
    local here = game.players[name].cell
    local candidates = { { player = name, at = here } }
    for _, cell in ipairs(D.around(game, name, here)) do candidates[#candidates + 1] = { player = name, at = cell } end
    D.emit_checked(game, emit, check, candidates)
  end,

  check = check,

  apply = function(game, a)
    D.spend(game, a)
    local tile, id = D.tile_at(game, a.at)
    local amount = game.players[a.player].role == "archeologist" and 2 or 1
    a.tile, a.before = id, tile.sand
    a.removed = math.min(amount, tile.sand)
    tile.sand = tile.sand - a.removed
    game.sand = game.sand + a.removed
  end,

  undo = function(game, a)
    game.tiles[a.tile].sand = a.before
    game.sand = game.sand - a.removed
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      D.spend_plan(anim, a),
      anim.tween { target = "tile:" .. a.tile, property = "sand", from = a.before, to = a.before - a.removed,
                   duration = 0.3, easing = "easeOut" },
      anim.tween { target = "supply", property = "sand", from = game.sand - a.removed, to = game.sand, duration = 0.3 },
    }
  end,
  sound = "shovel",
}
return action
