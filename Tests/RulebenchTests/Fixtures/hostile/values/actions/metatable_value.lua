return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.obj = setmetatable({}, { __index = function() return 1 end }) --!
  end,
}
