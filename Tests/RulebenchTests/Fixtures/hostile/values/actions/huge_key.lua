-- A 300 MiB key: larger than the memory cap.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars[string.rep("k", 300 << 20)] = true --!
  end,
}
