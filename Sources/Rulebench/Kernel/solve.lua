-- The solver's walk: the depth-limited search behind `rulebench solve`.
--
-- Swift's Solver deepens the limit one move at a time (iterative
-- deepening) and walks the top levels of each iteration itself, through
-- Game; below a level it chooses, one call here walks a whole subtree.
-- This file owns that walk and the transposition table they share:
--   SEARCH.seen   state hash (as an integer) -> the smallest depth at which
--                 the state's subtree was searched to the iteration's limit
--                 in this iteration; a state reached again no shallower is
--                 not searched again (its subtree can hold nothing new).
--   SEARCH.open   hash -> depth of the states on the current path: a line
--                 that comes back to one of them is a cycle, never shortest.
-- A state enters `seen` only once its subtree is done (or, at the limit,
-- once its goal test is done), so a call that is stopped and run again
-- (luashim.c, rb_call) finds only finished work there, and searches
-- whatever it had begun afresh. That is the same search as marking states
-- when they are first reached: a state in `open` is on the path, and one
-- that is neither has not been reached at that depth or less.
--
-- Every step is the engine's own: the checked perform (check, apply,
-- subactions, invariants, animation plan), a strictly verified undo, each
-- its own operation under the instruction budget, as explore does.

local K = ...
local API = K.API
local ops = K.ops
local hashof, mark, rollback, encode = K.hash, K.mark, K.rollback, K.encode
local setwritable = K.setwritable
local operation = K.C.operation or function() end
local tonumber, tointeger, next = tonumber, math.tointeger, next

local SEARCH        -- the search in progress (see solvebegin)
local WALK          -- { mark, recs, depth } while a subtree walk runs
local PATH = {}     -- the walk's calls, from the subtree's root: a solution, or where it failed
local COUNTS        -- what the current call did: nodes, cut, performs, frontier

-- The table's key of the current state, or true when the table is off.
local function keyof()
  if not SEARCH.table then return true end
  return tonumber(hashof(), 16)
end

-- Whether the state with `key`, reached at `depth`, needs searching.
local function fresh(key, depth)
  if key == true then return true end
  if SEARCH.open[key] then return false end
  local at = SEARCH.seen[key]
  return at == nil or at > depth
end

-- Records that the state's search at `depth` is done; false when the
-- table is full (the memory bound).
local function done(key, depth)
  if key == true then return true end
  SEARCH.open[key] = nil
  local seen = SEARCH.seen
  if seen[key] == nil then
    if SEARCH.count >= SEARCH.bound then return false end
    SEARCH.count = SEARCH.count + 1
  end
  seen[key] = depth
  return true
end

local function goal()
  operation()
  return ops.goal(SEARCH.goal)
end

-- Searches the current state, reached at `depth`, to the limit. Returns
-- nil when nothing was found, or "found" (PATH holds the line from the
-- walk's root), "full" or "undo" (SEARCH.problems): the walk then stops
-- where it is, and the caller rolls it back.
local function visit(depth, limit, level)
  local key = keyof()
  if not fresh(key, depth) then
    COUNTS.cut = COUNTS.cut + 1
    return nil
  end
  COUNTS.nodes = COUNTS.nodes + 1
  if depth == limit then
    COUNTS.frontier = COUNTS.frontier + 1
    if goal() then return "found" end
    if not done(key, depth) then return "full" end
    return nil
  end
  if key ~= true then SEARCH.open[key] = depth end
  operation()
  local calls = ops.legal()
  for i = 1, #calls do
    local call = calls[i]
    PATH[level] = call
    local before = hashof()
    operation()
    ops.perform(call.name, call.params, nil, "hash")
    ops.commit()
    COUNTS.performs = COUNTS.performs + 1
    local stop = visit(depth + 1, limit, level + 1)
    if stop then return stop end
    operation()
    local after, _, problems = ops.undo(true, false)
    ops.commit()
    if not problems and after ~= before then
      problems = { { action = call.name, diffs = { { path = "(state hash)", before = before, after = after,
                     note = "the state differs from before the action" } } } }
    end
    if problems then
      SEARCH.problems = problems
      return "undo"
    end
  end
  PATH[level] = nil
  if not done(key, depth) then return "full" end
  return nil
end

-- Back to where the walk began: its actions rolled back from the journal,
-- their records dropped, and the path's marks below the walk's root gone.
local function unwind()
  rollback(WALK.mark)
  local recs = ops.records()
  for i = #recs, WALK.recs + 1, -1 do recs[i] = nil end
  for key, depth in next, SEARCH.open do
    if depth >= WALK.depth then SEARCH.open[key] = nil end
  end
  WALK = nil
end

-- solvebegin(goal, bound, table): a new search for `goal`, keeping at most
-- `bound` states in its table; table "0" searches without one (to measure
-- what the table saves).
function API.solvebegin(goalname, bound, table)
  local pack = ops.pack()
  if not pack or not K.game then K.fail("error", "no game is running") end
  if not pack.goals[goalname] then ops.goal(goalname) end   -- raises "unknown goal", with the names
  SEARCH = { goal = goalname, bound = tointeger(tonumber(bound)) or 0, table = table ~= "0",
             seen = {}, open = {}, count = 0 }
  return ""
end

-- solveiteration(): an empty table for the next, deeper iteration (its
-- depths are measured against the old limit).
function API.solveiteration()
  SEARCH.seen, SEARCH.open, SEARCH.count = {}, {}, 0
  return ""
end

-- solvevisit(depth, limit, walk): the current state, reached at `depth`.
-- walk "1": search its whole subtree to `limit` here. walk "0": only
-- decide whether Swift should expand it ("open": its moves are Swift's to
-- walk, then solveclose), skip it ("skip") or test the goal ("found" or
-- "leaf", at the limit). Returns the status, then the counts of the call
-- and, for "found", the line from this state (encoded); "undo" comes with
-- the problems instead.
function API.solvevisit(depth, limit, walk)
  if not SEARCH then K.fail("error", "no search is running") end
  depth, limit = tointeger(tonumber(depth)), tointeger(tonumber(limit))
  COUNTS = { nodes = 0, cut = 0, performs = 0, frontier = 0 }
  local status
  if walk == "0" and depth < limit then
    local key = keyof()
    if not fresh(key, depth) then
      COUNTS.cut = 1
      status = "skip"
    else
      COUNTS.nodes = 1
      if key ~= true then SEARCH.open[key] = depth end
      status = "open"
    end
  else
    WALK = { mark = mark(), recs = #ops.records(), depth = depth }
    PATH = {}
    status = visit(depth, limit, 1) or "done"
    unwind()
  end
  setwritable(false, "")
  if status == "undo" then return status, encode(COUNTS), encode(SEARCH.problems) end
  return status, encode(COUNTS), status == "found" and encode(PATH) or ""
end

-- solveclose(depth): Swift has walked every move of the state it opened
-- at `depth` (the state is that one again). "full" when the table is.
function API.solveclose(depth)
  return done(keyof(), tointeger(tonumber(depth))) and "ok" or "full"
end

-- solvecount(): the distinct states in the table (this iteration's).
function API.solvecount()
  return tostring(SEARCH and SEARCH.count or 0)
end

-- solvepath(): the walk's line to where its last call failed.
function API.solvepath()
  return encode(PATH)
end

-- solveend(): the search is over; its table is let go.
function API.solveend()
  SEARCH, WALK = nil, nil
  return ""
end

-- A walk that failed or was stopped (an error, a call run again counted):
-- back to where it began, with the engine's own abort first.
local abort = API.abort
function API.abort()
  abort()
  if WALK then unwind() end
end

return API
