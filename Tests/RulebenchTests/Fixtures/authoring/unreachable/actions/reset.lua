-- reset: no legal, and no action queues it.
return {
  params = {},
  apply = function(game, a)
    a.before = game.count
    game.count = 0
  end,
}
