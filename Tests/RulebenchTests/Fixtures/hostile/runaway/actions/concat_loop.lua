-- Allocations freed at once never reach the memory cap: the allocator
-- charges the instruction budget for every byte a call allocates.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local big = string.rep(string.rep("c", 1024), 16384)
    while true do local s = big .. "x" end --!
  end,
}
