-- An allocation the cap refuses until the collector frees the garbage
-- before it (Lua's emergency collection, then the same request again), and
-- then an ordinary error: an error, not a memory error.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = ("0123456789abcdef"):rep(750000)
    s = nil
    local again = ("fedcba9876543210"):rep(750000)
    error("an ordinary error after " .. #again .. " bytes") --!
  end,
}
