-- swap: exchange two cells, then bump the first (a subaction; journal undo).
return {
  params = { i = "integer", j = "integer" },
  legal = function(game, emit) emit{ i = 1, j = 2 } emit{ i = 3, j = 8 } end,
  apply = function(game, a, act)
    game.board[a.i], game.board[a.j] = game.board[a.j], game.board[a.i]
    act:sub("bump", { cell = a.i })
  end,
}
