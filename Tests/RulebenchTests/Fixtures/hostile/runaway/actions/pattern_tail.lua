-- A costly pattern in tail position: the rule's frame is gone when the guard
-- runs (so the error cannot name this line), but it is refused all the same.
return {
  apply = function(game)
    game.counter = game.counter + 1
    return string.find(string.rep("a", 50000), ".-.-b")
  end,
}
