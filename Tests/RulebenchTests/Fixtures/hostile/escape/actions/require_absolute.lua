-- require of an absolute path.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local secret = require("/etc/passwd") --!
    return secret
  end,
}
