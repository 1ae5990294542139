-- Each coroutine starts another one inside itself.
local function nest() return coroutine.wrap(nest)() end --!
return {
  apply = function(game)
    game.counter = game.counter + 1
    return nest()
  end,
}
