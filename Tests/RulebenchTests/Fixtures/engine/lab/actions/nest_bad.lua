return {
  apply = function(game, a, act) act:sub("nest_bad_leaf", {}) end,
}
