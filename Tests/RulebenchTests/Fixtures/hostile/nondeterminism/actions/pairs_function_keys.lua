return {
  apply = function(game)
    game.counter = game.counter + 1
    local handlers = { [print] = "p", [tostring] = "t" }
    for _, h in pairs(handlers) do game.vars.last = h end --!
  end,
}
