-- terrascope (equipment, 2 cards): peek under a face-down tile.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free; any holder may play it at any time while the game runs.
--   * Any face-down tile on the board, wherever it is (sand on it does not matter).
--   * What the tile is goes to the host in a `peek` cue; the state does not
--     change apart from the discarded card (a host app shows it to the team).
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "terrascope")
  if why then return why end
  if not D.POS[a.at] then return "no cell " .. tostring(a.at) end
  local tile = D.tile_at(game, a.at)
  if not tile then return "there is no tile in the storm" end
  if tile.excavated then return a.at .. " is already face up" end
end

---@type rulebench.Action
local action = {
  description = "Equipment: look at any face-down tile.",
  params = { player = "string", at = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    for _, name in ipairs(game.order) do
      if D.has_card(game, name, "terrascope") then
        for _, cell in ipairs(D.CELLS) do
          local tile = D.tile_at(game, cell)
          if tile and not tile.excavated then emit { player = name, at = cell } end
        end
      end
    end
  end,

  check = check,

  apply = function(game, a, act)
    local tile, id = D.tile_at(game, a.at)
    a.tile, a.kind, a.part, a.axis = id, tile.kind, tile.part, tile.axis
    act:sub("discard_gear", { player = a.player, card = "terrascope" })
  end,

  undo = function(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.cue { name = "peek", args = { player = a.player, cell = a.at, tile = a.tile, kind = a.kind, part = a.part, axis = a.axis } }
  end,
  sound = "scope",
}
return action
