-- "%p" through a method call on a format string, with a width, of a C function.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.where = ("print lives at %12p"):format(print) --!
  end,
}
