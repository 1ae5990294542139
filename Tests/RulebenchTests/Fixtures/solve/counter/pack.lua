-- counter: n starts at `start` and only grows: `inc` adds 1, `dbl` doubles
-- it, never past 100. The goals all ask for n == `target`:
--   reach      the plain goal;
--   pruned     with dead_end: past the target, n can never come back;
--   guided     with an estimate that never overestimates (0 at the
--              target, else 1: at least one move is left);
--   over       with an estimate ten times the distance in steps of 1,
--              far more than the moves doubling needs (check warns).
local function reach(game) return game.n == game.target end

return {
  name = "counter",
  version = "1",
  options = { start = 1, target = 37 },

  setup = function(game, options)
    game.n = options.start
    game.target = options.target
  end,

  goals = {
    reach = reach,
    pruned = { holds = reach, dead_end = function(game) return game.n > game.target end },
    guided = { holds = reach, estimate = function(game) return game.n == game.target and 0 or 1 end },
    over = { holds = reach, estimate = function(game) return 10 * math.abs(game.target - game.n) end },
    -- An estimate of a fraction (0.5 short of the target), and one of
    -- math.maxinteger past it (n never comes back): g + h must not wrap.
    fraction = { holds = reach, estimate = function(game) return game.n == game.target and 0 or 0.5 end },
    huge = { holds = reach, estimate = function(game) return game.n > game.target and math.maxinteger or 0 end },
  },
}
