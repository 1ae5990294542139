return {
  legal = function(game, emit) emit{} end,
  apply = function(game)
    game.n = game.n + 1
    error("\27[2J\27]0;owned\7 gotcha")
  end,
}
