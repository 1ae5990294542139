-- The plan for "do" is fine; the plan for "undo" fails, so undo fails.
return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then error("no way back") end --!
    return anim.wait(0.1)
  end,
}
