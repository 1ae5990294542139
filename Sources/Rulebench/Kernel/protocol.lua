-- The words of the kernel's protocol with Swift, declared once on this side:
-- the values that cross inside requests and replies (a finding's property, a
-- step's op, an outcome's kind, a failure's cause, what a redo changed, a
-- travel's step, a fuzz request's fields, and the other calls' words below).
-- Every word of the protocol is here: a Swift enum of raw words under
-- Sources/Rulebench/Kernel that KernelWords.groups leaves out fails
-- KernelWordsTests.
-- Swift names the same words in Kernel/KernelWords.swift; the kernel test
-- Tests/KernelTests/protocol.lua checks that the two lists are equal, and
-- that every entry point Swift calls (KernelEntry) is a function here.
--
-- Invariant: a word the kernel sends is listed here; a word listed here is
-- one Swift knows (and the other way round).

-- Receives nothing.
-- Returns its table `M`.
local M = {}

M.WORDS = {
  -- A finding's property (fuzz.lua): the kernel checks the first eight; the
  -- last four are checked in Swift, around the kernel's runs.
  property = { "undoRestores", "redoReproduces", "undoMirrorsDo", "failureChangesNothing", "legalIsAllowed",
               "invariantsHold", "rewindAndReplay", "seatSeesOnly", "saveAndLoad", "animationIsSound", "deterministic",
               "sequenceTextsRead" },
  op = { "do", "try", "undo", "redo", "turn", "lastturn", "any" },
  outcome = { "performed", "rejected", "undone", "redone", "failed" },
  cause = { "budget", "memory", "error" },
  redo = { "state hash", "subaction tree", "animation plan" },
  travel = { "undone", "redone", "failed", "differs" },
  request = { "choices", "depth", "program", "checklegal", "recordlegal", "final", "listlegal", "rare", "leaveout",
               "share", "resume", "reads" },
  -- The words of the other calls: what a fuzz finding's step was doing
  -- (fuzz.lua's `what`), a param's problem (engine.lua's paramproblem), how
  -- explore, solve and unique left their walk or search (explore.lua,
  -- solve.lua, unique.lua).
  during = { "failed", "after", "before", "emitted", "legal", "undo", "turn", "lastturn", "redo", "rewind", "rewound" },
  paramproblem = { "undeclared", "type", "missing" },
  explore = { "ok", "undo" },
  solvesearch = { "breadth", "best", "depth" },
  solvestep = { "more", "found", "exhausted", "depth", "full", "undo", "done" },
  probe = { "none", "ok", "over" },
  solvestart = { "dead", "open" },
  solveshare = { "ok", "undo" },
  solvechild = { "seen", "goal", "dead", "leaf", "open" },
  -- How value.lua's search began and why a value call stopped short.
  valuestart = { "ok", "over", "none", "seats", "stuck", "turn" },
  valuestop = { "ok", "chance", "undo", "stuck", "turn", "budget" },
  -- An error object's kind (core.lua's core.fail); the last five are the
  -- bridge's own (a Lua error of rule code, and what stopped a call).
  errorkind = { "rejected", "invariant", "params", "unknown", "path", "load", "error",
                "script", "instructionBudget", "memoryCap", "wallClock", "interrupted" },
  -- What a seat was shown that its secrets changed (seats.lua's probes).
  shown = { "view", "calls", "scene", "plan", "changes" },
  -- A scene node's outline (view.lua) and a tween's easing (anim.lua,
  -- animcore.c), and how a plan's subanimations combine (engine.lua).
  shape = { "rect", "round", "circle", "diamond", "none" },
  easing = { "linear", "easeIn", "easeOut", "easeInOut" },
  subanimations = { "parallel", "sequence", "stagger" },
}

-- Each group as a set (word -> true), for the kernel's own checks of a word
-- it is given (anim.lua's easings, view.lua's shapes).
M.WORDSET = {}
for group, words in next, M.WORDS do
  local set = {}
  for _, word in ipairs(words) do set[word] = true end
  M.WORDSET[group] = set
end

return M
