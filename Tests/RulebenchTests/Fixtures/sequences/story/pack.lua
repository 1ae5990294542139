-- A fixture pack for story sequences (docs/sequences.md): a well that runs
-- dry. `draw` takes water; when the last is drawn, `dry` appears and the
-- plan starts sequences/dry.yaml. `spill` removes the `bucket` slot, which
-- sequences/bucket.yaml reads: the fuzzer must find that two moves deep.
-- With the option `bucket = false` there is no bucket from the start.
return {
  name = "story",
  version = "1.0",
  options = { bucket = true },
  setup = function(game, options)
    game.water = 2
    if options.bucket then game.bucket = { size = 1 } end
  end,
  goals = {
    empty = function(game) return game.water == 0 end,
  },
}
