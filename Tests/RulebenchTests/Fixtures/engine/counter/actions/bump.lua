-- bump: writes how many bumps this pack's module has seen.
local tally = require("tally")
return {
  legal = function(game, emit) emit{} end,
  apply = function(game, a) game.count = game.count + 1; game.seen = tally.bump() end,
}
