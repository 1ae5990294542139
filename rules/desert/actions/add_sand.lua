-- add_sand (internal): the tile the wind just moved gets 1 sand from the
-- supply (part of draw_storm).
--
-- Rule choice: the game is lost when sand must be placed and the supply is
-- empty (the 48th marker may still be placed).
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: one sand lands on the tile the wind moved.",
  internal = true,
  params = { cell = "string" },

  check = function(game, a)
    if not game.result and not D.tile_at(game, a.cell) then return "no tile at " .. tostring(a.cell) end
  end,

  apply = function(game, a)
    if game.result then return end
    local tile, id = D.tile_at(game, a.cell)
    a.tile, a.before = id, tile.sand
    if game.sand == 0 then
      a.buried = true
      game.result = "lost"
      game.reason = "the desert ran out of sand to bury " .. a.cell .. ": the crew is buried"
      return
    end
    tile.sand = a.before + 1
    game.sand = game.sand - 1
  end,

  undo = function(game, a)
    if a.buried then
      game.result, game.reason = nil, nil
    elseif a.tile then
      game.tiles[a.tile].sand = a.before
      game.sand = game.sand + 1
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.tile then return nil end
    if a.buried then return anim.cue { name = "defeat", args = { reason = "sand" } } end
    return anim.tween { target = "tile:" .. a.tile, property = "sand", from = a.before, to = a.before + 1, duration = 0.2, easing = "easeIn" }
  end,
  sound = function(game, a, direction)
    if a.tile then return "sand" end
  end,
}
return action
