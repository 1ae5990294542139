-- getmetatable("") answers a string, so rawset cannot reach the metatable.
return {
  apply = function(game)
    game.counter = game.counter + 1
    rawset(getmetatable(""), "__index", { upper = function() return "pwned" end }) --!
  end,
}
