-- fickle: keeps a counter outside the game state, so a redo differs.
local calls = 0
return {
  apply = function(game)
    calls = calls + 1
    game.fickle = calls
  end,
}
