-- BUG on purpose: undo forgets to restore the flag.
return {
  apply = function(game, a) game.counter = game.counter + 1; game.flag = true end,
  undo = function(game, a) game.counter = game.counter - 1 end,
}
