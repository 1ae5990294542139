-- add: legal offers 5, check refuses more than 3.
return {
  params = { n = "integer" },
  legal = function(game, emit)
    for n = 1, 5 do
      if game.count + n <= game.limit then emit{ n = n } end
    end
  end,
  check = function(game, a)
    if a.n > 3 then return "at most 3 at a time" end
  end,
  apply = function(game, a) game.count = game.count + a.n end,
}
