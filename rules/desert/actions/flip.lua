-- flip (internal): a face-down tile is turned face up (part of excavate).
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: turn a tile face up.",
  internal = true,
  params = { cell = "string" },

  check = function(game, a)
    local tile = D.tile_at(game, a.cell)
    if not tile then return "no tile at " .. tostring(a.cell) end
    if tile.excavated then return "already face up" end
  end,

  apply = function(game, a)
    local tile, id = D.tile_at(game, a.cell)
    a.tile, a.face = id, game.faces[id]
    tile.excavated = true
  end,

  undo = function(game, a)
    game.tiles[a.tile].excavated = false
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.sequence {
      anim.tween { target = "tile:" .. a.tile, property = "rotation", from = 0, to = 180, duration = 0.4, easing = "easeInOut" },
      anim.cue { name = "tile_revealed", args = { tile = a.tile, face = a.face, cell = a.cell } },
    }
  end,
  sound = "flip",
}
return action
