return {
  params = { n = "integer", fail = "boolean?" },
  apply = function(game, a)
    game.log[#game.log + 1] = "part " .. a.n
    game.counter = game.counter + 1
    if a.fail then error("part " .. a.n .. " failed on purpose") end
  end,
  undo = function(game, a)
    game.log[#game.log] = nil
    game.counter = game.counter - 1
  end,
}
