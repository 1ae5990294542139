return {
  legal = function(game, emit) error("legal broke") end,
  apply = function(game) game.n = game.n + 1 end,
}
