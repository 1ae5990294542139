-- add: declares `why` but never reads it, reads `step` without declaring it.
return {
  params = {
    n = "integer",
    why = "string?",
  },
  legal = function(game, emit) emit{ n = 1 } end,
  apply = function(game, a)
    a.before, a.note = game.count, "kept for undo"   -- recorded on a: not params
    game.count = game.count + a.n * (a.step or 1)
  end,
  undo = function(game, a) game.count = a.before end,
}
