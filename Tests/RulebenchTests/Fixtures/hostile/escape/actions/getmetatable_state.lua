-- The metatable of a state table is hidden behind a string.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local mt = getmetatable(game.vars)
    mt.__newindex = nil --!
  end,
}
