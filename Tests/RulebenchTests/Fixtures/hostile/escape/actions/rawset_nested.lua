-- rawset on a nested state table, which would skip the journal.
return {
  apply = function(game)
    game.counter = game.counter + 1
    rawset(game.vars, "x", 99) --!
  end,
}
