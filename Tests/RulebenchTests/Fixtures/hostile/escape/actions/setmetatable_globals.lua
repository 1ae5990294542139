-- Unfreezing the globals by replacing their metatable.
return {
  apply = function(game)
    game.counter = game.counter + 1
    setmetatable(_G, nil) --!
  end,
}
