-- A loop inside an __index metamethod.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = setmetatable({}, { __index = function() while true do end end }) --!
    return t.anything
  end,
}
