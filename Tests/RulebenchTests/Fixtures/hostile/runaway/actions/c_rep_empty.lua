-- An empty string repeated 2^63-1 times allocates nothing and would loop
-- 2^63-1 times inside one call: the answer is "" at once, and the loop
-- around it runs out of budget as any loop does.
return {
  apply = function(game)
    game.counter = game.counter + 1
    while true do local s = string.rep("", math.maxinteger) end --!
  end,
}
