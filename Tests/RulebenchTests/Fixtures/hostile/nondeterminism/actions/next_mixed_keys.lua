-- "Any key" of a table keyed by a table and a function would follow addresses.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local any = next({ [{}] = 1, [print] = 2 }) --!
    game.vars.any = type(any)
  end,
}
