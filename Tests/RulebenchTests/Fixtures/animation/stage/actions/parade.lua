-- The banner rises while a walks two steps and b steps once, all together.
return {
  apply = function(game, a, act)
    game.banner = 1
    act:sub("walk2", { token = "a" })
    act:sub("step", { token = "b" })
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local plan = anim.tween{ target = "banner", property = "height", from = 0, to = 1, duration = 1.0 }
    return plan
  end,
}
