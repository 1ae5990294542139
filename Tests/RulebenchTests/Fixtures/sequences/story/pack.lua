-- A fixture pack for story sequences (docs/sequences.md): a well that runs
-- dry. `draw` takes water; when the last is drawn, `dry` appears and the
-- plan starts sequences/dry.yaml. `spill` removes the `bucket` slot, which
-- sequences/bucket.yaml reads: the fuzzer must find that two moves deep.
return {
  name = "story",
  version = "1.0",
  setup = function(game)
    game.water = 2
    game.bucket = { size = 1 }
  end,
  goals = {
    empty = function(game) return game.water == 0 end,
  },
}
