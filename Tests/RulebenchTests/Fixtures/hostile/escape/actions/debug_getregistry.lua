-- The registry holds the kernel; debug is gone, and so is require "debug".
return {
  apply = function(game)
    game.counter = game.counter + 1
    local ok = pcall(function() return debug.getregistry() end)
    local d = require("debug") --!
    return ok, d
  end,
}
