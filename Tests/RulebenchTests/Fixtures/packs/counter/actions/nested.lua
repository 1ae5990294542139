-- nested: a double, then an add: subactions two levels deep.
return {
  apply = function(game, a, act)
    act:sub("double", {})
    act:sub("add", { n = 5 })
  end,
  subanimations = "sequence",
}
