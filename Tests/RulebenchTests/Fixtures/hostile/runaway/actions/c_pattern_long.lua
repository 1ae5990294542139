-- A long literal pattern tried at every start: no backtracking, but the
-- pattern's length times the subject's.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local at = string.find(("a"):rep(2e5), ("a"):rep(1e5) .. "%d") --!
  end,
}
