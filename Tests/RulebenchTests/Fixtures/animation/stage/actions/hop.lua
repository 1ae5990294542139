-- A jump with an undo plan of its own (a quick slide back), and a sound
-- chosen by direction.
return {
  params = { token = "string" },
  apply = function(game, a)
    local token = game.tokens[a.token]
    a.from = token.x
    token.x = a.from + 2
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then
      return anim.tween{ target = "token:" .. a.token, property = "x",
                         from = a.from + 2, to = a.from, duration = 0.125 }
    end
    return anim.tween{ target = "token:" .. a.token, property = "x",
                       from = a.from, to = a.from + 2, duration = 0.5, easing = "easeOut" }
  end,
  sound = function(game, a, direction) return direction == "do" and "boing" or "slide" end,
}
