-- Four subactions; the one numbered fail_at raises an error.
return {
  params = { fail_at = "integer?" },
  apply = function(game, a, act)
    game.log[#game.log + 1] = "compose"
    for i = 1, 4 do act:sub("part", { n = i, fail = (i == a.fail_at) }) end
  end,
  subanimations = "sequence",
}
