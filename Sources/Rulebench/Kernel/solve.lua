-- The solver's search: what `rulebench solve` runs (Solve/Solver.swift).
--
-- Each distinct state is expanded once: its legal moves performed, each
-- child's hash looked up, each move undone (strictly verified). The search
-- keeps, in SEARCH:
--   seen   state hash (an integer) -> the state's number (1: the start);
--          the closed and the open set at once
--   up     number -> parent's number * SPAN + the move's index in the
--          parent's legal list: how the line to a state is found again
--   g      number -> moves from the start (best-first and depth-first
--          only: they may reach a state again by a shorter line, and then
--          search it again from there; -1 for a dead end)
--   open   the states still to expand (a queue, a heap or a stack: the
--          frontiers below), each entry { n, key, g, h, snap }: snap is a plain copy of the
--          state, written back over the game (only the slots that differ)
--          to expand it. Only open states have one.
-- Breadth-first (no estimate) opens states in order of depth, so the first
-- goal met is at the least depth: the goal is tested when a state is first
-- reached. Best-first (A*) orders by moves + estimate and tests the goal
-- when a state is expanded: the line is shortest when the estimate never
-- exceeds the true distance. Depth-first (`--any`) expands the child with
-- the smallest estimate first and stops at the first goal met.
--
-- Swift calls solvestep again and again; each call expands up to a given
-- number of states and returns the counts, so that progress is shown and
-- Ctrl-C polled between calls. A state's children are committed to the
-- search only once all its moves are done: a call that fails leaves the
-- search as it was before the state it was expanding.
--
-- solveprobe is `check`'s test of an estimate. The walk of `explore
-- --unique` (unique.lua) uses the same steps, through M.walk.
--
-- Every step is the engine's own: the checked perform (check, apply,
-- subactions, invariants, animation plan) and a strictly verified undo,
-- each its own operation under the instruction budget, as explore does.
-- Goals, estimates and dead ends run read-only, as goals always have.

-- Receives: core, state, engine (KernelSource.swift).
-- Returns its table `M`.
local core, state, engine = ...
local M = {}
local API = core.API
local ops = engine.ops
local hashof, mark, rollback, encode, decode, plain, backing = state.hash, state.mark, state.rollback, core.encode, core.decode, state.plain, state.backing
local setwritable = state.setwritable
local operation = core.C.operation or function() end
local tonumber, tointeger, next, type, mathtype, sort = tonumber, math.tointeger, next, type, math.type, table.sort

local SPAN = 1 << 24        -- moves per state that `up` can name (legal lists are far shorter)
local SEARCH                -- the search in progress (see solvebegin)
local WALK                  -- { mark, recs } while a call runs: where it rolls back to

---------------------------------------------------------------- frontiers
-- Each: push(entry), peek() -> entry or nil, pop(), size.
local function fifo()
  local now, nxt, head = {}, {}, 1
  local f = { size = 0 }
  function f.push(e) nxt[#nxt + 1] = e; f.size = f.size + 1 end
  function f.peek()
    if now[head] == nil then
      if nxt[1] == nil then return nil end
      now, nxt, head = nxt, {}, 1
    end
    return now[head]
  end
  function f.pop() now[head] = nil; head = head + 1; f.size = f.size - 1 end
  return f
end

-- Least f = g + h first; among equal f the deeper (nearer the goal, if the
-- estimate is right), then the older: a fixed order, so runs repeat.
local function before(a, b)
  if a.f ~= b.f then return a.f < b.f end
  if a.g ~= b.g then return a.g > b.g end
  return a.order < b.order
end

local function heap()
  local items = {}
  local f = { size = 0 }
  function f.push(e)
    local n = f.size + 1
    f.size = n
    items[n] = e
    while n > 1 do
      local p = n // 2
      if not before(items[n], items[p]) then break end
      items[n], items[p] = items[p], items[n]
      n = p
    end
  end
  function f.peek() return items[1] end
  function f.pop()
    local n = f.size
    items[1], items[n] = items[n], nil
    n = n - 1
    f.size = n
    local i = 1
    while true do
      local l, r, m = 2 * i, 2 * i + 1, i
      if l <= n and before(items[l], items[m]) then m = l end
      if r <= n and before(items[r], items[m]) then m = r end
      if m == i then break end
      items[i], items[m] = items[m], items[i]
      i = m
    end
  end
  return f
end

local function lifo()
  local items = {}
  local f = { size = 0 }
  function f.push(e) f.size = f.size + 1; items[f.size] = e end
  function f.peek() return items[f.size] end
  function f.pop() items[f.size] = nil; f.size = f.size - 1 end
  return f
end

---------------------------------------------------------------- the pack's goal
-- Runs a goal's part (`holds`, `estimate`, `dead_end`) read-only, as a goal.
local function ask(fn, what)
  operation()
  setwritable(false, what)
  local ctx = "goal '" .. SEARCH.goal .. "' " .. what
  return fn(state.game()), ctx
end

local function goal()
  operation()
  return ops.goal(SEARCH.goal)
end

local function estimate()
  local fn = SEARCH.estimate
  if not fn then return 0 end
  local h = ask(fn, "estimate")
  if type(h) ~= "number" or h ~= h or h < 0 or h == math.huge then
    core.fail("error", "goal '" .. SEARCH.goal .. "': estimate returned " .. core.show(h)
      .. " (an estimate returns the moves still needed: a number, 0 or more)", { fn = fn })
  end
  return h
end

local function deadend()
  local fn = SEARCH.deadend
  if not fn then return false end
  local dead = ask(fn, "dead_end")
  if dead ~= true and dead ~= false then
    core.fail("error", "goal '" .. SEARCH.goal .. "': dead_end returned " .. core.show(dead) .. " (it returns true or false)", { fn = fn })
  end
  return dead
end

---------------------------------------------------------------- states
local function keyof()
  return tonumber(hashof(), 16)
end

-- Makes state table `p` hold what the plain table `want` holds, writing
-- only the slots that differ (through the barrier, journaled). Tables
-- written are copies: a snapshot is never adopted into the state.
local function sync(p, want)
  local have = backing(p)
  for k, v in next, want do
    local cur = have[k]
    if type(v) == "table" then
      if type(cur) == "table" then sync(cur, v) else p[k] = plain(v) end
    elseif cur ~= v or mathtype(cur) ~= mathtype(v) then
      p[k] = v
    end
  end
  for k in next, have do
    if want[k] == nil then p[k] = nil end
  end
end

-- The game becomes the open state `e`.
local function restore(e)
  setwritable(true, "the solver's restore")
  sync(state.game(), e.snap)
  setwritable(false, "")
  if keyof() ~= e.key then
    core.fail("error", "the solver wrote a state back and its hash differs: a kernel bug")
  end
end

-- f = g + h, a whole number whatever the estimate: g moves made, h the
-- estimate (any number from 0 up, a fraction or math.maxinteger). A line
-- is a whole number of moves, so an estimate that never overestimates can
-- be rounded up and still never does; and an estimate of 2^53 moves or
-- more counts as 2^53 (far beyond any depth limit: cut all the same). So
-- f never wraps (g + math.maxinteger would) and the counts Swift reads
-- stay integers.
local HUGE_ESTIMATE = 1 << 53
local function cost(g, h)
  if h >= HUGE_ESTIMATE then return g + HUGE_ESTIMATE end
  return g + math.ceil(h)
end

local function entry(n, key, g, h)
  local S = SEARCH
  S.order = S.order + 1
  return { n = n, key = key, g = g, h = h, f = cost(g, h), order = S.order, snap = plain(state.game()) }
end

---------------------------------------------------------------- expanding one state
-- A child reached by move k of open state e, the game being at it. Returns
-- nil, or "found" / "full". Children new to the search go to `born`, to be
-- committed once e is done.
local function reach(e, k, born)
  local S = SEARCH
  local key, g = keyof(), e.g + 1
  local n = S.seen[key]
  if (S.table and born.keys[key]) or n and (not S.g or S.g[n] < 0 or S.g[n] <= g) then
    S.stats.transpositions = S.stats.transpositions + 1
    return nil
  end
  if not n then
    if S.count + #born >= S.bound then return "full" end
    if S.mode ~= "best" and goal() then
      S.found = { n = e.n, k = k }
      return "found"
    end
    if deadend() then
      S.stats.pruned = S.stats.pruned + 1
      born[#born + 1] = { key = key, up = e.n * SPAN + k, g = -1 }
      born.keys[key] = true
      return nil
    end
  end
  local h = S.mode == "breadth" and 0 or estimate()
  -- A state at the limit is never expanded (best-first: no line through it
  -- fits within the limit): kept in the closed set, with no copy.
  if (S.mode == "best" and cost(g, h) > S.maxdepth) or (S.mode ~= "best" and g >= S.maxdepth) then
    S.cut = true
    if not n then born[#born + 1] = { key = key, up = e.n * SPAN + k, g = g } end
    return nil
  end
  born[#born + 1] = { key = key, up = e.n * SPAN + k, g = g, n = n, open = entry(n or 0, key, g, h) }
  born.keys[key] = true
  return nil
end

-- The checked perform of `call`, as its own operation; returns the state's
-- hash after it (its hex text, as state.hash gives it).
local function perform(call)
  operation()
  local hash = ops.perform(call.name, call.params, nil, "hash")
  ops.commit()
  return hash
end

-- The strictly verified undo of `call`, as its own operation; the state
-- must be back to the hash `key` (keyof's integer, or state.hash's hex text).
-- Returns the problems, or nil.
local function undo(call, key)
  operation()
  local after, _, problems = ops.undo(true, false)
  ops.commit()
  if not problems and after ~= key and tonumber(after, 16) ~= key then
    local before = type(key) == "string" and key or ("%016x"):format(key)
    problems = { { action = call.name, diffs = { { path = "(state hash)", before = before, after = after,
                   note = "the state differs from before the action" } } } }
  end
  return problems
end

-- Performs move k (call) of the open state e, visits the child, undoes
-- the move (verified). Returns nil, or a status that ends the call.
local function move(e, k, call, born)
  local S = SEARCH
  S.move = k
  perform(call)
  S.stats.performs = S.stats.performs + 1
  local stop = reach(e, k, born)
  if stop then return stop end
  local problems = undo(call, e.key)
  if problems then
    S.problems = problems
    return "undo"
  end
  S.move = nil
  return nil
end

-- Adds the children of a finished state to the search.
local function commit(born)
  local S = SEARCH
  if S.mode == "depth" then
    -- The best child is expanded next: pushed last.
    sort(born, function(a, b)
      local x, y = a.open and a.open.h or -1, b.open and b.open.h or -1
      if x ~= y then return x > y end
      return a.up > b.up
    end)
  end
  for i = 1, #born do
    local b = born[i]
    local n = b.n
    if not n then
      n = S.count + 1
      S.count = n
      S.seen[b.key] = n
    end
    S.up[n] = b.up
    if S.g then S.g[n] = b.g end
    if b.open then
      b.open.n = n
      S.open.push(b.open)
    end
  end
end

-- Expands the open state e; returns nil or a status that ends the call.
local function expand(e)
  local S = SEARCH
  if S.g and S.g[e.n] ~= e.g then S.open.pop(); return nil end   -- reached again by a shorter line since
  if S.mode == "breadth" and S.stats.finished ~= e.g then
    -- The first state of a depth: every state within e.g moves is reached, none deeper yet.
    S.stats.finished, S.stats.within = e.g, S.count
  end
  if S.mode == "best" then
    -- With an estimate that never overestimates, no line shorter than f remains.
    S.stats.depth, S.stats.finished = e.f, e.f - 1
    restore(e)
    S.at = e.n
    if goal() then
      S.found = { n = e.n }
      return "found"
    end
  end
  if e.g >= S.maxdepth then
    S.cut = true
    S.open.pop()
    return nil
  end
  if S.mode ~= "best" then
    S.stats.depth = S.mode == "breadth" and e.g + 1 or e.g
    restore(e)
    S.at = e.n
  end
  operation()
  local calls = ops.legal()
  local born = { keys = {} }
  for k = 1, #calls do
    local stop = move(e, k, calls[k], born)
    if stop then
      if stop == "found" then commit(born) end
      return stop
    end
  end
  S.open.pop()
  commit(born)
  S.stats.expanded = S.stats.expanded + 1
  S.at = nil
  return nil
end

---------------------------------------------------------------- calls
-- Back to where the call began: its actions rolled back from the journal
-- and their records dropped.
local function unwind()
  rollback(WALK.mark)
  local recs = ops.records()
  for i = #recs, WALK.recs + 1, -1 do recs[i] = nil end
  WALK = nil
end

local function begincall()
  if not SEARCH then core.fail("error", "no search is running") end
  WALK = { mark = mark(), recs = #ops.records() }
end

local MODES = { breadth = fifo, best = heap, depth = lifo }

-- solvebegin(goal, bound, table, maxdepth, how): a new search for `goal`,
-- keeping at most `bound` states; table "0" keeps none (every line is
-- searched: to measure what the closed set saves). how: "shortest" (the
-- goal's estimate, when it declares one, orders the search), "breadth"
-- (breadth-first whatever the goal declares) or "any" (depth-first, the
-- estimate ordering the moves). Returns the search chosen and whether the
-- goal holds at the start ("breadth"/"best"/"depth", "true"/"false").
function API.solvebegin(goalname, bound, table, maxdepth, how)
  local pack = ops.pack()
  if not pack or not state.game() then core.fail("error", "no game is running") end
  if not pack.goals[goalname] then ops.goal(goalname) end   -- raises "unknown goal", with the names
  local spec = pack.goals[goalname]
  local parts = type(spec) == "table" and spec or {}
  local mode = how == "any" and "depth" or (how == "shortest" and parts.estimate) and "best" or "breadth"
  SEARCH = { goal = goalname, bound = tointeger(tonumber(bound)) or 0, table = table ~= "0", mode = mode,
             maxdepth = tointeger(tonumber(maxdepth)) or 0, estimate = parts.estimate, deadend = parts.dead_end,
             seen = {}, up = {}, g = mode ~= "breadth" and {} or nil, open = MODES[mode](), count = 1, order = 0,
             stats = { expanded = 0, performs = 0, transpositions = 0, pruned = 0, depth = 0, finished = -1 } }
  if not SEARCH.table then
    -- Without the closed set every line is searched: no state is ever seen.
    SEARCH.seen = setmetatable({}, { __newindex = function() end })
  end
  local key = keyof()
  SEARCH.seen[key] = 1
  SEARCH.up[1] = 0
  if SEARCH.g then SEARCH.g[1] = 0 end
  local holds = goal()
  if not holds then
    if deadend() then
      SEARCH.stats.pruned = 1
    else
      SEARCH.open.push(entry(1, key, 0, mode == "breadth" and 0 or estimate()))
    end
  end
  setwritable(false, "")
  return mode, holds and "true" or "false"
end

local function counts()
  local S, s = SEARCH, SEARCH.stats
  return encode({ expanded = s.expanded, states = S.count, performs = s.performs, transpositions = s.transpositions,
                  pruned = s.pruned, depth = s.depth, finished = s.finished, within = s.within, open = S.open.size })
end

-- solvestep(n): expands up to n states. Returns the status ("more",
-- "found", "exhausted": every reachable state searched, "depth": states
-- at the depth limit left unexpanded, "full": the bound reached, "undo"
-- with the problems), then the counts so far.
function API.solvestep(n)
  begincall()
  local S = SEARCH
  local status
  for _ = 1, tointeger(tonumber(n)) or 1 do
    local e = S.open.peek()
    if not e then
      status = S.cut and "depth" or "exhausted"
      -- Breadth-first tested every state within the limit, those at it included.
      if S.cut and S.mode == "breadth" then S.stats.finished, S.stats.within = S.maxdepth, S.count end
      break
    end
    status = expand(e)
    if status then break end
  end
  unwind()
  setwritable(false, "")
  if status == "undo" then return status, counts(), encode(S.problems) end
  return status or "more", counts(), ""
end

-- The moves (indices in legal lists) from the start to state n.
local function movesto(n)
  local S, moves = SEARCH, {}
  while n > 1 do
    local up = S.up[n]
    moves[#moves + 1] = up % SPAN
    n = up // SPAN
  end
  local out = {}
  for i = #moves, 1, -1 do out[#out + 1] = moves[i] end
  return out
end

-- The calls of `moves` (indices in legal lists) from the current state,
-- played through the engine, then rolled back: encoded.
local function replay(moves)
  WALK = { mark = mark(), recs = #ops.records() }
  local line = {}
  for i = 1, #moves do
    operation()
    local call = ops.legal()[moves[i]]
    line[i] = { name = call.name, params = call.params }
    if i < #moves then perform(call) end
  end
  unwind()
  setwritable(false, "")
  return encode(line)
end

-- solveline(): the line found (or, after a failed step, the line to where
-- it failed), as calls: played again from the start through the engine.
function API.solveline()
  if not SEARCH then core.fail("error", "no search is running") end
  local S = SEARCH
  local moves, last = {}, nil
  if S.found then
    moves, last = movesto(S.found.n), S.found.k
  elseif S.at then
    moves, last = movesto(S.at), S.move
  end
  if last then moves[#moves + 1] = last end
  return replay(moves)
end

---------------------------------------------------------------- a worker's share
-- What `solve --jobs N` (Solve/ParallelSolver.swift) asks of each worker's
-- kernel: the search's closed set and its order live in Swift; a worker
-- only expands the states it is handed, with the same steps as above.

-- solvesnap(): the current state's hash, its plain copy (encoded) and
-- "dead" when solvebegin pruned it ("open" else): the start of a search
-- spread over workers.
function API.solvesnap()
  return hashof(), encode(plain(state.game())), SEARCH and SEARCH.open.size == 0 and "dead" or "open"
end

-- A worker's record of the states it has met (handed to it or reached),
-- by hash. The batches a worker takes come in the search's order, so a
-- state it met before is met again later in that order: a transposition
-- there, sent as "seen", without its copy and without asking the goal.
-- Only a cache (dropped whole past MET_MAX states, to bound memory).
local MET_MAX = 1 << 18

local function meet(S, key)
  if not S.met[key] then
    S.met[key] = true
    S.metcount = S.metcount + 1
  end
end

-- The children of the open state whose hash is `hex` and whose plain copy
-- is `snap`, at `depth` moves from the start, appended to `out`: for each
-- legal move in order, the child's hash, what it is ("seen": met before by
-- this worker; "goal", "dead", "leaf": at the depth limit, or "open") and,
-- for "open", its plain copy. The goal and dead end are asked of every
-- child not met before: which are new is known only to the caller. A child
-- that meets the goal ends the call (returns "goal"): it is new (a state
-- meeting the goal is found when first reached), so nothing after it in
-- the search's order matters.
local function children(hex, snap, depth, out)
  local S = SEARCH
  local e = { key = tonumber(hex, 16), snap = decode(snap), g = depth }
  restore(e)
  meet(S, e.key)
  operation()
  local calls = ops.legal()
  local slot = #out + 1
  out[slot] = "0"
  for k = 1, #calls do
    S.move = k
    perform(calls[k])
    out[slot] = tostring(k)
    local child = hashof()
    local key = tonumber(child, 16)
    local kind = S.met[key] and "seen" or goal() and "goal" or deadend() and "dead"
                 or depth + 1 >= S.maxdepth and "leaf" or "open"
    meet(S, key)
    out[#out + 1] = child
    out[#out + 1] = kind
    out[#out + 1] = kind == "open" and encode(plain(state.game())) or ""
    local problems = undo(calls[k], e.key)
    if problems then
      S.problems = problems
      return "undo"
    end
    S.move = nil
    if kind == "goal" then return "goal" end
  end
  return nil
end

-- solvechildren(depth, record, hex1, snap1, hex2, snap2, ...): the
-- children of each state handed (see children), one state after another,
-- up to the first child that meets the goal: "ok", then for each state its
-- number of moves met and three values per move. `record` "forget" drops
-- the worker's record of states met first (for states handed out of the
-- search's order), "keep" keeps it. When an undo does not restore a
-- state: "undo", the problems, the index of the state (from 1) and the
-- move. The game is back where it was.
function API.solvechildren(depth, record, ...)
  begincall()
  local args, out, status, at = { ... }, { "ok" }, nil, nil
  depth = tointeger(tonumber(depth)) or 0
  if record == "forget" or not SEARCH.met or SEARCH.metcount >= MET_MAX then SEARCH.met, SEARCH.metcount = {}, 0 end
  for i = 1, #args, 2 do
    SEARCH.at = (i + 1) // 2
    status = children(args[i], args[i + 1], depth, out)
    if status then at = SEARCH.at; break end
  end
  unwind()
  setwritable(false, "")
  if status == "undo" then return "undo", encode(SEARCH.problems), tostring(at), tostring(SEARCH.move) end
  SEARCH.at = nil
  return table.unpack(out)
end

-- solvefailed(): after a solvechildren call that raised, the index of the
-- state it was expanding and the move it was performing ("0": none).
function API.solvefailed()
  return tostring(SEARCH and SEARCH.at or 0), tostring(SEARCH and SEARCH.move or 0)
end

-- solvereplay(k1, k2, ...): the calls of these moves (indices in legal
-- lists) from the current state, played through the engine and rolled
-- back: encoded.
function API.solvereplay(...)
  local moves = {}
  for i, k in ipairs({ ... }) do moves[i] = tointeger(tonumber(k)) end
  return replay(moves)
end

---------------------------------------------------------------- checking an estimate
-- solveprobe(goal, depth, bound): what `rulebench check` asks of a goal's
-- estimate in the current state. "none" when the goal declares none. Else
-- a breadth-first search of at most `depth` moves (and `bound` states)
-- for the goal; when it finds a line of d moves, the state i moves along
-- it is at most d - i moves from the goal, so an estimate above d - i
-- there overestimates. Returns "ok", or "over" with the worst such state
-- (encoded: at, estimate, most, file, line of the estimate).
function API.solveprobe(goalname, depth, bound)
  local spec = ops.pack().goals[goalname]
  if type(spec) ~= "table" or not spec.estimate then return "none" end
  API.solvebegin(goalname, bound, "1", depth, "breadth")
  local S, status = SEARCH, "more"
  if ops.goal(goalname) then S.found = { n = 1 } end
  while not S.found and status == "more" do status = API.solvestep(bound) end
  local worst
  if S.found then
    local moves = movesto(S.found.n)
    if S.found.k then moves[#moves + 1] = S.found.k end
    WALK = { mark = mark(), recs = #ops.records() }
    for i = 0, #moves do
      local h = estimate()
      if h > #moves - i and (not worst or h - (#moves - i) > worst.estimate - worst.most) then
        worst = { at = i, estimate = h, most = #moves - i, shown = ("%.14g"):format(h) }
      end
      if i < #moves then
        operation()
        perform(ops.legal()[moves[i + 1]])
      end
    end
    unwind()
    setwritable(false, "")
  end
  SEARCH = nil
  if not worst then return "ok" end
  worst.file, worst.line = core.site(spec.estimate)
  worst.estimate = nil   -- sent as text (shown): it may be a float
  return "over", encode(worst)
end

-- solveend(): the search is over; its tables are let go.
function API.solveend()
  SEARCH, WALK = nil, nil
  return ""
end

-- What `explore --unique`'s walk (unique.lua) shares with the search: a
-- call begins with open() and ends with close() (abort closes it too).
M.walk = {
  keyof = keyof, restore = restore, perform = perform, undo = undo, replay = replay,
  open = function() WALK = { mark = mark(), recs = #ops.records() } end,
  close = function() unwind(); setwritable(false, "") end,
}

-- A call that failed: back to where it began, with the engine's own abort first.
local abort = API.abort
function API.abort()
  local running = abort()
  if WALK then unwind() end
  return running
end

return M
