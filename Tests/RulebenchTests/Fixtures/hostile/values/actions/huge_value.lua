-- 900,000 entries built by one C call, then handed to the state at once:
-- checking and converting them runs out of budget inside the engine, and the
-- error still points here.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = { string.byte(string.rep("h", 900000), 1, -1) }
    game.vars.huge = t --!
  end,
}
