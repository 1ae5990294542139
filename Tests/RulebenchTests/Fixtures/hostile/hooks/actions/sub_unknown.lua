return {
  apply = function(game, a, act)
    game.counter = game.counter + 1
    act:sub("no_such_action") --!
  end,
}
