-- A loop inside __lt, reached through table.sort without a comparator.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local mt = { __lt = function() while true do end end } --!
    local list = { setmetatable({}, mt), setmetatable({}, mt), setmetatable({}, mt) }
    table.sort(list)
  end,
}
