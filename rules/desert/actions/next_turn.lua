-- next_turn (internal): the next player in order starts a turn with 4
-- actions (last part of end_turn). Solar shields the new player placed
-- earlier run out now. Once the game is over, it does nothing.
local D = require "desert"

---@type rulebench.Action
local action = {
  description = "Internal: the next player's turn begins.",
  internal = true,
  params = {},

  apply = function(game, a)
    if game.result then return end
    local turn = game.turn
    a.player, a.actions, a.calm, a.number = turn.player, turn.actions, turn.calm, turn.number
    local index = 1
    for i, name in ipairs(game.order) do
      if name == turn.player then index = i end
    end
    a.next = game.order[index % #game.order + 1]
    turn.player = a.next
    turn.actions = D.ACTIONS_PER_TURN
    turn.calm = 0
    turn.number = a.number + 1
    a.expired = {}
    for id, owner in pairs(game.shields) do
      if owner == a.next then a.expired[#a.expired + 1] = id end
    end
    for _, id in ipairs(a.expired) do game.shields[id] = nil end
  end,

  undo = function(game, a)
    if a.next then
      for _, id in ipairs(a.expired) do game.shields[id] = a.next end
      local turn = game.turn
      turn.player, turn.actions, turn.calm, turn.number = a.player, a.actions, a.calm, a.number
    end
  end,

  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    if not a.next then return nil end
    local items = { anim.tween { target = "turn", property = "player", from = a.player, to = a.next, duration = 0.4 } }
    for _, id in ipairs(a.expired) do
      items[#items + 1] = anim.tween { target = "shield:" .. id, property = "opacity", from = 1, to = 0, duration = 0.4 }
    end
    return anim.parallel(items)
  end,
  sound = function(game, a, direction)
    if a.next then return "gong" end
  end,
}
return action
