-- slide (internal): one step of the wind (part of draw_storm). The tile
-- beside the storm on the `direction` side slides into the storm cell, with
-- its sand, the pawns on it and any part lying on it; the storm takes its
-- place. A part waiting in the storm cell lands on the arriving tile.
-- Solar shields belong to tiles and move with them.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: the storm moves one step; a tile slides into its place.",
  internal = true,
  params = { direction = "string" },

  check = function(game, a)
    if not D.DIRECTIONS[a.direction] then return "no direction " .. tostring(a.direction) end
    if not game.result and not D.toward(game.storm, a.direction) then return "the storm is at the edge" end
  end,

  apply = function(game, a)
    if game.result then return end
    local to = game.storm
    local from = D.toward(to, a.direction)
    local id = game.board[from]
    a.from, a.to, a.tile = from, to, id
    game.board[to] = id
    game.board[from] = nil
    game.tiles[id].cell = to
    game.storm = from
    a.pawns = D.players_at(game, from)
    for _, name in ipairs(a.pawns) do game.players[name].cell = to end
    a.parts = {}
    for _, part in ipairs(D.PARTS) do
      if game.parts[part].cell == from then
        game.parts[part].cell = to
        a.parts[#a.parts + 1] = part
      end
    end
  end,

  undo = function(game, a)
    if a.tile then
      for _, part in ipairs(a.parts) do game.parts[part].cell = a.from end
      for _, name in ipairs(a.pawns) do game.players[name].cell = a.from end
      game.storm = a.to
      game.tiles[a.tile].cell = a.from
      game.board[a.from] = a.tile
      game.board[a.to] = nil
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.tile then return nil end
    local moves = {
      anim.tween { target = "tile:" .. a.tile, property = "cell", from = a.from, to = a.to, duration = 0.3, easing = "easeInOut" },
      anim.tween { target = "storm", property = "cell", from = a.to, to = a.from, duration = 0.3, easing = "easeInOut" },
    }
    for _, name in ipairs(a.pawns) do
      moves[#moves + 1] = anim.tween { target = "pawn:" .. name, property = "cell", from = a.from, to = a.to, duration = 0.3, easing = "easeInOut" }
    end
    for _, part in ipairs(a.parts) do
      moves[#moves + 1] = anim.tween { target = "part:" .. part, property = "cell", from = a.from, to = a.to, duration = 0.3, easing = "easeInOut" }
    end
    return anim.parallel(moves)
  end,
  sound = function(game, a, direction)
    if a.tile then return "slide" end
  end,
}
return action
