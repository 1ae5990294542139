-- turnback: a token that steps along a line, three or four steps a turn,
-- then `end_turn` (a checkpoint). Made for the fuzzer's `undo: last turn`
-- step: its planted bug (option `bug`) shows only when a whole turn is
-- taken back in one go, end_turn and every step of it, and it is an
-- animation bug, which rewinding at the end of a run does not judge.
--
-- `takeback` is shared by the two action files (a pack's globals may be set
-- only while it loads; the table's fields are not game state, which is the
-- bug: the undo of end_turn leaves a mark the steps' undo animation reads,
-- and listing the legal moves clears it). So `undo: N` steps of 1 to 3 and
-- `undo: turn` (which stops at end_turn) never meet it, with the moves
-- listed between two steps; `undo: last turn` right after end_turn does.
takeback = { since_end_turn = false }

return {
  name = "turnback",
  version = "1",
  options = { bug = false },
  setup = function(game, options)
    game.bug = options.bug
    game.x = 0
    game.moves = 0
    game.turns = 0
  end,
}
