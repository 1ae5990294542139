-- "%p" is nothing but an address.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.where = string.format("%p", game) --!
  end,
}
