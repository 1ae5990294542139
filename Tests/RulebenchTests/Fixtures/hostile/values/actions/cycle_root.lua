-- The root stored under itself.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.back = game --!
  end,
}
