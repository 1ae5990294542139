-- add: the counter goes up by n.
return {
  params = { n = "integer" },
  check = function(game, a)
    if a.n == 0 then return "adding zero does nothing" end
  end,
  apply = function(game, a) game.count = game.count + a.n end,
  undo = function(game, a) game.count = game.count - a.n end,
  animate = function(anim, game, a, direction)
    return anim.tween{ target = "counter", property = "value", from = 0, to = 1, duration = 0.5 }
  end,
  sound = "click",
}
