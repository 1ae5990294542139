return {
  check = function(game) game.counter = 5 end,
  apply = function(game) end,
}
