-- dune_blaster (equipment, 3 cards): clear all sand from your tile or an
-- adjacent one.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free (no action); any holder may play it at any time while the game
--     runs, also on another player's turn, and also when buried.
--   * Adjacent means orthogonal; the explorer may blast diagonally.
--   * The tile must have sand. The card is discarded (`discard_gear`).
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "dune_blaster")
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
  description = "Equipment: remove all sand from your tile or an adjacent one.",
  params = { player = "string", at = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    for _, name in ipairs(game.order) do
      if D.has_card(game, name, "dune_blaster") then
        local here = game.players[name].cell
        local candidates = { { player = name, at = here } }
        for _, cell in ipairs(D.around(game, name, here)) do candidates[#candidates + 1] = { player = name, at = cell } end
        D.emit_checked(game, emit, check, candidates)
      end
    end
  end,

  check = check,

  apply = function(game, a, act)
    local tile, id = D.tile_at(game, a.at)
    a.tile, a.before = id, tile.sand
    tile.sand = 0
    game.sand = game.sand + a.before
    act:sub("discard_gear", { player = a.player, card = "dune_blaster" })
  end,

  undo = function(game, a)
    game.tiles[a.tile].sand = a.before
    game.sand = game.sand - a.before
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.parallel {
      anim.cue { name = "explosion", args = { cell = a.at } },
      anim.tween { target = "tile:" .. a.tile, property = "sand", from = a.before, to = 0, duration = 0.3, easing = "easeOut" },
    }
  end,
  sound = "blast",
}
return action
