-- An action that queues itself as its own subaction, without end.
return {
  apply = function(game, a, act)
    game.counter = game.counter + 1
    act:sub("sub_self")
  end,
}
