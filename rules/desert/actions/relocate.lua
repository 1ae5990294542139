-- relocate (internal): puts one pawn on another tile. The building block of
-- move, navigate and jetpack; it checks only that the target has a tile.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: a pawn goes to another tile.",
  internal = true,
  params = { player = "string", to = "string" },

  check = function(game, a)
    if not game.players[a.player] then return "no player " .. a.player end
    if not game.board[a.to] then return "no tile at " .. tostring(a.to) end
  end,

  apply = function(game, a)
    local p = game.players[a.player]
    a.from = p.cell
    p.cell = a.to
  end,

  undo = function(game, a)
    game.players[a.player].cell = a.from
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.tween { target = "pawn:" .. a.player, property = "cell", from = a.from, to = a.to,
                        duration = 0.35, easing = "easeInOut" }
  end,
  sound = "step",
}
return action
