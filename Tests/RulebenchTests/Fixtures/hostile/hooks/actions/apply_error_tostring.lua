-- An error object whose __tostring loops: the engine must not call it.
return {
  apply = function(game)
    game.counter = game.counter + 1
    error(setmetatable({}, { __tostring = function() while true do end end })) --!
  end,
}
