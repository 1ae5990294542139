-- walk: a small tree to explore, with a bug chosen by the option `bug`:
-- "none", "undo" (the undo of `mark` at depth 2 forgets a write), "error"
-- (apply of `mark` raises at depth 2) or "slow" (every apply runs an empty
-- loop of `spin` turns, most of a test's budget, so a walk passes only if
-- each operation has its own budget) or "nap" (the first apply prints,
-- for a test whose print handler waits).
return {
  name = "walk",
  version = "1",
  options = { bug = "none", spin = 120000 },
  setup = function(game, options)
    game.bug = options.bug
    game.spin = options.spin
    game.depth = 0
    game.trail = {}
  end,
  goals = {
    -- the last line of three marks the solver tries: it searches the rest first
    threes = function(game)
      local t = game.trail
      return #t == 3 and t[1] == 3 and t[2] == 3 and t[3] == 3
    end,
  },
}
