-- print of values with addresses.
return {
  apply = function(game)
    game.counter = game.counter + 1
    print({}, print, coroutine.create(print), 1.5, "text", nil, true)
  end,
}
