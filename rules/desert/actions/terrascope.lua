-- terrascope (equipment, 2 cards): look under a face-down tile.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free; any holder may play it at any time while the game runs.
--   * Any face-down tile on the board, wherever it is (sand on it does not
--     matter), as the printed card says ("any unexcavated tile").
--   * Its user alone sees the face: game.peeked[tile] lists the players who
--     looked under that tile, and pack.lua's `secrets` shows its face to
--     them alone until it is excavated (then to everyone). The `peek` cue
--     names the face; every other seat's view of it names a card back.
--   * The tile stays face down; the card is discarded.
local D = require "desert"

local function check(game, a)
  local why = D.gear_check(game, a.player, "terrascope")
  if why then return why end
  if not D.POS[a.at] then return "no cell " .. tostring(a.at) end
  local tile = D.tile_at(game, a.at)
  if not tile then return "there is no tile in the storm" end
  if tile.excavated then return a.at .. " is already face up" end
end

-- Whether `player` is in the list `seen`.
local function listed(seen, player)
  for i = 1, #seen do if seen[i] == player then return true end end
  return false
end

---@type rulebench.Action
local action = {
  description = "Equipment: look at any face-down tile (you alone see it).",
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
    local _, id = D.tile_at(game, a.at)
    a.tile, a.face = id, game.faces[id]
    local seen = game.peeked[id]
    if not seen then
      game.peeked[id] = { a.player }
      a.added = "list"
    elseif not listed(seen, a.player) then
      seen[#seen + 1] = a.player
      a.added = "name"
    end
    act:sub("discard_gear", { player = a.player, card = "terrascope" })
  end,

  undo = function(game, a)
    if a.added == "list" then
      game.peeked[a.tile] = nil
    elseif a.added == "name" then
      local seen = game.peeked[a.tile]
      seen[#seen] = nil
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.cue { name = "peek", args = { player = a.player, cell = a.at, tile = a.tile, face = a.face } }
  end,
  sound = "scope",
}
return action
