-- A loop inside __tostring, reached through tostring and string.format.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = setmetatable({}, { __tostring = function() while true do end end }) --!
    return string.format("%s", t)
  end,
}
