-- BUG on purpose: undo sets the value it guesses rather than the one it saw.
return {
  apply = function(game, a) game.vars.leaf = "x" end,
  undo = function(game, a) game.vars.leaf = false end,
}
