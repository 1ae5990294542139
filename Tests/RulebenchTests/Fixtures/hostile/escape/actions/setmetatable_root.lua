-- Replacing the metatable of the state root.
return {
  apply = function(game)
    game.counter = game.counter + 1
    setmetatable(game, nil) --!
  end,
}
