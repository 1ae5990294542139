-- string.dump is removed from the string table; the method form goes
-- through the string metatable's __index, which is a copy without it.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local dump = ("").dump
    return load(dump(function() end)) --!
  end,
}
