-- double: two adds at once; their tweens overlap (a conflict).
return {
  apply = function(game, a, act)
    act:sub("add", { n = 1 })
    act:sub("add", { n = 1 })
  end,
  subanimations = "parallel",
  sound = "pop",
}
