-- A tween whose target is not UTF-8 text: two such names would read alike in Swift.
return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game)
    local plan = anim.tween{ target = "token\xe9", property = "x", from = 0, to = 1, duration = 0.2 } --!
    return plan
  end,
}
