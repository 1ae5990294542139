-- A planted nondeterministic pack: it records the order `next` walks twelve
-- string keys in. With the sandbox's next that order is fixed; with Lua's
-- own next (Game.Configuration.plantsSeededNext, tests only) it follows the
-- Lua state's string hash seed, which the fuzzer must find.
return {
  name = "seeded",
  version = "1.0",
  setup = function(game) game.orders = {} end,
}
