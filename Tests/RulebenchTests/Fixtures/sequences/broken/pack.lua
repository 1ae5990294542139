-- A fixture pack whose sequences hold every defect `check` finds (SequenceCheckTests).
return {
  name = "broken",
  version = "1.0",
  setup = function(game) game.score = 0 end,
  goals = { done = function(game) return game.score > 2 end },
}
