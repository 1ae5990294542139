return {
  apply = function(game)
    game.counter = game.counter + 1
    coroutine.yield("half done") --!
  end,
}
