return {
  apply = function(game, a, act)
    a.before = game.vars.depth
    game.vars.depth = 2
    act:sub("inc", { by = 5 })
  end,
  undo = function(game, a) game.vars.depth = a.before end,
}
