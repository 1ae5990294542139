-- `table.insert(t, 1, v)` on a table whose __len claims a huge length: refused before it runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = setmetatable({}, { __len = function() return math.maxinteger // 2 end })
    table.insert(t, 1, 0) --!
  end,
}
