-- A memory bomb written into the state: rolled back with the rest.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.rows = {}
    for i = 1, 1e9 do game.rows[i] = string.rep(string.rep("r", 1024), 64) .. i end --!
  end,
}
