-- One square forward. No undo plan: undo plays the do plan reversed.
return {
  params = { token = "string" },
  apply = function(game, a)
    local token = game.tokens[a.token]
    a.from = token.x
    token.x = a.from + 1
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local plan = anim.tween{ target = "token:" .. a.token, property = "x",
                             from = a.from, to = a.from + 1, duration = 0.25, easing = "easeIn" }
    return plan
  end,
  sound = "step",
}
