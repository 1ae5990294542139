-- bump: queues helper (meant as internal, not marked), step (internal) and a misspelled one.
return {
  legal = function(game, emit) emit{} end,
  apply = function(game, a, act)
    act:sub("helper", {})
    act:sub("step", {})
    if game.count > 100 then act:sub("stpe", {}) end
  end,
}
