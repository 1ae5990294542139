-- end_turn: a checkpoint, legal after three steps or four.
return {
  checkpoint = true,
  legal = function(game, emit)
    if game.moves >= 3 then emit{} end
  end,
  check = function(game)
    if game.moves < 3 then return "three steps first" end
  end,
  apply = function(game, a)
    takeback.since_end_turn = false
    a.moves = game.moves
    game.moves = 0
    game.turns = game.turns + 1
  end,
  undo = function(game, a)
    takeback.since_end_turn = true
    game.moves = a.moves
    game.turns = game.turns - 1
  end,
}
