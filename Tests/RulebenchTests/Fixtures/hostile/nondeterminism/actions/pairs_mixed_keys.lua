-- A table, a function and a coroutine as keys: no order of them is the same in every process.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local seen = { [{}] = 1, [print] = 2, [coroutine.create(print)] = 3 }
    for _, n in pairs(seen) do game.counter = game.counter + n end --!
  end,
}
