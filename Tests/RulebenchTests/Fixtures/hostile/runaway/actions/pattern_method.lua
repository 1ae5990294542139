-- The same through a method call, which goes through the string metatable.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local s = ("a"):rep(20000)
    local head = s:match("(.-)(.-)x") --!
    return head
  end,
}
