-- A pack whose actions exist to exercise animation plans: composition of
-- subactions in both modes, reversal on undo, stagger, conflicts, frames,
-- sounds and cues. Times are multiples of 1/8 so they add up exactly.
return {
  name = "stage",
  version = "1.0",
  setup = function(game, options)
    game.tokens = { a = { x = 0, pose = "stand" }, b = { x = 0, pose = "stand" } }
    game.deck = {}
    for i = 1, 12 do game.deck[i] = i end
    game.hand = {}
    game.banner = 0
  end,
}
