-- Keeps the action context and queues a subaction after apply returned.
local kept
return {
  apply = function(game, a, act)
    game.counter = game.counter + 1
    kept = act
  end,
  animate = function(anim, game, a)
    kept:sub("inc") --!
  end,
}
