-- The walk of `explore --unique` (Exploration/Explorer.swift): the distinct
-- states at each depth, and the action sequences that reach them.
-- It walks a depth at a time: each state of a depth is expanded once
-- (a closed set per depth), its sequences carried over as a count, so the
-- walk costs the distinct states of each depth, not the sequences. UNIQUE:
--   layer, at   the states of the depth being expanded, and the next one
--   nxt, order  key -> entry of the next depth, and the entries in order
--   entry       { key, snap, paths (the sequences ending there), up (the
--               entry and the move that first reached it: the line to a failure) }
--   sequences, distinct   the counts of each depth finished
--   finished, ended       per depth expanded: the sequences that end there
--               (a state with no legal call or a reached goal, engine's anygoal:
--               a finished game) and the
--               distinct states they end at
-- Each step is the search's own (Kernel/solve.lua, through solve.walk): a state
-- written back from its copy, the checked perform, the verified undo.

-- Receives: core, state, engine, solve (KernelSource.swift).
-- Returns its table `M`.
local core, state, engine, solve = ...
local M = {}
local API = core.API
local ops, encode, decode, plain, hashof = engine.ops, core.encode, core.decode, state.plain, state.hash
local walk = solve.walk
local keyof, restore, perform, undo, replay = walk.keyof, walk.restore, walk.perform, walk.undo, walk.replay
local operation = core.C.operation or function() end
local tonumber, tointeger = tonumber, math.tointeger

local UNIQUE   -- the walk in progress (see uniquebegin)

local function add(a, b)   -- sequences grow exponentially: saturate, never wrap
  local sum = a + b
  return sum < a and math.maxinteger or sum
end

-- uniquebegin(depth, bound): a walk `depth` moves deep from the current
-- state, keeping at most `bound` states in all.
function API.uniquebegin(depth, bound)
  if not state.game() then core.fail("error", "no game is running") end
  UNIQUE = { depth = tointeger(tonumber(depth)) or 0, bound = tointeger(tonumber(bound)) or 0, kept = 0,
             layer = { { key = keyof(), snap = plain(state.game()), paths = 1 } }, at = 1, nxt = {}, order = {},
             sequences = {}, distinct = {}, finished = {}, ended = {} }
  return ""
end

-- Moves the child reached by move k of entry e into `born`.
local function uniquechild(e, k, born)
  local U, key = UNIQUE, keyof()
  local b = born.map[key] or U.nxt[key]
  if not b then
    if U.kept + #born >= U.bound then
      core.fail("error", "explore --unique keeps every distinct state, and it reached its bound of " .. U.bound
        .. " states: lower --depth, or raise the bound with --max-states (each a copy of the state)")
    end
    b = { key = key, snap = plain(state.game()), paths = 0, up = e, k = k, new = true }
  end
  if not born.map[key] then
    born.map[key] = b
    born[#born + 1] = b
  end
  born.more[key] = add(born.more[key] or 0, e.paths)
end

-- Expands entry e of the layer; returns nil, or "undo" (U.problems).
local function uniqueexpand(e)
  local U = UNIQUE
  restore(e)
  U.current = e
  operation()
  local calls = ops.legal()
  if #calls == 0 or ops.anygoal() then   -- a finished game: its sequences end here (depth 0 is the start)
    local level = #U.sequences + 1
    U.finished[level] = add(U.finished[level] or 0, e.paths)
    U.ended[level] = (U.ended[level] or 0) + 1
  end
  local born = { map = {}, more = {} }   -- the children, and the sequences this state adds to each
  for k = 1, #calls do
    U.move = k
    perform(calls[k])
    uniquechild(e, k, born)
    U.problems = undo(calls[k], e.key)
    if U.problems then return "undo" end
  end
  U.move = nil
  -- Committed once every move is done, in move order: a failed call leaves
  -- the walk as it was before this state.
  for i = 1, #born do
    local b = born[i]
    b.paths = add(b.paths, born.more[b.key])
    if b.new then
      b.new = nil
      U.kept = U.kept + 1
      U.nxt[b.key] = b
      U.order[#U.order + 1] = b
    end
  end
  e.snap = nil
  return nil
end

-- The depth being expanded is done: its children become the layer.
local function nextdepth()
  local U = UNIQUE
  local level, sum = #U.sequences + 1, 0
  for i = 1, #U.order do sum = add(sum, U.order[i].paths) end
  U.sequences[level], U.distinct[level] = sum, #U.order
  U.layer, U.at, U.nxt, U.order = U.order, 1, {}, {}
end

-- uniquestep(n): expands up to n states. Returns "more", "done" or "undo"
-- (then the problems), and the counts of the depths finished, encoded.
function API.uniquestep(n)
  if not UNIQUE then core.fail("error", "no walk is running") end
  local U = UNIQUE
  walk.open()
  local status
  for _ = 1, tointeger(tonumber(n)) or 1 do
    if #U.sequences >= U.depth or #U.layer == 0 then status = "done"; break end
    local e = U.layer[U.at]
    if e then
      status = uniqueexpand(e)
      if status then break end
      U.at = U.at + 1
    else
      nextdepth()
    end
  end
  walk.close()
  -- Finished games per depth expanded whole (0 to #sequences - 1), depth 0 (the start) first.
  local finished, ended = {}, {}
  for level = 1, #U.sequences do finished[level], ended[level] = U.finished[level] or 0, U.ended[level] or 0 end
  local counts = encode({ sequences = U.sequences, distinct = U.distinct, finished = finished, ended = ended })
  return status or "more", counts, status == "undo" and encode(U.problems) or ""
end

-- uniqueline(): after a failed step, the line to where it failed.
function API.uniqueline()
  if not UNIQUE then return encode({}) end
  local moves, e = {}, UNIQUE.current
  while e and e.up do
    table.insert(moves, 1, e.k)
    e = e.up
  end
  if UNIQUE.move then moves[#moves + 1] = UNIQUE.move end
  return replay(moves)
end

-- uniquechildren(last, hex1, snap1, hex2, snap2, ...): a worker's share of
-- `explore --unique --jobs N` (Exploration/Explorer+UniqueWorkers.swift), where
-- the states of each depth, their order and their counts live in Swift:
-- the children of each state handed (its hash and plain copy), with the
-- walk's own steps (the state written back, the checked perform, the
-- verified undo). "ok", then for each state its number of moves, "1" when
-- it ends a finished game (no move, or a reached goal) else "0", and, per
-- move, the child's hash and its plain copy: "" when `last` is "1" (the
-- walk's last depth is never expanded) or when the hash came earlier in
-- this call (the first time a state is met in order is always the first
-- time in its call). "undo" when an undo did not restore a state. The game
-- is back where it was either way.
function API.uniquechildren(last, ...)
  if not state.game() then core.fail("error", "no game is running") end
  local args, out, copied = { ... }, { "ok" }, {}
  last = last == "1"
  walk.open()
  for i = 1, #args, 2 do
    local e = { key = tonumber(args[i], 16), snap = decode(args[i + 1]) }
    restore(e)
    operation()
    local calls = ops.legal()
    out[#out + 1] = tostring(#calls)
    out[#out + 1] = (#calls == 0 or ops.anygoal()) and "1" or "0"
    for k = 1, #calls do
      perform(calls[k])
      local hex = hashof()
      out[#out + 1] = hex
      out[#out + 1] = (last or copied[hex]) and "" or encode(plain(state.game()))
      copied[hex] = true
      if undo(calls[k], e.key) then
        walk.close()
        return "undo"
      end
    end
  end
  walk.close()
  return table.unpack(out)
end

-- uniqueend(): the walk is over.
function API.uniqueend()
  UNIQUE = nil
  return ""
end

return M
