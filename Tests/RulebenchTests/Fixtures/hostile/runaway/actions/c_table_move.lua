-- One C call the count hook cannot see into: charged before it runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    table.move({}, 1, math.maxinteger - 1, 1) --!
  end,
}
