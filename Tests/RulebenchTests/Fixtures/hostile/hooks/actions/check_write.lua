-- check may read the state, never write it.
return {
  check = function(game) game.counter = 100 end, --!
  apply = function(game) game.counter = game.counter + 1 end,
}
