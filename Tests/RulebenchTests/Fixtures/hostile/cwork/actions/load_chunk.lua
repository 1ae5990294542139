-- `load` of one chunk larger than the budget: refused before it is compiled.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local source = string.rep("x = 1 ", 400000)
    local f = load(source) --!
    game.counter = f and 1 or 0
  end,
}
