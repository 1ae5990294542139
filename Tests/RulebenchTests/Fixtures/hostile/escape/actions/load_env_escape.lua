-- load with its own environment reaches only what it is given: the
-- sandbox's globals have no debug library to fetch the kernel through.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local chunk = load("return debug.getinfo(1)", "=escape.chunk", "t", setmetatable({}, { __index = _G }))
    return chunk() --!
  end,
}
