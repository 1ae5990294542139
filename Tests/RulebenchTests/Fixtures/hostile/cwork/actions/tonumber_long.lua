-- `tonumber(s, 2)` reads every digit.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local digits = string.rep(string.rep("0", 1024), 1024) .. "1"
    for _ = 1, 100 do tonumber(digits, 2) end
  end,
}
