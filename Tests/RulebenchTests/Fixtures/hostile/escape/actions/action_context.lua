-- The action context's metatable is hidden too.
return {
  apply = function(game, a, act)
    game.counter = game.counter + 1
    getmetatable(act).sub = nil --!
  end,
}
