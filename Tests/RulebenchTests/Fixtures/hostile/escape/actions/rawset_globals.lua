-- rawset on the globals table, which would bypass their freeze.
return {
  apply = function(game)
    game.counter = game.counter + 1
    rawset(_G, "smuggled", game.counter) --!
  end,
}
