-- add: its undo forgets to subtract.
return {
  params = { n = "integer" },
  legal = function(game, emit)
    if game.count + 1 <= game.limit then emit{ n = 1 } end
  end,
  apply = function(game, a) game.count = game.count + a.n end,
  undo = function(game, a) game.count = game.count end,
}
