-- The error value is a state table (a proxy with a protected metatable).
return {
  apply = function(game)
    game.counter = game.counter + 1
    error(game) --!
  end,
}
