-- The walk of `rulebench explore`: every sequence of legal actions up to a
-- depth, performed and undone inside the kernel with the engine's own steps
-- (engine.steps, engine.lua), one crossing for the whole walk.
--
-- Invariant: whatever happens (an undo that does not restore, a rule's
-- error, the budget), the state and the history are the ones the walk
-- started from when it returns or when abort has run (M.unwindexplore).

-- Receives: core, state, engine (KernelSource.swift).
-- Returns its table `M`; fills engine's unwindexplore.
local core, state, engine = ...
local M = {}
local API = core.API
local steps = engine.steps
local nogame, legalcalls, run, checkinvariants = steps.nogame, steps.legal, steps.run, steps.invariants
local planorbare, undorec, begin, push, pop = steps.plan, steps.undorec, steps.begin, steps.push, steps.pop
local rollback, mark, truncate, hashof, setwritable = state.rollback, state.mark, state.truncate, state.hash, state.setwritable
local encode = core.encode
local tonumber, tointeger = tonumber, math.tointeger

-- explore(depth): every sequence of legal actions up to `depth` from the
-- current state, walked as Swift's Explorer walks it through Game (perform,
-- recurse, strict undo, the hash back to what it was), but without a
-- crossing per node. Each legal enumeration, perform and undo is its own
-- operation for the instruction budget (C.operation starts one). Plans
-- are built in the "checks" shape (engine.lua's SHAPE): every sound and
-- animate runs and every plan is checked, and no node is made, as the walk
-- reads none.
--
-- Returns "ok", the counts per depth and the finished games: { finished
-- = the sequences of each length from 0 (the start) to depth - 1 that end
-- at a state with no legal call or a reached goal (the walk goes on past a
-- goal), ended = the hashes of the states they end at, a list per length };
-- or "undo" and the problems of an undo that did not restore the state.
-- Any other failure raises. Either way EXPLORED.path is the path to the failure, and the walk's actions are
-- undone from the journal (here, or by abort when an error unwound): the
-- state is the one explore started from.
local operation = core.C.operation or function() end
local EXPLORED = { path = {} }
local EXPLORING                  -- { recs = #RECS, mark = journal mark } while a walk runs

local function unwind()
  rollback(EXPLORING.mark)
  local recs = steps.records()
  for i = #recs, EXPLORING.recs + 1, -1 do recs[i] = nil end
  EXPLORING = nil
end

-- Abort's part (engine.lua): a walk an error unwound is undone from the journal.
function M.unwindexplore()
  if EXPLORING then unwind() end
end

-- A state with no legal call or a reached goal (engine's anygoal) ends a
-- finished game, for this walk and `explore --unique`'s (unique.lua).
local goalreached = engine.ops.anygoal

-- explore(depth, strict)
function API.explore(depth, strict)
  strict = strict ~= "0"
  nogame()
  steps.drop()
  depth = tointeger(tonumber(depth)) or 0
  local counts, path, finished, ended, seen = {}, {}, {}, {}, {}
  for i = 1, depth do counts[i], finished[i], ended[i], seen[i] = 0, 0, {}, {} end
  EXPLORED.path = path
  EXPLORING = { recs = #steps.records(), mark = mark() }
  local failure
  local function visit(level)
    operation()
    local calls = legalcalls()
    if #calls == 0 or goalreached() then   -- a finished game: the sequences of length level - 1 that reach it end here
      finished[level] = finished[level] + 1
      local hash = hashof()
      if not seen[level][hash] then seen[level][hash] = true; ended[level][#ended[level] + 1] = hash end
    end
    for i = 1, #calls do
      local call = calls[i]
      path[level] = call
      local before = hashof()
      operation()
      begin("perform")
      local rec = run(call.name, call.params, call.name, 0)
      checkinvariants()
      planorbare(rec, "do", "checks")
      push(rec)
      counts[level] = counts[level] + 1
      if level < depth and not visit(level + 1) then return false end
      operation()
      begin("undo")
      local problems = undorec(rec, strict, nil)
      planorbare(rec, "undo", "checks")
      pop()
      truncate(rec.s)
      local after = hashof()
      if strict and not problems and after ~= before then
        problems = { { action = call.name, diffs = { { path = "(state hash)", before = before, after = after,
                       note = "the state differs from before the action" } } } }
      end
      if problems then failure = problems; return false end
    end
    path[level] = nil
    return true
  end
  if depth > 0 then visit(1) end
  unwind()
  setwritable(false, "")
  if failure then return "undo", encode(failure) end
  return "ok", encode(counts), encode({ finished = finished, ended = ended })
end

-- The path of the last explore, to report where it failed.
function API.explored()
  return encode(EXPLORED.path)
end

engine.provide("unwindexplore", M.unwindexplore)

return M
