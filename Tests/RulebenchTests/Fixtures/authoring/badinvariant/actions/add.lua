-- add: count up by n.
return {
  params = { n = "integer" },
  legal = function(game, emit)
    for n = 1, 3 do
      if game.count + n <= game.limit then emit{ n = n } end
    end
  end,
  check = function(game, a)
    if game.count + a.n > game.limit then return "over the limit" end
  end,
  apply = function(game, a)
    a.before = game.count
    game.count = a.before + a.n
  end,
  undo = function(game, a) game.count = a.before end,
}
