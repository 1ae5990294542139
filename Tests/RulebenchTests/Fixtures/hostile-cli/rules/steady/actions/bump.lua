-- bump: one step, on side a or b; the game ends after three.
return {
  params = { side = "string" },
  legal = function(game, emit)
    if game.steps < 3 then
      emit{ side = "a" }
      emit{ side = "b" }
    end
  end,
  apply = function(game, a) game.steps = game.steps + 1 end,
  undo = function(game, a) game.steps = game.steps - 1 end,
}
