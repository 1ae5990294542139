-- Deep recursion without a tail call.
local function down(n) return 1 + down(n + 1) end --!
return {
  apply = function(game)
    game.counter = game.counter + 1
    return down(1)
  end,
}
