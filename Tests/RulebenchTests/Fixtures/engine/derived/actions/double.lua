local holder = require "holder"   -- a module of the base pack
return {
  apply = function(game, a) assert(holder.keep); game.counter = game.counter * 2 end,
}
