-- The string metatable's __index is not reachable from a string either.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local lib = ("").__index
    lib.rep = nil --!
  end,
}
