-- The handler loops too, and the caller retries forever.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local function spin() while true do end end --!
    while true do xpcall(spin, spin) end
  end,
}
