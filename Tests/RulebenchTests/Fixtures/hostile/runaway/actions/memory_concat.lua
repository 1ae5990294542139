-- Doubling a string until memory runs out.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = "x"
    while true do s = s .. s end --!
  end,
}
