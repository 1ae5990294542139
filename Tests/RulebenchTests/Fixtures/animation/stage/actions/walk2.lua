-- A pose change, then two steps, one after the other.
return {
  params = { token = "string" },
  apply = function(game, a, act)
    game.tokens[a.token].pose = "walk"
    act:sub("step", { token = a.token })
    act:sub("step", { token = a.token })
  end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    local plan = anim.tween{ target = "token:" .. a.token, property = "pose",
                             from = "stand", to = "walk", duration = 0.5 }
    return plan
  end,
  subanimations = "sequence",
  sound = "whoosh",
}
