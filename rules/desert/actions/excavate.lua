-- excavate: the current player turns over the tile they stand on (one action).
--
-- Rules (choices where the printed rules are open are marked *):
--   * The tile must be face down and free of sand.
--   * Its effect follows the flip, as subactions:
--       well        `well_water`: every player on the tile gains 2 water (once, now);
--       mirage      nothing;
--       gear, tunnel, crash site   `draw_gear`: the excavating player draws equipment;
--       clue        when it is the second clue of its part, `reveal_part`;
--       launch pad  nothing (it only becomes usable for `launch`).
--   * An excavated tunnel shades its players from the sun and links to other
--     excavated tunnels (see move).
local D = require "desert"

local function check(game, a)
  local why = D.turn_check(game, a.player, 1)
  if why then return why end
  local tile = D.tile_at(game, game.players[a.player].cell)
  if tile.excavated then return "this tile is already excavated" end
  if tile.sand > 0 then return "sand covers the tile; remove it first" end
end

---@type rulebench.Action
local action = {
  description = "Excavate your tile: flip it, then apply its effect.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    D.emit_checked(game, emit, check, { { player = game.turn.player } })
  end,

  check = check,

  apply = function(game, a, act)
    D.spend(game, a)
    local cell = game.players[a.player].cell
    local _, id = D.tile_at(game, cell)
    a.tile = id
    act:sub("flip", { cell = cell })
    local face = D.face(game, id)
    if face.kind == "well" then
      act:sub("well_water", { cell = cell })
    elseif D.GEAR_KINDS[face.kind] then
      act:sub("draw_gear", { player = a.player })
    elseif face.kind == "clue" then
      local part = assert(face.part, "a clue names its part")
      local other = part .. (face.axis == "row" and "_col" or "_row")
      local where = game.parts[part]
      if D.face_up(game, other) and not (where.cell or where.holder) then
        act:sub("reveal_part", { part = part })
      end
    end
  end,

  undo = function(game, a)
    D.refund(game, a)
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return D.spend_plan(anim, a)
  end,
  sound = "dig",
  subanimations = "sequence",   -- the flip, then what it reveals
}
return action
