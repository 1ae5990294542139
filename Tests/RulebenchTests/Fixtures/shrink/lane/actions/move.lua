-- move: one square left or right.
return {
  params = { to = "integer" },
  legal = function(game, emit)
    if game.pos > 0 then emit{ to = game.pos - 1 } end
    if game.pos < 3 then emit{ to = game.pos + 1 } end
  end,
  check = function(game, a)
    if a.to < 0 or a.to > 3 then return "off the lane" end
    if math.abs(a.to - game.pos) ~= 1 then return "one square at a time" end
  end,
  apply = function(game, a)
    a.from = game.pos
    game.pos = a.to
  end,
  undo = function(game, a)
    game.pos = a.from
  end,
}
