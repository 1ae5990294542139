return {
  legal = function(game, emit) if #game.seen < 8 then emit({}) end end,
  apply = function(game)
    local names = {}
    for name in next, game.scores do names[#names + 1] = name end          -- a state table
    local winds = { north = 1, south = 2, east = 3, west = 4, up = 5, down = 6 }
    local any = next(winds)                                                -- "any key"
    local walked = {}
    for wind in pairs(winds) do walked[#walked + 1] = wind end
    game.seen[#game.seen + 1] = table.concat(names, ",") .. "|" .. any .. "|" .. table.concat(walked, ",")
    local first = names[1]
    game.scores[first] = game.scores[first] + 10
  end,
}
