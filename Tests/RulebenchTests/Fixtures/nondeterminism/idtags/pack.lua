-- An ordinary author's pack that uses tostring(t) as an id: each card is
-- keyed in the state by the text tostring gives its table. Before round
-- three that text was a memory address, and a history saved by `play` did
-- not replay in another process.
return {
  name = "idtags",
  version = "1.0",
  setup = function(game) game.cards = {}; game.log = {} end,
  -- render and legal number objects too; those numbers must not shift
  -- the ones apply hands out (a replay never runs render or legal).
  render = function(game) return "deck " .. tostring({}) .. ", " .. #game.log .. " drawn" end,
}
