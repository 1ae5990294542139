return {
  legal = function(game, emit) emit{} end,
  apply = function(game) game["a\nb"] = game["a\nb"] + 1 end,
  undo = function(game) end,
}
