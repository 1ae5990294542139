-- rawset on a library is an assignment like any other: read-only too.
return {
  apply = function(game)
    game.counter = game.counter + 1
    rawset(table, "insert", function() end) --!
  end,
}
