return {
  apply = function(game)
    game.counter = game.counter + 1
    error(false) --!
  end,
}
