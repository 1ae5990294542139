-- Full collections of a large heap, each one call: charged by the heap.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local keep = {}
    for i = 1, 200000 do keep[i] = { i } end
    while true do collectgarbage("collect") end --!
  end,
}
