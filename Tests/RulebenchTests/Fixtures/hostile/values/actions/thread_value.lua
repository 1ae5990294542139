return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.co = coroutine.create(print) --!
  end,
}
