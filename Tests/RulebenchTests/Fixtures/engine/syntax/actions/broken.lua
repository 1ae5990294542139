return {
  apply = function(game, a)
    game.counter = = 1
  end,
}
