-- A binary chunk handed to load piece by piece, so no string is checked.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local sent = false
    local f, err = load(function()
      if sent then return nil end
      sent = true
      return "\27Lua\x54\0"
    end, "=binary", "b")
    if not f then error(err) end --!
  end,
}
