-- Recursion through __index, which crosses the C stack.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t
    t = setmetatable({}, { __index = function(_, k) return t[k .. "x"] end }) --!
    return t.a
  end,
}
