-- A subaction (outer_part) that has a subaction whose undo is wrong only
-- when the parent has already written the same slot.
return {
  apply = function(game, a, act)
    game.vars.depth = 1
    act:sub("nest_mid", {})
  end,
}
