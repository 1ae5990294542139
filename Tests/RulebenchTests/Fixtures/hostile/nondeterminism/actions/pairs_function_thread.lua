return {
  apply = function(game)
    game.counter = game.counter + 1
    local owners = { [function() end] = 1, [coroutine.create(print)] = 2, north = 3 }
    for _, n in pairs(owners) do game.counter = game.counter + n end --!
  end,
}
