-- Loading native code.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local open = package.loadlib("libc.so.6", "system") --!
    return open("true")
  end,
}
