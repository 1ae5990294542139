-- leap: two squares on, from an even square.
return {
  params = { to = "integer" },
  legal = function(game, emit)
    if game.pos % 2 == 0 and game.pos + 2 <= 4 then emit{ to = game.pos + 2 } end
  end,
  check = function(game, a)
    if game.pos % 2 ~= 0 or a.to ~= game.pos + 2 or a.to > 4 then return "two squares on, from an even square" end
  end,
  apply = function(game, a)
    a.from = game.pos
    game.pos = a.to
  end,
  undo = function(game, a) game.pos = a.from end,
}
