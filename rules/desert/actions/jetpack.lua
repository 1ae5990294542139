-- jetpack (equipment, 3 cards): fly to any unblocked tile, maybe with a passenger.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free (no action); any holder may play it at any time while the game runs.
--   * The destination is any other tile with at most 1 sand (the climber too
--     must land on an unblocked tile); never the storm.
--   * A buried player cannot take off (dig out first).
--   * One passenger standing on the flyer's starting tile may come along.
-- Made of subactions: `relocate` for the flyer (and the passenger), then
-- `discard_gear`.
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "jetpack")
  if why then return why end
  if not D.POS[a.to] then return "no cell " .. tostring(a.to) end
  local from = game.players[a.player].cell
  if a.to == from then return "already there" end
  local tile = D.tile_at(game, a.to)
  if not tile then return "the storm cannot be entered" end
  if tile.sand >= 2 then return a.to .. " is blocked by sand" end
  if D.buried(game, a.player) then return a.player .. " is buried in sand and must dig out first" end
  if a.passenger ~= nil then
    local q = game.players[a.passenger]
    if not q then return "no player " .. a.passenger end
    if a.passenger == a.player then return "a player cannot carry themself" end
    if q.cell ~= from then return a.passenger .. " is not on " .. a.player .. "'s tile" end
  end
end

---@type rulebench.Action
local action = {
  description = "Equipment: fly to any unblocked tile, optionally carrying one player from your tile.",
  params = { player = "string", to = "string", passenger = "string?" },

  legal = function(game, emit)
    if D.over(game) then return end
    for _, name in ipairs(game.order) do
      if D.has_card(game, name, "jetpack") and not D.buried(game, name) then
        local from = game.players[name].cell
        local riders = {}
        for _, other in ipairs(D.players_at(game, from)) do
          if other ~= name then riders[#riders + 1] = other end
        end
        for _, cell in ipairs(D.CELLS) do
          local tile = D.tile_at(game, cell)
          if cell ~= from and tile and tile.sand < 2 then
            emit { player = name, to = cell }
            for _, other in ipairs(riders) do emit { player = name, to = cell, passenger = other } end
          end
        end
      end
    end
  end,

  check = check,

  apply = function(game, a, act)
    a.from = game.players[a.player].cell
    act:sub("relocate", { player = a.player, to = a.to })
    if a.passenger then act:sub("relocate", { player = a.passenger, to = a.to }) end
    act:sub("discard_gear", { player = a.player, card = "jetpack" })
  end,

  undo = function(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    -- The flame: three frames of the pawn's atlas, twice, while the flight (relocate) lasts.
    return anim.parallel {
      anim.cue { name = "jet_flame", args = { player = a.player, from = a.from, to = a.to } },
      anim.frames { target = "pawn:" .. a.player, property = "flame", frames = { "flame1", "flame2", "flame3" },
                    duration = 0.175, ["repeat"] = 2 },
    }
  end,
  sound = "jetpack",
  subanimations = "parallel",
}
return action

