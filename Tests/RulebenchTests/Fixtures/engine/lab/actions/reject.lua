return {
  check = function(game) return "never allowed here" end,
  apply = function(game) game.counter = -1 end,
}
