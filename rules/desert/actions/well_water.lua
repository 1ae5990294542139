-- well_water (internal): a well just excavated gives 2 water to every player
-- on its tile, up to each canteen (part of excavate). It gives water only
-- this once; later, only the water carrier draws from it (take_water).
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: everyone on the new well gains 2 water.",
  internal = true,
  params = { cell = "string" },

  check = function(game, a)
    local id = game.board[a.cell]
    local face = id and D.shown_face(game, id)
    if not face or face.kind ~= "well" then return "no excavated well at " .. tostring(a.cell) end
  end,

  apply = function(game, a)
    a.names, a.before, a.gains = {}, {}, {}
    for _, name in ipairs(D.players_at(game, a.cell)) do
      local p = game.players[name]
      local before = p.water
      local gain = D.fill(p, 2)
      a.names[#a.names + 1] = name
      a.before[#a.before + 1] = before
      a.gains[#a.gains + 1] = gain
    end
  end,

  undo = function(game, a)
    for i, name in ipairs(a.names) do game.players[name].water = a.before[i] end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local tweens = {}
    for i, name in ipairs(a.names) do
      tweens[#tweens + 1] = anim.tween { target = "pawn:" .. name, property = "water", from = a.before[i],
                                         to = a.before[i] + a.gains[i], duration = 0.4 }
    end
    if #tweens == 0 then return anim.wait(0.2) end
    return anim.parallel(tweens)
  end,
  sound = "splash",
}
return action
