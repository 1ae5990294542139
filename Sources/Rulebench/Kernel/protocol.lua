-- The words of the kernel's protocol with Swift, declared once on this side:
-- the values that cross inside requests and replies (a finding's property, a
-- step's op, an outcome's kind, a failure's cause, what a redo changed, a
-- travel's step, a fuzz request's fields, and the other calls' words below).
-- Swift names the same words in Engine/KernelWords.swift; the kernel test
-- Tests/KernelTests/protocol.lua checks that the two lists are equal, and
-- that every entry point Swift calls (KernelEntry) is a function here.
--
-- Invariant: a word the kernel sends is listed here; a word listed here is
-- one Swift knows (and the other way round).

local K = ...

K.WORDS = {
  property = { "undoRestores", "redoReproduces", "undoMirrorsDo", "failureChangesNothing", "legalIsAllowed",
               "invariantsHold", "rewindAndReplay", "seatSeesOnly" },
  op = { "do", "try", "undo", "redo", "turn", "lastturn", "any" },
  outcome = { "performed", "rejected", "undone", "redone", "failed" },
  cause = { "budget", "memory", "error" },
  redo = { "state hash", "subaction tree", "animation plan" },
  travel = { "undone", "redone", "failed", "differs" },
  request = { "choices", "depth", "program", "checklegal", "recordlegal", "final", "listlegal", "rare", "leaveout",
               "share", "resume" },
  -- The words of the other calls: what a fuzz finding's step was doing
  -- (fuzz.lua's `what`), a param's problem (engine.lua's paramproblem), how
  -- explore, solve and unique left their walk or search (explore.lua,
  -- solve.lua, unique.lua).
  during = { "failed", "after", "emitted", "legal", "undo", "turn", "lastturn", "redo", "rewind", "rewound" },
  paramproblem = { "undeclared", "type", "missing" },
  explore = { "ok", "undo" },
  solvesearch = { "breadth", "best", "depth" },
  solvestep = { "more", "found", "exhausted", "depth", "full", "undo", "done" },
  probe = { "none", "ok", "over" },
  solvestart = { "dead", "open" },
  solveshare = { "ok", "undo" },
  solvechild = { "seen", "goal", "dead", "leaf", "open" },
}
