-- roll: the seat to move rolls a die.
local rulebench = require "rulebench"
return {
  legal = function(game, emit) if #game.rolls < 2 then emit {} end end,
  apply = function(game) game.rolls[#game.rolls + 1] = rulebench.random(game, 6) end,
}
