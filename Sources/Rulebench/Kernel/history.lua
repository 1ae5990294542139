-- The game's history, in the kernel: the one record of what was performed
-- and the undo/redo cursor, with the rules every undo and redo keeps.
-- Game's operations (the API functions below: one call each, committed in
-- that call) and the fuzzer's run loop (fuzz.lua) use the same functions;
-- Swift's `History` is a view of it: it keeps the cursor and counts its
-- replies give and reads entries with `entries` (below), by a version.
--
-- Owns: the entries, one record each, which is the engine's own record of
-- the action (engine.lua's `run`: name, params, the subaction records and
-- the journal span undo reads) with what the history adds (hash, tree,
-- plan, checkpoint, turnstart, barrier, plankey; tree and plan as Lua
-- tables while a fuzz run plays, encoded once it ends or when Game
-- performs: equal values encode equally, so either form compares with its
-- own kind), the cursor, the hash after setup and the version (bumped
-- whenever an entry is added, dropped or replaced); the strict undo
-- check (the state's hash must be the entry's before it) and the
-- undo-mirrors-do check; the strict redo comparison (hash, subaction tree,
-- plan) and its mismatch report; the turn counts (undos to the last
-- checkpoint, to the last turn); dropping the redo tail on a new perform;
-- Game's calls on it (perform, redo, undo, and `travel`: undo turn, undo
-- last turn, rewind and seek in one call; `position`, read after a travel a
-- stop ended partway), and how a call that runs several operations runs
-- each one (protectop, failure: `travel` and fuzz.lua).
--
-- Invariant: entries[1..cursor] are the applied actions (the records
-- engine.lua undoes: it keeps no list of them, only the records of a walk
-- or a replay above them) and entries[cursor+1..] the redoable ones;
-- the history changes only when an operation staged for it commits
-- (engine.lua's commit calls `committed`), so an operation rolled back or
-- run again leaves it as it was, and the kernel's walks (explore, solve),
-- which stage nothing, never touch it.

-- Receives: core, state, engine (KernelSource.swift).
-- Returns the `history` table; fills engine's committed, historylast and
-- historycursor.
local core, state, engine = ...
local API, ops = core.API, engine.ops
local same, encode, decode, hashof = core.C.same, core.encode, core.decode, state.hash
local cprotect, countedprotect, release, ERRMETA = core.C.protect, core.C.countedprotect, core.C.release, core.C.errormeta
local type, next, rawequal, getmetatable, math_type = type, next, rawequal, getmetatable, math.type

local history = {}

local INITIAL = ""        -- the state hash after setup (and any state overrides)
local ENTRIES = {}
local CURSOR = 0
-- Counts the changes of ENTRIES' contents (not of the cursor): Swift's
-- view keeps entries it read while the version it read them at stands.
local VERSION = 0
-- The first entry each of the last versions changed (version v's at
-- CHANGED[v % KEPTCHANGES], a ring: no new key for each version):
-- Swift's view asks again only for the entries from there.
local CHANGED, KEPTCHANGES = {}, 64
local function changed(at)
  VERSION = VERSION + 1
  CHANGED[VERSION % KEPTCHANGES] = at
end
-- What the operation under way will do to the history when it commits:
-- STAGED nil, "undo", "perform" or "redo", and what the perform or redo
-- gave (the entry redone, the hash, tree and plan, whether they were
-- compared, a perform's barrier). Locals, not a table: this runs for
-- every operation.
local STAGED, S_ENTRY, S_HASH, S_TREE, S_PLAN, S_COMPARED, S_BARRIER, S_WIRE

---------------------------------------------------------------- reading
function history.cursor() return CURSOR end
function history.count() return #ENTRIES end
function history.initial() return INITIAL end
function history.version() return VERSION end
-- The entry undo would take back (nil at the start), and the one redo would apply.
function history.last() return ENTRIES[CURSOR] end
function history.following() return ENTRIES[CURSOR + 1] end
-- The hash of the current state, as the history recorded it.
local function current() return CURSOR == 0 and INITIAL or ENTRIES[CURSOR].hash end
history.current = current

-- Each entry keeps `turnstart`, the position of the last checkpoint at or
-- before it (0 when none), set as it is staged to take its place after the
-- cursor: the entries before it never change while it stands, so the
-- counts below are read, not searched for, after every operation.
local function turnstart(i) return i > 0 and ENTRIES[i].turnstart or 0 end

-- How many undos `undo turn` makes: back to the last checkpoint action,
-- which stays applied (to the start when there is none); 0 right after a
-- checkpoint.
function history.turn() return CURSOR - turnstart(CURSOR) end

-- How many undos `undo last turn` makes: the last applied entry and every
-- one before it back to the checkpoint before it (which stays applied), to
-- the start when there is none; within a turn (the last entry is no
-- checkpoint), the turn under way, as `turn`. 0 only at the start.
function history.lastturn()
  local last = ENTRIES[CURSOR]
  if last and last.checkpoint then return CURSOR - turnstart(CURSOR - 1) end
  return CURSOR - turnstart(CURSOR)
end

-- Where the history stands, as Swift's History holds it after each reply:
-- the cursor, the count of entries, `turn` and `lastturn` as above, and
-- the version, five integers. Game's operations return them as five
-- results, not a table to encode and decode: they run for every perform,
-- undo and redo.
local function where()
  local c = CURSOR
  local last = ENTRIES[c]
  local start = last and last.turnstart or 0
  local lastturn = c - start
  if last and last.checkpoint then
    local before = ENTRIES[c - 1]
    lastturn = c - (before and before.turnstart or 0)
  end
  return c, #ENTRIES, c - start, lastturn, VERSION
end
function history.position()
  local cursor, count, turn, lastturn, version = where()
  return { cursor = cursor, count = count, turn = turn, lastturn = lastturn, version = version }
end

-- Where a seat's "undo turn" stops: the last checkpoint, or a later
-- entry that is a players' barrier (it revealed a secret or drew from the
-- generator: seats.lua), which stays applied.
function history.seatturn()
  local target = CURSOR - history.turn()
  for i = CURSOR, target + 1, -1 do
    if ENTRIES[i].barrier then return i end
  end
  return target
end

---------------------------------------------------------------- changing
-- A new game (or a fuzz run's history rolled back): no entries.
function history.reset(initial)
  INITIAL, ENTRIES, CURSOR, STAGED = initial, {}, 0, nil
  changed(1)
end

-- The redo tail dropped, as a perform drops it (a fuzz run resumed
-- after an earlier run's first steps: fuzz.lua).
function history.droptail()
  if #ENTRIES > CURSOR then changed(CURSOR + 1) end
  for i = #ENTRIES, CURSOR + 1, -1 do ENTRIES[i] = nil end
end

-- Staging: what the operation under way does to the history, staged
-- right before it commits (each kind in one call, the entry built there:
-- these run for every operation).

-- A perform (of `name` with `params`: the engine's record has them) that
-- gave `hash`, `tree` and `plan`: its record becomes the entry after the
-- cursor when it commits, the redo tail dropped.
function history.stageperform(name, params, hash, tree, plan)
  STAGED, S_HASH, S_TREE, S_PLAN, S_BARRIER, S_WIRE = "perform", hash, tree, plan, nil, nil
end

-- A redo of `original`, the entry after the cursor, that gave `hash`,
-- `tree` and `plan`. Compared (`history.difference` found them the same),
-- the entry keeps its own; not compared, they replace them. Either way the
-- entry stays the same record (fuzz.lua knows entries by identity), and
-- the engine moves its redo's journal span into it (engine.lua, commit).
function history.stageredo(original, hash, tree, plan, compared)
  STAGED, S_ENTRY, S_HASH, S_TREE, S_PLAN, S_COMPARED = "redo", original, hash, tree, plan, compared
end

-- An undo of the entry at the cursor. (This file's own calls set STAGED
-- themselves, as they clear it when their call does not commit.)
function history.stageundo() STAGED = "undo" end

-- The commit of operation `op` (engine.lua's API.commit), with the
-- engine's record `rec` of a perform or an undo: what was staged takes
-- effect; a new game starts an empty history, a state override moves its
-- start. An undo is always of the entry at the cursor (the engine calls
-- this for no other). Returns the entry a perform or redo now is (`rec`
-- itself, or the entry redone), or nil when nothing was staged for it (a
-- walk's or a replay's perform, which the engine keeps itself).
function history.committed(op, rec)
  local staged = STAGED
  STAGED = nil
  if op == "setup" then
    history.reset(hashof())
  elseif op == "set" then
    INITIAL = hashof()
  elseif op == "undo" then
    CURSOR = CURSOR - 1
  elseif staged == "perform" then
    local at = CURSOR + 1
    local checkpoint = ops.checkpoint(rec.name)
    rec.hash, rec.tree, rec.plan, rec.checkpoint = S_HASH, S_TREE, S_PLAN, checkpoint
    rec.turnstart, rec.barrier, rec.wire = checkpoint and at or turnstart(CURSOR), S_BARRIER, S_WIRE
    for i = #ENTRIES, at + 1, -1 do ENTRIES[i] = nil end
    ENTRIES[at] = rec
    CURSOR = at
    changed(at)
    S_TREE, S_PLAN = nil, nil
    return rec
  elseif staged == "redo" then
    local entry = S_ENTRY
    if not S_COMPARED then
      entry.hash, entry.tree, entry.plan, entry.plankey = S_HASH, S_TREE, S_PLAN, nil
      changed(CURSOR + 1)
    end
    CURSOR, S_ENTRY, S_TREE, S_PLAN = CURSOR + 1, nil, nil, nil
    return entry
  end
  return nil
end

---------------------------------------------------------------- checks
-- The strict undo's last check, once the undo of `entry` has committed:
-- the state's hash must be the one before the entry. Nil, or the problem
-- list an undo's verification gives.
function history.undoproblems(entry, hash)
  local expected = current()
  if hash == expected then return nil end
  return { { action = entry.name, diffs = { {
    path = "(state hash)", before = expected, after = hash, note = "the state differs from before the action" } } } }
end

-- Whether a plan moves something: a tween whose `from` and `to` differ
-- (a run there and back ends where it started).
local function moves(plan)
  local kind = plan.kind
  if kind == "tween" then return not plan.autoreverse and not same(plan.from, plan.to) end
  local items = plan.items
  if items then
    for i = 1, #items do
      if moves(items[i]) then return true end
    end
  end
  return false
end

-- The undo mirror property, where the pack wrote no undo animation of its
-- own: an `animate` that returns on undo the very plan it returned on do
-- (it ignored `direction`) plays the motion forwards again, not backwards.
-- Nodes whose animate returned nil on undo play the do plan mirrored (in
-- Swift), so only nodes with an undo plan are compared. `undone` is the
-- undo's plan as engine.lua's "mirror" shape makes it: only the nodes with
-- such a plan and their parents (nil: none), `n` the subactions' count.
-- Returns the offending node's action path, or nil.
local function forwardsundo(undone, done, path)
  if undone == nil then return nil end
  local own = undone.own
  if own ~= nil and done.own ~= nil and moves(own) and same(own, done.own) then return path end
  local subs, dsubs = undone.subs, done.subs
  if subs and dsubs then
    for i = 1, undone.n do
      local sub, dsub = subs[i], dsubs[i]
      if sub and dsub then
        local found = forwardsundo(sub, dsub, path .. " > " .. sub.action)
        if found then return found end
      end
    end
  end
  return nil
end

-- The undo-mirrors-do check of an undo of `entry` whose plan is `plan`
-- (engine.lua's "mirror" shape): nil, or the failure record naming the
-- node played forwards.
function history.forwards(entry, plan)
  if plan == nil then return nil end
  local done = entry.plan
  if type(done) == "string" then done = decode(done) end
  local path = forwardsundo(plan, done, entry.name)
  if not path then return nil end
  return { cause = "error", action = path, phase = "animate", text =
    "the undo of '" .. path .. "' plays its do animation forwards again (animate returned the same plan for "
    .. "\"undo\" as for \"do\"): return nil on undo to play the do plan backwards, mirrored in time, "
    .. "or build the undo motion" }
end

-- The key of a plan (a Lua table) that an entry keeps as `plankey`, and
-- fuzz.lua's id of it: its 128-bit hash (C.valuehash's bits, which stay;
-- taken by ops.plankey, which reads a leaf noted as it was built).
local plankey = ops.plankey
history.plankey = plankey

-- Whether `plan` (a Lua table, or encoded) is the plan of entry
-- `original`: an entry a fuzz run performed keeps its plan's hash
-- (`plankey`, history.plankey, taken once for the plan's id in fuzz.lua),
-- so a redo's plan is hashed (one walk, one lua_next a pair: the cheapest
-- walk there is, a side-by-side comparison of the two plans measured 30%
-- dearer) instead of compared with it; on a different hash, or a plan
-- valuehash refuses, `same` decides as before.
local function sameplan(plan, original)
  local key = original.plankey
  if key and type(plan) == "table" then
    local ok, h = pcall(plankey, plan)
    if ok and h == key then return true end
  end
  return same(plan, original.plan)
end

-- The strict redo's comparison of what a redo of `original` gave with
-- what it gave the first time (the same form: tables with tables, encoded
-- with encoded). Nil, or the mismatch report { what, action, expected,
-- actual } (`what` a word of protocol.WORDS.redo; values decoded for showing).
-- `rec` (the fuzzer's redo, ops.perform's "record" reply): the redo's
-- record in place of `tree`, compared with a table tree as it stands
-- (ops.sametree); its tree is built only when that is not so.
function history.difference(original, hash, tree, plan, rec)
  if rec then
    local otree = original.tree
    if hash == original.hash and type(otree) == "table" and ops.sametree(rec, otree) then
      tree = otree
    else
      tree = ops.treeof(rec)
    end
  end
  local what, expected, actual
  -- An entry a resumed fuzz run kept from the run before may be encoded
  -- (read since); one a fuzz run performed keeps its tree and plan as
  -- tables until read, and Game's redo gives them encoded (encoded in
  -- place then, as `encoded` does when the entry is read).
  if type(original.tree) == "string" and type(tree) == "table" then
    tree, plan = encode(tree), encode(plan)
  elseif type(original.tree) == "table" and type(tree) == "string" then
    original.tree, original.plan = encode(original.tree), encode(original.plan)
  end
  -- Encoded, equal strings are equal at once; tables go to `same`.
  if hash ~= original.hash then
    what, expected, actual = "state hash", original.hash, hash
  elseif tree ~= original.tree and not same(tree, original.tree) then
    what, expected, actual = "subaction tree", original.tree, tree
  elseif plan ~= original.plan and not sameplan(plan, original) then
    what, expected, actual = "animation plan", original.plan, plan
  else
    return nil
  end
  if what ~= "state hash" and type(expected) == "string" then expected, actual = decode(expected), decode(actual) end
  return { what = what, action = original.name, expected = expected, actual = actual }
end

-- Entry `i` with its tree and plan encoded: a fuzz run keeps them as
-- tables while it plays; encoded once, they stay so in the history (Game
-- may undo and redo it next, and compares encoded with encoded). Its
-- params encoded too (`wire`: as Swift sent them to perform, or encoded
-- once here), for the replies that carry the entry.
local function encoded(i)
  local e = ENTRIES[i]
  if type(e.tree) ~= "string" then e.tree, e.plan = encode(e.tree), encode(e.plan) end
  if not e.wire then e.wire = encode(e.params) end
  return e
end

-- The history as a fuzz run's reply carries it: where it stands
-- (`position`), the hash after setup and the hash at the cursor. No
-- entries: Swift's view reads them when it reads them (API.entries), and a
-- fuzz run's caller mostly reads none (encoding every entry's tree and plan
-- for each reply was a tenth of a checked step).
function history.reply()
  local out = history.position()
  out.initial, out.current = INITIAL, current()
  return out
end

-- entries(since, known, last): the entries Swift's view (History.swift)
-- reads, in one call for a range: it holds entries 1..known as they were
-- at version `since` ("" for none) and wants 1..last. Sent: from the
-- first entry changed since then (or known + 1, if lower) to `last`
-- (clipped to the history). Returns the version, the count, the first
-- index sent, then each entry sent as `undone` below gives it.
function API.entries(since, known, last)
  local count = #ENTRIES
  local first = (math.tointeger(tonumber(known)) or 0) + 1
  since = math.tointeger(tonumber(since))
  if not since or since < 0 or since > VERSION or VERSION - since >= KEPTCHANGES then
    first = 1
  else
    for v = since + 1, VERSION do
      local at = CHANGED[v % KEPTCHANGES] or 1
      if at < first then first = at end
    end
  end
  if first < 1 then first = 1 end
  last = math.tointeger(tonumber(last)) or count
  if last > count then last = count end
  local out, n = { tostring(VERSION), tostring(count), tostring(first) }, 3
  for i = first, last do
    local e = encoded(i)
    out[n + 1], out[n + 2], out[n + 3] = e.name, e.wire, e.checkpoint and "1" or ""
    out[n + 4], out[n + 5], out[n + 6] = e.hash, e.tree, e.plan
    n = n + 6
  end
  return table.unpack(out, 1, n)
end

---------------------------------------------------------------- one operation of a kernel loop
-- A call that runs several operations (the fuzzer's run, `travel` below)
-- runs each through these, as if Swift had made a call for it.

-- One operation (C.protect): true and f's results (three at most:
-- ops.perform's), or false, the error and its cause. An operation the
-- watched call found suspect (it may have overrun its budget) is rolled
-- back and run again counted, so its verdict is exact and only it runs
-- twice, not the whole loop. Results in locals, not a table: this runs for
-- every operation.
function history.protectop(f, ...)
  local ok, a, b, c = cprotect(f, ...)
  if ok ~= "again" then return ok, a, b, c end
  ops.abort()
  return countedprotect(f, ...)
end
local protect = history.protectop

-- What Swift needs to rebuild a failed operation's error exactly as if it
-- had made the call itself: the cause, the kernel error object's fields or
-- the message with its traceback, and what was running.
function history.failure(err, cause)
  local action, phase = ops.context()
  local out = { cause = cause, action = action, phase = phase }
  if type(err) == "table" and rawequal(getmetatable(err), ERRMETA) then
    local fields = {}
    for k, v in next, err do
      if type(k) == "string" and (type(v) == "string" or math_type(v) == "integer") then fields[k] = v end
    end
    out.fields = fields
  else
    out.text = type(err) == "string" and err or ("error object is a " .. type(err) .. " value")
  end
  return out
end
local failure = history.failure

---------------------------------------------------------------- Game's operations
-- Each is one call from Swift, committed in that call (ops.commitcall);
-- each returns, last, where the history stands (`where`'s four integers).

-- perform(name, params): performs and records; returns the hash, the tree
-- and the plan encoded, and the position.
local SEATHOOK   -- seats.lua's probe around a seated game's perform (nil without seats)
function history.seathook(f) SEATHOOK = f end

function API.perform(name, params)
  local wire = params
  params = decode(params)
  local after = SEATHOOK and SEATHOOK()
  local hash, tree, plan = ops.perform(name, params)
  history.stageperform(name, params, hash, tree, plan)
  S_WIRE = wire                                 -- the entry's params as Swift sent them
  if after then S_BARRIER = after(plan) end   -- a players' undo barrier, and the seats' views
  if not ops.commitcall() then STAGED = nil end
  return hash, tree, plan, where()
end

-- The call an entry records, as replies carry it: its name, its params
-- encoded and whether it is a checkpoint ("1" or "").
local function callof(i)
  local e = encoded(i)
  return e.name, e.wire, e.checkpoint and "1" or ""
end

-- redo(strict): performs the next entry again; strict ("1"), it must give
-- the same hash, tree and plan (reaching the same hash, the state is one
-- the invariants passed: they are not run again), or it is rolled back and
-- the fourth result is the encoded mismatch report ("" when none). Then
-- the entry's call (callof) and the position.
function API.redo(strict)
  local original = ENTRIES[CURSOR + 1]
  if not original then core.fail("error", "nothing to redo") end
  local at = CURSOR + 1
  strict = strict == "1"
  local hash, tree, plan = ops.perform(original.name, original.params, strict and original.hash or nil)
  local mismatch = strict and history.difference(original, hash, tree, plan)
  if mismatch then
    ops.abort()
    local name, wire, checkpoint = callof(at)
    return hash, tree, plan, encode(mismatch), name, wire, checkpoint, where()
  end
  history.stageredo(original, hash, tree, plan, strict)
  if not ops.commitcall() then STAGED = nil end
  local name, wire, checkpoint = callof(at)
  return hash, tree, plan, "", name, wire, checkpoint, where()
end

-- The entry undone, as replies carry it: its call (callof), its hash,
-- tree and plan.
local function undone(i)
  local e = ENTRIES[i]
  local name, wire, checkpoint = callof(i)
  return name, wire, checkpoint, e.hash, e.tree, e.plan
end

-- undo(strict): undoes the last entry; returns the hash, the plan encoded,
-- the problems of a strict undo (encoded, "" when none: the slots its
-- verification found, or a state whose hash is not the one before the
-- entry; the undo took effect either way), the hash the history records
-- for the state now (the entry's before it), the entry undone (`undone`)
-- and the position.
function API.undo(strict)
  strict = strict == "1"
  local hash, plan, problems = ops.undo(strict, true)
  local at = CURSOR
  local entry = ENTRIES[at]
  STAGED = "undo"
  if not ops.commitcall() then STAGED = nil end
  if strict and not problems and entry and hash ~= current() then problems = history.undoproblems(entry, hash) end
  local name, wire, checkpoint, ehash, tree, eplan = undone(at)
  return hash, plan, problems and encode(problems) or "", current(), name, wire, checkpoint, ehash, tree, eplan, where()
end

-- position(from): where the history stands (`where`'s four integers), for
-- Swift to read after a travel that a stop ended partway (a signal or the
-- wall clock in one of its steps, the memory cap between two): each step
-- before the stop is committed, and the reply that would have said what
-- they gave is lost. So first come the entries after `from` (the cursor
-- the travel began at) up to the cursor, the ones it redid, each as its
-- reply gives a redo ("redone", the hash, the tree, the plan and the
-- call): in non-strict mode a redo may have replaced its entry
-- (stageredo). A travel back redid nothing: the cursor is at or below `from`.
function API.position(from)
  local out, n = {}, 0
  for i = math.max(math.tointeger(tonumber(from)) or CURSOR, 0) + 1, CURSOR do
    local e = encoded(i)
    out[n + 1], out[n + 2], out[n + 3], out[n + 4] = "redone", e.hash, e.tree, e.plan
    out[n + 5], out[n + 6], out[n + 7] = callof(i)
    n = n + 7
  end
  out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = where()
  return table.unpack(out, 1, n + 5)
end

-- Travel's reply is flat: each step adds its results to `out` after a
-- word of protocol.WORDS.travel, no record to build, encode and decode per step
-- (a rewind runs one step per entry).

-- A step of travel that failed (protectop's error and cause): "failed" and
-- the failure encoded, read before the step is rolled back (it names what
-- was running); the travel stops there.
local function failedstep(out, n, err, cause)
  local report = failure(err, cause)
  ops.abort()
  out[n + 1], out[n + 2] = "failed", encode(report)
  return n + 2, true
end

-- One undo of travel: "undone", the hash, the plan, the problems
-- encoded ("" when none), the hash the history records now and the entry
-- undone (`undone`), or "failed" and
-- the failure encoded; returns the results' count and whether the travel
-- stops there.
local function undostep(out, n, strict, seeking)
  local at = CURSOR
  local entry = ENTRIES[at]
  local ok, hash, plan, problems = protect(ops.undo, strict, true)
  if not ok then return failedstep(out, n, hash, plan) end
  STAGED = "undo"
  ops.commit()
  if strict and not problems and hash ~= current() then problems = history.undoproblems(entry, hash) end
  out[n + 1], out[n + 2], out[n + 3], out[n + 4] = "undone", hash, plan, problems and encode(problems) or ""
  out[n + 5] = current()
  out[n + 6], out[n + 7], out[n + 8], out[n + 9], out[n + 10], out[n + 11] = undone(at)
  -- A mismatched undo took effect: seeking goes on past it, a turn's undos stop.
  return n + 11, problems ~= nil and not seeking
end

-- One redo of travel: "redone", the hash, the tree, the plan and the
-- entry's call (callof), or "failed" or "differs" (rolled back) and the
-- failure or the mismatch report encoded; returns the results' count and
-- whether the travel stops.
local function redostep(out, n, strict)
  local at = CURSOR + 1
  local original = ENTRIES[at]
  local ok, hash, tree, plan = protect(ops.perform, original.name, original.params, strict and original.hash or nil)
  if not ok then return failedstep(out, n, hash, tree) end
  local mismatch = strict and history.difference(original, hash, tree, plan)
  if mismatch then
    ops.abort()
    out[n + 1], out[n + 2] = "differs", encode(mismatch)
    return n + 2, true
  end
  history.stageredo(original, hash, tree, plan, strict)
  ops.commit()
  out[n + 1], out[n + 2], out[n + 3], out[n + 4] = "redone", hash, tree, plan
  out[n + 5], out[n + 6], out[n + 7] = callof(at)
  return n + 7, false
end

-- travel(strict, kind, target): Game's undo turn (kind "turn"), undo last
-- turn ("lastturn"), rewind ("rewind") and seek ("seek" to history
-- position `target`) in one call: each undo and redo is an operation of its own (a fresh budget,
-- committed before the next), checked as undo and redo check it. Stops at
-- the first step that fails, at a redo that differs, and, but when
-- seeking, at an undo that did not restore the state. Returns the steps'
-- results in order (undostep, redostep), then where the history stands
-- (`where`'s four integers). Counted from the start (KernelEntry: its
-- committed steps are not rolled back, so it never runs again).
function API.travel(strict, kind, target)
  ops.nogame()
  strict = strict == "1"
  local seeking = kind == "seek"
  if kind == "turn" then target = CURSOR - history.turn()
  elseif kind == "lastturn" then target = CURSOR - history.lastturn()
  elseif kind == "seatturn" then target = history.seatturn()
  elseif kind == "rewind" then target = 0
  elseif seeking then target = math.tointeger(tonumber(target))
  else core.fail("error", "unknown travel " .. core.show(kind)) end
  if not target or target < 0 or target > #ENTRIES then core.fail("error", "no history position " .. core.show(target)) end
  local out, n, stop = {}, 0, false
  while not stop and CURSOR > target do n, stop = undostep(out, n, strict, seeking) end
  while not stop and CURSOR < target do n, stop = redostep(out, n, strict) end
  release()
  out[n + 1], out[n + 2], out[n + 3], out[n + 4], out[n + 5] = where()
  return table.unpack(out, 1, n + 5)
end

engine.provide("committed", history.committed)
engine.provide("historylast", history.last)
engine.provide("historycursor", history.cursor)

return history
