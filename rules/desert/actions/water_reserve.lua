-- water_reserve (equipment, 1 card, the "secret water reserve"): everyone on
-- the holder's tile gains 2 water, up to each canteen.
--
-- Rules (choices where the printed rules are open are marked *):
--   * Free; any holder may play it at any time while the game runs, even if
--     nobody can take the water (the card is spent anyway).
local D = require "desert"

local function check(game, a)
  return D.gear_check(game, a.player, "water_reserve")
end

---@type rulebench.Action
local action = {
  description = "Equipment: everyone on your tile gains 2 water.",
  params = { player = "string" },

  legal = function(game, emit)
    if D.over(game) then return end
    local candidates = {}
    for _, name in ipairs(game.order) do candidates[#candidates + 1] = { player = name } end
    D.emit_checked(game, emit, check, candidates)
  end,

  check = check,

  apply = function(game, a, act)
    a.names, a.before, a.gains = {}, {}, {}
    for _, name in ipairs(D.players_at(game, game.players[a.player].cell)) do
      local p = game.players[name]
      a.names[#a.names + 1] = name
      a.before[#a.before + 1] = p.water
      a.gains[#a.gains + 1] = D.fill(p, 2)
    end
    act:sub("discard_gear", { player = a.player, card = "water_reserve" })
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
    return anim.parallel(tweens)
  end,
  sound = "splash",
}
return action
