-- A library is read-only once the game runs: nothing would undo the change,
-- so the next action (and a replay) would see a poisoned string.rep.
return {
  apply = function(game)
    game.counter = game.counter + 1
    string.rep = nil --!
  end,
}
