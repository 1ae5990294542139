-- A loop inside a to-be-closed variable's __close, which runs while the
-- budget error unwinds.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local guard <close> = setmetatable({}, { __close = function() while true do end end }) --!
    while true do end
  end,
}
