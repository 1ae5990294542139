-- Many large strings kept alive.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local keep = {}
    for i = 1, 1e6 do keep[i] = string.rep(string.rep("m", 1024), 1024) .. i end --!
  end,
}
