-- A table key inside a table written at once: checked before anything changes.
return {
  apply = function(game)
    game.counter = game.counter + 1
    game.vars.map = { a = 1, [{}] = 2 } --!
  end,
}
