-- twice: two adds of 1, as subactions; inc has no legal of its own.
return {
  legal = function(game, emit)
    if game.count + 2 <= game.limit then emit{} end
  end,
  apply = function(game, a, act)
    act:sub("inc", {})
    act:sub("inc", {})
  end,
}
