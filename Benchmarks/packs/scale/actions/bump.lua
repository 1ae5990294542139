-- bump: add one to a cell of the board and count the turn (declared undo).
return {
  params = { cell = "integer" },
  legal = function(game, emit) for i = 1, #game.board do emit{ cell = i } end end,
  check = function(game, a) if not game.board[a.cell] then return "no cell " .. a.cell end end,
  apply = function(game, a)
    game.board[a.cell] = game.board[a.cell] + 1
    game.turn = game.turn + 1
  end,
  undo = function(game, a)
    game.board[a.cell] = game.board[a.cell] - 1
    game.turn = game.turn - 1
  end,
}
