-- score: one point; its plan starts a sequence the pack does not have.
return {
  legal = function(game, emit) emit{} end,
  apply = function(game, a) game.score = game.score + 1 end,
  undo = function(game, a) game.score = game.score - 1 end,
  animate = function(anim, game, a, direction)
    if direction == "undo" then return nil end
    return anim.sequence("cheer")
  end,
}
