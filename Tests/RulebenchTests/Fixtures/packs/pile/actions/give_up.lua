-- give_up: fails with error(msg, 0), which still gets its file:line prefix
-- (docs/scenarios.md; scenarios/docs/error-level-zero.yaml).
return {
  apply = function(game)
    error("the pile is closed", 0)
  end,
}
