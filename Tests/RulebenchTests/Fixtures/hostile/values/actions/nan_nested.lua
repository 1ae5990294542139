return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.stats = { ok = 1, score = { 0 / 0 } } --!
  end,
}
