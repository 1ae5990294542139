return {
  check = function(game) error("check broke") end, --!
  apply = function(game) game.counter = game.counter + 1 end,
}
