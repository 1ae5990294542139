return {
  params = { by = "integer?" },
  legal = function(game, emit) emit{} emit{ by = 2 } end,
  apply = function(game, a) a.by = a.by or 1; game.counter = game.counter + a.by end,
  undo = function(game, a) game.counter = game.counter - a.by end,
  animate = function(anim, game, a) return anim.tween{ target = "counter", property = "value", from = game.counter - a.by, to = game.counter, duration = 0.1 } end,
  sound = "tick",
}
