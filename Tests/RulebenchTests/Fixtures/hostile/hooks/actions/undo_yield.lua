return {
  apply = function(game) game.counter = game.counter + 1 end,
  undo = function(game)
    game.counter = game.counter - 1
    coroutine.yield() --!
  end,
}
