-- A table that grows until memory runs out.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t, i = {}, 0
    while true do i = i + 1; t[i] = { i, i, i, i } end --!
  end,
}
