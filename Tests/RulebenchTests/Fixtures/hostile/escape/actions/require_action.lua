-- Action files and pack.lua are not modules.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local inc = require("actions.inc") --!
    return inc
  end,
}
