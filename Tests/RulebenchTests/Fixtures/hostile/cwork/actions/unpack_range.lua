-- `table.unpack` of a huge range: refused before it runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local first = table.unpack({}, 1, 1 << 40) --!
    game.counter = first or 0
  end,
}
