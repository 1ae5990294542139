-- Hostile corpus, round three: C work the count hook cannot see. Each
-- action does a bounded amount of work that costs few VM instructions but
-- much C work (without charges it ends, well within a second, with no
-- error); run with a small budget, the charges for that work must end it in
-- a budget error. A line marked "--!" is where a single call too big for
-- the budget is refused. The `backstop_*` actions do work no charge sees
-- and never end by themselves: the wall clock stops them.
return {
  name = "cwork",
  version = "1.0",
  setup = function(game) game.counter = 0 end,
}
