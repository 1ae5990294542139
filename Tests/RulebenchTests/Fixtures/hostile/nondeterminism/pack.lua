-- Hostile corpus, round three: what differs between processes (addresses,
-- the clock, the collector, the string hash seed) must not reach rules.
-- Each action of actions/ is one case; a case expected to fail marks its
-- line with "--!". `names`, `collector` and `printing` succeed: the tests
-- read what they wrote.
return {
  name = "nondeterminism",
  version = "1.0",
  setup = function(game) game.counter = 0; game.vars = {} end,
}
