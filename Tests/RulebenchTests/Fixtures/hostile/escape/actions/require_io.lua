-- Asking require for a standard library that the sandbox removed.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local io_ = require("io") --!
    return io_
  end,
}
