-- A good write, a move of a state table, then a bad value: all rolled back.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.other = game.vars
    game.other.y = 2
    game.other.z = 0 / 0 --!
  end,
}
