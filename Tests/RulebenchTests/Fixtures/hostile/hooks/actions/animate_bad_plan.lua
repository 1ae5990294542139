-- A plan with a non-finite duration.
return {
  apply = function(game) game.counter = game.counter + 1 end,
  animate = function(anim, game)
    local plan = anim.wait(1 / 0) --!
    return plan
  end,
}
