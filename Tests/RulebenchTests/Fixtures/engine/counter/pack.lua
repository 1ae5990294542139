-- counter: keeps a count in a module-level variable, outside the game state,
-- so a test can see whether restarting a game starts the pack afresh.
local tally = require("tally")
return {
  name = "counter",
  version = "1",
  options = { start = 0 },
  setup = function(game, options) game.count = options.start; game.seen = tally.seen end,
}
