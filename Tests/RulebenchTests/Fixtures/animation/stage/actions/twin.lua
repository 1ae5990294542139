-- Two steps of the same token at the same time: a conflict on token:x.
return {
  params = { token = "string" },
  apply = function(game, a, act)
    act:sub("step", { token = a.token })
    act:sub("step", { token = a.token })
  end,
}
