-- A laboratory pack for the engine's own tests: each action exercises one
-- mechanism (declared undo, journal undo, subactions, randomness) or one
-- way a script can misbehave.
local holder = require "holder"

return {
  name = "lab",
  version = "1.0",
  options = { start = 0 },
  setup = function(game, options)
    game.counter = options.start
    game.vars = {}
    game.deck = { { id = "a" }, { id = "b" }, { id = "c" } }
    game.hand = {}
    game.log = {}
    game.flag = false
    holder.keep(game)
  end,
  invariants = {
    counter_below_100 = function(game)
      if game.counter >= 100 then return false, "counter reached " .. game.counter end
      return true
    end,
  },
  render = function(game) return "counter=" .. game.counter end,
}
