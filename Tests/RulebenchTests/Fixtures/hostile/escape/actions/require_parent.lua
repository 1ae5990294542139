-- require of a module of another pack, through a dotted parent path.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local other = require("..runaway.pack") --!
    return other
  end,
}
