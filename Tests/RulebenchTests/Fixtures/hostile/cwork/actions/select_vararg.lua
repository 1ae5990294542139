-- `select('#', ...)` in a vararg function: the arguments it is given.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = {}
    for i = 1, 1000 do t[i] = i end
    local function count(...)
      local n = 0
      for _ = 1, 3000 do n = n + select("#", ...) end
      return n
    end
    count(table.unpack(t))
  end,
}
