-- draw: one water from the well; the last one starts sequence `dry`.
return {
  legal = function(game, emit) if game.water > 0 then emit{} end end,
  check = function(game, a) if game.water == 0 then return "the well is dry" end end,
  apply = function(game, a) game.water = game.water - 1 end,
  undo = function(game, a) game.water = game.water + 1 end,
  animate = function(anim, game, a, direction)
    if direction == "undo" or game.water > 0 then return nil end
    return anim.sequence("dry")
  end,
}
