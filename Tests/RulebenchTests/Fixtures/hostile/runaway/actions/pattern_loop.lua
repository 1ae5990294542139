-- Each call is allowed, but each is charged to the budget, so the loop ends.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = string.rep("a", 1500)
    while true do s:find(".-b") end --!
  end,
}
