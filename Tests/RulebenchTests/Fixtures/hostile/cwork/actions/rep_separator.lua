-- `string.rep` with a separator.
return {
  apply = function(game)
    game.counter = game.counter + 1
    for _ = 1, 100 do ("ab"):rep(100000, ",") end
  end,
}
