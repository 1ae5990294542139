-- A cycle three tables deep in a plain value.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local a = {}
    a.b = { c = { d = a } }
    game.vars.a = a --!
  end,
}
