-- The engine, in Lua: actions, perform, undo, legal moves, invariants and
-- goals, on the game of a pack that packload.lua loaded. The walk of the game
-- tree is explore.lua's, the `rulebench` module rules see is rulebench.lua,
-- the game's history (and Swift's perform, undo and redo) is history.lua's.
--
-- Every operation Swift starts is one call, run as a user call under the
-- instruction budget and the memory cap, that commits its own work at its
-- end (commitcall). Any error inside the operation (a rejection, a script
-- error, a budget error, an invariant) unwinds to Swift's protected call
-- before it commits; `abort` then rolls the journal back to where the
-- operation began. The commit comes after the budget's watch has ended
-- (C.release): a call the watchdog runs again (vm.c, rb_call) never ran its
-- commit, so its abort finds the operation pending, and a budget that runs
-- out late can never leave bookkeeping half done.

-- Receives: core, splitmix, state, identity, rulebench, sandbox, anim, packload (KernelSource.swift).
-- Returns its table `M`; late slots seatgame, committed, historylast,
-- historycursor, unwindexplore, onabort; fills sandbox's rulecover; packload's context, covered, emitter
-- and rulecover.
local core, splitmix, state, identity, rulebench, sandbox, anim, packload = ...
local M = {}
local API = core.API
-- Defined by seats.lua (seatgame), history.lua (committed, historylast,
-- historycursor), explore.lua (unwindexplore) and fuzz.lua (onabort): the
-- parts above the engine.
local late, provide = core.late("engine", { "seatgame", "committed", "historylast", "historycursor", "unwindexplore", "onabort" })
M.provide = provide
local type, next, error, ipairs, tostring, tointeger = type, next, error, ipairs, tostring, math.tointeger
local math_type = math.type
local sort, concat = table.sort, table.concat

-- The state's functions, captured once: the hot path below calls them for
-- every action, and an upvalue costs less than a field of a module.
local setwritable, mark, serial, hashof = state.setwritable, state.mark, state.serial, state.hash
local rollback, revert, truncate, plain, textcopy = state.rollback, state.revert, state.truncate, state.plain, state.textcopy
local decode, encode = core.decode, core.encode
local utf8len = utf8.len

local LEGAL               -- the list legal() is filling
local SITES               -- emitted calls carry their site (see M.emitsites)
local emitsite, rulecover, release = core.C.emitsite, core.C.rulecover, core.C.release
-- Coverage is collected: every call of rule code is bracketed by
-- rulecover(true) and rulecover(false), so the C line hook runs only in
-- rule code (shim_private.h, rb_line_mask). A new place that calls rule code
-- brackets it too, or its lines go uncounted (CoverageTests compares the
-- bracketed counts with a hook on everywhere).
local COVER = false
function M.covering(on) COVER = on end
-- For the kernel's other files (a module's top level runs from sandbox.lua).
function M.rulecover(open) if COVER then rulecover(open) end end
-- Invariants run and plans are built (off: `explore --no-invariants`).
local CHECKS = true
local GAMEOPTIONS         -- the current game's merged options (gameoptions())
local LEAKCHECKS          -- fuzz.lua's no-leak probes on (configure)
function M.gameoptions() return GAMEOPTIONS end
function M.leakchecks() return LEAKCHECKS end
local PACKS = packload.packs     -- id -> pack (packload.lua)
local PACK                -- the pack of the current game
local ACTIONS             -- PACK.actions
local GAME                -- the root state table of the current game (state.game())
-- The records of the performed actions that are no history entries, oldest
-- first: a walk's (explore, solve) and a replay's, above the history's
-- applied entries (history.lua), which are the records of the actions
-- before them. The record undo takes back is the last of RECS, or, when
-- there is none, the history's entry at its cursor (`top`).
local RECS = {}
local PENDING             -- the operation between its call and commit/abort
local EMPTY = {}          -- the subaction list of an action that queued none (never written)

-- What was running when an error unwound: the action's path and the phase.
local CONTEXT_ACTION, CONTEXT_PHASE = "", ""

local function context(action, phase)
  CONTEXT_ACTION, CONTEXT_PHASE = action, phase
end
M.context = context                  -- packload.lua's loading sets it too
function M.covered() return COVER end

-- One record reused by every operation: the operation's kind, where its
-- journal began, and (for perform and undo) the action record.
local OPERATION = { op = nil, mark = 0, rec = nil }

-- The numbers tostring gives objects (identity.lua) go as far as the
-- history: those the last record's apply (or setup) handed out are kept,
-- any after them (a read-only call's, an undone or failed action's) are
-- forgotten. A record keeps its count in `kept` (see run).
local ids = identity.ids
local SETUPIDS = 0
-- The record undo would take back (nil at the start), and how many
-- records are applied: the history's applied entries and RECS.
local function top() return RECS[#RECS] or late.historylast() end
local function depth() return #RECS + late.historycursor() end

local function settleids()
  if ids.n == ids.base then return end     -- the rules numbered nothing
  local last = top()
  ids.forget(last and last.kept or SETUPIDS)
end

local function begin(op)
  if PENDING then rollback(PENDING.mark) end
  PENDING = OPERATION
  OPERATION.op, OPERATION.mark, OPERATION.rec = op, mark(), nil
  CONTEXT_ACTION, CONTEXT_PHASE = "", op
end

local commitcall          -- defined with API.commit, used by the operations before it
local RNG = rulebench.RNG          -- the game's key of the random generator (rulebench.lua)
local merged = packload.merged

---------------------------------------------------------------- running actions
local checkparams = packload.checkparams   -- the one param check (packload.lua)

-- paramproblem(name, params): what perform would say of these params,
-- without performing (the one param check: scenarios ask it before they
-- run, to report a mistake at the param's line). "" when the params fit
-- the action's declaration, else the encoded { message, param, problem }
-- (problem: "undeclared", "type" or "missing").
function API.paramproblem(name, encoded)
  local def = ACTIONS and ACTIONS[name]
  if not def then return "" end   -- an unknown action is the caller's to word
  local ok, e = pcall(checkparams, def, decode(encoded), name)
  if ok then return "" end
  if getmetatable(e) ~= core.C.errormeta then error(e, 0) end
  return encode({ message = e.message, param = e.param, problem = e.problem })
end

-- The options of act:sub: only `delay`, a finite number of seconds >= 0.
local function suboptions(options)
  if type(options) ~= "table" then error(core.where(3) .. "act:sub: options must be a table such as { delay = 0.1 }", 0) end
  for k in next, options do
    if k ~= "delay" then
      error(core.where(3) .. "act:sub: unknown option " .. core.show(k) .. " (the options are: delay)", 0)
    end
  end
  local delay = options.delay
  if delay ~= nil and (type(delay) ~= "number" or delay ~= delay or delay < 0 or delay > anim.PLAN_SECONDS) then
    error(core.where(3) .. "act:sub: delay must be a finite number of seconds, from 0 to 1000000", 0)
  end
  return delay and delay + 0.0
end

local ACT = {}
ACT.__index = ACT
ACT.__metatable = "an action context"

-- act:sub(name, params, options): queue a subaction; it runs after apply
-- returns. `options.delay` (seconds) starts its animation that much later
-- than `subanimations` places it.
function ACT:sub(name, params, options)
  if self.closed then error(core.where(2) .. "act:sub can only be called while apply runs", 0) end
  if type(name) ~= "string" or not ACTIONS[name] then
    error(core.where(2) .. "unknown subaction " .. core.show(name) .. core.suggest(tostring(name), core.sortedkeys(ACTIONS)), 0)
  end
  if params ~= nil and type(params) ~= "table" then error(core.where(2) .. "act:sub: params must be a table", 0) end
  local queue = self.queue
  if not queue then queue = {}; self.queue = queue end
  local n = #queue + 1
  queue[n] = { name = name, params = plain(params or EMPTY) }
  if options ~= nil then
    -- Delays are kept apart, on the context, so a call without them costs nothing more.
    local delays = self.delays
    if not delays then delays = {}; self.delays = delays end
    delays[n] = suboptions(options)
  end
end

-- The engine's fields of a record (history.lua adds its own beside them),
-- set afresh by each run: a record run again (`into`, below) keeps none of
-- what its last run gave.
local function fill(rec, name, def, params, a, path)
  rec.name, rec.def, rec.params, rec.a, rec.subs, rec.path, rec.serial0 = name, def, params, a, EMPTY, path, serial()
  rec.s, rec.e, rec.kept, rec.delays = 0, 0, nil, nil
  return rec
end

-- Runs an action and then its queued subactions; returns its record:
-- name, def, params (as given), a (the copy the rule sees), subs, path,
-- serial0 (tables created after it are new), s and e (its journal span).
-- `into` (the fuzzer's strict redo: the history's entry after the cursor,
-- the same action with the same params) is the record to run into instead
-- of a new one, and its subactions' records those of the subactions
-- queued at the same places: an entry redoable is no record undo reads
-- (`top` reads the applied ones), nothing but it holds its subactions'
-- records, and its engine fields are set again by whatever redoes it
-- (this, or `adopt`) before it is applied again.
local function run(name, params, path, depth, into)
  if depth > 64 then core.fail("error", "subactions nested more than 64 deep", { action = path }) end
  local def = ACTIONS[name]
  if not def then
    core.fail("unknown", "unknown action '" .. tostring(name) .. "'" .. core.suggest(tostring(name), core.sortedkeys(ACTIONS)), { action = path })
  end
  if depth == 0 and def.internal then
    core.fail("rejected", "'" .. name .. "' is an internal action: it runs only as part of another action (act:sub), "
      .. "never on its own", { action = path })
  end
  -- A record run again with its own params and action (a strict redo)
  -- passed this check when it first ran: params are never written.
  if (def.spec or type(params) ~= "table") and not (into and into.params == params and into.def == def) then
    checkparams(def, params, path)
  end
  local a = plain(params)
  -- Every field it gets below is in its constructor (nil ones sized for),
  -- so the record is made at its size and never grows.
  local oldsubs = into and into.subs
  local rec = into and fill(into, name, def, params, a, path)
    or { name = name, def = def, params = params, a = a, subs = EMPTY, path = path, serial0 = serial(),
         s = 0, e = 0, kept = nil, delays = nil }
  local check = def.check
  if check then
    CONTEXT_ACTION, CONTEXT_PHASE = path, "check"
    setwritable(false, def.checkphase)
    if COVER then rulecover(true) end
    local reason = check(GAME, a)
    if COVER then rulecover(false) end
    if reason ~= nil and reason ~= false then
      if type(reason) ~= "string" then
        core.fail("error", "check must return nil or a reason string, not a " .. type(reason), { action = path, fn = check })
      end
      core.fail("rejected", reason, { action = path })
    end
  end
  -- Sized for the fields act:sub and the end of apply give it (a nil field is
  -- left out: a rule walking `act` sees what it always saw).
  local act = setmetatable({ name = name, closed = nil, queue = nil, delays = nil }, ACT)
  rec.s = mark()
  CONTEXT_ACTION, CONTEXT_PHASE = path, "apply"
  setwritable(true, "apply")
  if COVER then rulecover(true) end
  def.apply(GAME, a, act)
  if COVER then rulecover(false) end
  setwritable(false, "perform")
  act.closed = true
  rec.e = mark()
  local queue = act.queue
  if queue then
    local subs = {}
    rec.subs = subs
    for i = 1, #queue do
      local q = queue[i]
      subs[i] = run(q.name, q.params, path .. " > " .. q.name, depth + 1, oldsubs and oldsubs[i])
    end
    -- Only an action that delayed a subaction carries the list (0 for the others).
    local delays = act.delays
    if delays then
      for i = 1, #queue do delays[i] = delays[i] or 0.0 end
      rec.delays = delays
    end
  end
  if depth == 0 then rec.kept = ids.n end
  return rec
end

-- Runs every invariant; when some fail, raises one error naming the first
-- and listing every one that failed, a line each ("invariant 'NAME' failed:
-- why"), so a report shows them all (RulebenchError.brokenInvariants reads
-- the lines back).
local function checkinvariants()
  if not CHECKS then return end
  setwritable(false, "an invariant")
  local list = PACK.invariantlist
  local first, lines
  if COVER then rulecover(true) end
  for i = 1, #list do
    local inv = list[i]
    CONTEXT_ACTION, CONTEXT_PHASE = inv.label, "invariant"
    local ok, message = inv.fn(GAME)
    if ok ~= true then
      local why = ok == false and (message ~= nil and identity.tostring(message) or "it returned false")
        or ("it returned " .. core.show(ok) .. " (an invariant returns true, or false and a message)")
      first = first or inv
      lines = lines or {}
      lines[#lines + 1] = "invariant '" .. inv.name .. "' failed: " .. why:gsub("\n", " ")
    end
  end
  if COVER then rulecover(false) end
  if first then
    core.fail("invariant", concat(lines, "\n"), { invariant = first.name, fn = first.fn })
  end
end

-- Each goal's name as an error's context names it ("goal 'NAME'"), made once.
local GOALCONTEXT = {}

-- Whether goal `name` of the pack holds now. A goal runs as an invariant
-- does, with the state read-only, and answers true or false; anything
-- else is the rule's mistake, reported with the goal's file and line.
local function goalholds(name)
  local goals = PACK.goals
  local fn = goals[name]
  if not fn then
    local names = core.sortedkeys(goals)
    core.fail("unknown", "unknown goal '" .. tostring(name) .. "'" .. core.suggest(tostring(name), names)
      .. (#names > 0 and " (goals: " .. concat(names, ", ") .. ")"
          or " (the pack declares no goals: add goals = { name = function(game) return ... end } to pack.lua)"))
  end
  if type(fn) == "table" then fn = fn.holds end
  setwritable(false, "a goal")
  local context = GOALCONTEXT[name]
  if not context then context = "goal '" .. name .. "'"; GOALCONTEXT[name] = context end
  CONTEXT_ACTION = context
  CONTEXT_PHASE = context
  if COVER then rulecover(true) end
  local holds = fn(GAME)
  if COVER then rulecover(false) end
  if holds ~= true and holds ~= false then
    core.fail("error", "goal '" .. name .. "' returned " .. core.show(holds) .. " (a goal returns true or false)", { fn = fn })
  end
  return holds
end

-- Whether any goal of the pack holds now (each run as goalholds runs it,
-- in name order): with no legal call, what ends a finished game in
-- explore's walks (explore.lua, unique.lua). A pack without goals pays a
-- table lookup.
local GOALSOF, GOALNAMES      -- the pack whose goal names are kept, and the names
local function anygoal()
  if GOALSOF ~= PACK then GOALSOF, GOALNAMES = PACK, core.sortedkeys(PACK.goals or {}) end
  for i = 1, #GOALNAMES do
    if goalholds(GOALNAMES[i]) then return true end
  end
  return false
end

local function treeof(rec)
  local subs, out = rec.subs, nil
  if subs ~= EMPTY then
    out = {}
    for i = 1, #subs do out[i] = treeof(subs[i]) end
  end
  if not out then return { name = rec.name, params = rec.params } end
  return { name = rec.name, params = rec.params, subs = out }
end

-- Whether `tree`, a tree treeof built (its nodes hold name, params and,
-- with subactions, subs: nothing else), is the one treeof(rec) would build,
-- without building it: same(treeof(rec), tree), node by node (a strict
-- redo compares its record so, and builds its tree only when it differs:
-- history.difference).
local same = core.C.same
local function sametree(rec, tree)
  if type(tree) ~= "table" or rec.name ~= tree.name or not same(rec.params, tree.params) then return false end
  local subs, tsubs = rec.subs, tree.subs
  if subs == EMPTY then return tsubs == nil end
  if type(tsubs) ~= "table" or #tsubs ~= #subs then return false end
  for i = 1, #subs do
    if not sametree(subs[i], tsubs[i]) then return false end
  end
  return true
end

local checkplan = anim.checkplan
-- What the build under way makes (nil: the whole plan). Either way every
-- sound function and animate runs and every plan is checked, in the same
-- order. "checks": no node (a fuzz rewind's undo, which looks at no
-- plan). "mirror": only the nodes the undo-mirrors-do check reads
-- (history.forwards), { action, own, subs, n } where an animate returned
-- a plan or a subaction's did (`subs[i]` nil for the others, `n` their
-- count), nil elsewhere (a fuzz undo's).
local SHAPE = nil

local function planof(rec, direction)
  local def = rec.def
  local sound = def.sound
  if sound and type(sound) == "function" then
    CONTEXT_ACTION, CONTEXT_PHASE = rec.path, "sound"
    setwritable(false, "sound")
    if COVER then rulecover(true) end
    sound = sound(GAME, rec.a, direction)
    if COVER then rulecover(false) end
    if sound ~= nil and type(sound) ~= "string" then
      core.fail("error", "sound must return a sound name or nil", { action = rec.path, fn = def.sound })
    end
    if sound and not utf8len(sound) then
      core.fail("error", "sound returned a name that is not UTF-8 text", { action = rec.path, fn = def.sound })
    end
  end
  local animate, src, own = def.animate, nil, nil
  local subs, out, step, delays = rec.subs, nil, nil, nil
  if animate then
    CONTEXT_ACTION, CONTEXT_PHASE = rec.path, "animate"
    setwritable(false, "animate")
    src = def.animsrc
    if COVER then rulecover(true) end
    local plan = animate(anim.anim, GAME, rec.a, direction)
    if COVER then rulecover(false) end
    if plan ~= nil then own = checkplan(plan, src) end
  end
  if SHAPE then
    local n, kept = #subs, nil
    for i = 1, n do
      local sub = planof(subs[i], direction)
      if sub then kept = kept or {}; kept[i] = sub end
    end
    if SHAPE == "checks" or (own == nil and kept == nil) then return nil end
    return { action = rec.name, own = own, subs = kept, n = n }
  end
  if subs ~= EMPTY then
    out = {}
    for i = 1, #subs do out[i] = planof(subs[i], direction) end
    -- How the subactions are timed: set only when the action staggers or
    -- delays them, so the nodes of other actions carry nothing more.
    step, delays = def.step, rec.delays
  end
  -- Made at its size in one constructor (nil fields are left out), the
  -- smallest that holds what it may carry: a node never grows.
  if out then
    return { action = rec.name, mode = def.mode, sound = sound, src = src, own = own, subs = out, step = step, delays = delays }
  end
  if animate then return { action = rec.name, mode = def.mode, sound = sound, src = src, own = own } end
  return { action = rec.name, mode = def.mode, sound = sound }
end
anim.setplanner(planof)   -- a leaf built straight for planof needs no walk to be checked (animcore.c)

-- The plan of a performed or undone action; with checks off (`explore
-- --no-invariants`), a bare node: no sound, animate or subaction is run.
-- `shape`: "checks" or "mirror", less than the plan (see SHAPE).
local function planorbare(rec, direction, shape)
  SHAPE = shape
  if CHECKS then return planof(rec, direction) end
  if shape then return nil end
  return { action = rec.name, mode = rec.def.mode }
end

-- The opening animation: the pack's `opening(anim, game, options)` run
-- read-only on the state setup made, as the plan node of a "setup" action
-- (played by `timeline --step 0` and `play`; nil when it returns nil).
local function openingof(game, opts)
  local opening = PACK.opening
  context("setup", "opening")
  setwritable(false, "opening")
  local src = core.defined(opening)
  if COVER then rulecover(true) end
  local plan = opening(anim.anim, game, opts)
  if COVER then rulecover(false) end
  local node = { action = "setup", mode = "parallel", src = src }
  if plan ~= nil then node.own = checkplan(plan, src, "opening") end
  return node
end

-- Undoes `rec` and its subactions; returns `problems`, the list a strict
-- verification adds its findings to (made at the first: nil when exact).
local function undorec(rec, strict, problems)
  local subs = rec.subs
  for i = #subs, 1, -1 do problems = undorec(subs[i], strict, problems) end
  local undo = rec.def.undo
  if not undo then
    revert(rec.s, rec.e)
    return problems
  end
  local us = mark()
  CONTEXT_ACTION, CONTEXT_PHASE = rec.path, "undo"
  setwritable(true, "undo")
  if COVER then rulecover(true) end
  undo(GAME, rec.a)
  if COVER then rulecover(false) end
  setwritable(false, "undo")
  if not strict then return problems end
  local diffs = state.verify(rec.s, rec.e, us, mark(), rec.serial0)
  if diffs then
    local file, line = core.site(undo)
    problems = problems or {}
    problems[#problems + 1] = { action = rec.path, file = file, line = line, diffs = diffs }
    revert(us, mark())         -- back to the state right after apply...
    revert(rec.s, rec.e)       -- ...and from there to before it
  end
  return problems
end

---------------------------------------------------------------- operations
-- Every operation on a game starts here, so numbers a read-only call
-- handed out before are forgotten first (settleids).
local function nogame()
  if not state.game() or not PACK then core.fail("error", "no game is running") end
  if ids.n ~= ids.base then settleids() end
end

local function reloadpack(id)
  PACK = nil
  ids.forget(0)    -- numbered afresh, as in a new Lua state
  packload.reload(id)
  return ""
end

local function newgame(id, seed, options)
  PACK = PACKS[id]
  ACTIONS = PACK.actions
  RECS = {}
  local game = state.newroot()
  GAME = game
  begin("setup")
  local opts = merged(PACK.options, core.decode(options))
  GAMEOPTIONS = opts          -- the view's grid and size functions read them (view.lua)
  state.setwritable(true, "setup")
  game[RNG] = splitmix.mix(tointeger(tonumber(seed)) ~ 0x5eed5eed5eed5eed)
  ids.newgame()
  SETUPIDS = ids.n              -- what an abort goes back to until setup ends
  if PACK.setup then
    context("setup", "setup")
    if COVER then rulecover(true) end
    PACK.setup(game, opts)
    if COVER then rulecover(false) end
  end
  SETUPIDS = ids.n
  state.setwritable(false, "after setup")
  late.seatgame(PACK, opts)   -- seats.lua: this game's seats (none for a pack without them)
  checkinvariants()
  if PACK.opening then return state.hash(), encode(openingof(game, opts)) end
  return state.hash()
end

-- perform(name, params, expected, reply): `expected` is nil or "" or, for
-- a redo, the state hash the action gave the first time. Invariants are
-- functions of the state, so a redo that reaches that same state need not
-- run them again. The plan is always built (a failing `animate` fails the
-- action); `reply` says what comes back with the hash: nil, the subaction
-- tree and the plan encoded (for Swift); "values", the two as Lua tables
-- (the fuzzer's loop compares them in C); "record", the action's record
-- in place of the tree (the fuzzer's strict redo compares it with the
-- entry's tree without building one: sametree); "hash", nothing else.
-- `into`: the entry a redo runs into (run), nil for a new record.
local function perform(name, params, expected, reply, into)
  nogame()
  begin("perform")
  local rec = run(name, params, name, 0, into)
  local hash = hashof()
  if expected == nil or expected == "" or hash ~= expected then checkinvariants() end
  local plan = planorbare(rec, "do")
  PENDING.rec = rec
  if reply == nil then return hash, encode(treeof(rec)), encode(plan) end
  if reply == "values" then return hash, treeof(rec), plan end
  if reply == "record" then return hash, rec, plan end
  return hash
end

-- undo(strict, encoded): returns the hash after the undo, its plan
-- (encoded when `encoded` is true, as a Lua table when it is "values";
-- when it is "mirror" or "checks", what SHAPE says: the fuzzer compares
-- the mirror with the do plan) and the problems of a strict verification
-- (nil when exact).
local function undo(strict, encoded)
  nogame()
  local rec = top()
  if not rec then core.fail("error", "nothing to undo") end
  begin("undo")
  local problems = undorec(rec, strict, nil)
  local shaped = encoded == "mirror" or encoded == "checks"
  local plan = planorbare(rec, "undo", shaped and encoded or nil)
  PENDING.rec = rec
  if encoded == "values" or shaped then return hashof(), plan, problems end
  return hashof(), encoded and encode(plan) or "", problems
end

function API.invariants()
  nogame()
  checkinvariants()
  return ""
end

-- goal(name): "true" or "false", whether the pack's goal holds now.
function API.goal(name)
  nogame()
  return goalholds(name) and "true" or "false"
end

-- goalestimate(name): the estimate goal `name` declares of the moves still
-- needed from the current state (run read-only, as the goal is), as %.17g
-- writes it; "" when the goal declares none. An estimate that is not a
-- number from 0 up is the rule's mistake, reported with its file and line.
function API.goalestimate(name)
  nogame()
  goalholds(name)
  local goal = PACK.goals[name]
  local fn = type(goal) == "table" and goal.estimate or nil
  if not fn then return "" end
  setwritable(false, "a goal")
  CONTEXT_ACTION = "goal '" .. name .. "' estimate"
  CONTEXT_PHASE = CONTEXT_ACTION
  local h = fn(GAME)
  if type(h) ~= "number" or h ~= h or h < 0 or h == math.huge then
    core.fail("error", "goal '" .. name .. "': estimate returned " .. core.show(h)
      .. " (an estimate returns the moves still needed: a number, 0 or more)", { fn = fn })
  end
  return string.format("%.17g", h)
end

local nottext = packload.nottext   -- the params JSON text cannot carry (packload.lua)

-- The site of a kind the rules named (emit's second argument): a hash of
-- the action's name and the kind (C.fnv, the bridge's one text hash), so
-- the same name is the same kind wherever it is emitted from, and no
-- address or folder reaches it.
local fnv = core.C.fnv
local function namedsite(action, kind)
  return fnv(action .. "\0" .. kind)
end

-- emitter(name): the emit function of action `name`, made once when the
-- action loads (packload.lua) and reused by every legal enumeration.
function M.emitter(name)
  -- emit(params, kind): `kind`, when given, names the guided search's kind
  -- of the call (see namedsite); without it the kind is the emitting line.
  local kinds = {}
  return function(params, kind)
    if type(params) ~= "table" then error(core.where(2) .. "emit expects a param table", 0) end
    if kind ~= nil and type(kind) ~= "string" then
      error(core.where(2) .. "emit: the kind (second argument) must be a string naming the kind of move, not a "
        .. type(kind), 0)
    end
    local out = LEGAL
    if not out then error(core.where(2) .. "emit can only be called while legal runs", 0) end
    local call = { name = name, params = textcopy(params, true) or nottext(params) }
    if SITES then
      if kind then
        local site = kinds[kind]
        if not site then site = namedsite(name, kind); kinds[kind] = site end
        call.site = site
      else
        call.site = emitsite()
      end
    end
    out[#out + 1] = call
  end
end

-- Every legal call { name, params }, in action-name order, each action's in
-- the order it emits them.
local function legalcalls()
  setwritable(false, "legal")
  local out = {}
  LEGAL = out
  local names = PACK.playernames
  if COVER then rulecover(true) end
  for i = 1, #names do
    local name = names[i]
    local def = ACTIONS[name]
    local legal = def.legal
    if legal then
      CONTEXT_ACTION, CONTEXT_PHASE = name, "legal"
      legal(GAME, def.emit)
    end
  end
  if COVER then rulecover(false) end
  LEGAL = nil
  return out
end

-- emitsites(on): while on (and coverage is collected), each legal call
-- carries `site`, the edge of rule code that emitted it (C.coversite): the
-- fuzzer's guided search tells rare kinds of move by it (fuzz.lua).
function M.emitsites(on) SITES = on end

function API.legal()
  nogame()
  return encode(legalcalls())
end

function API.render()
  nogame()
  if not PACK.render then return "" end
  state.setwritable(false, "render")
  context("render", "render")
  if COVER then rulecover(true) end
  local text = PACK.render(state.game())
  if COVER then rulecover(false) end
  if type(text) ~= "string" then core.fail("error", "render must return a string", { fn = PACK.render }) end
  return text
end

-- generate(id, seed, params): the options of a new level, from the pack's
-- `generate(rng, params)` with a generator seeded by `seed` alone
-- (rulebench.lua's rulebench.generator); "" when the pack declares no generate.
-- No game is read or written: the options are checked by the setup they
-- are given to, which is the caller's next call.
function API.generate(id, seed, params)
  local pack = PACKS[id]
  if not pack.generate then return "" end
  context("generate", "generate")
  if COVER then rulecover(true) end
  local options = pack.generate(rulebench.generator(tointeger(tonumber(seed))), decode(params))
  if COVER then rulecover(false) end
  if type(options) ~= "table" then
    core.fail("error", "generate must return the new level's options as a table, not " .. core.show(options), { fn = pack.generate })
  end
  for k in next, options do
    if type(k) ~= "string" then
      core.fail("error", "generate must return options named by strings, not " .. core.show(k), { fn = pack.generate })
    end
  end
  return encode(options)
end

-- Engine calls ------------------------------------------------------------

-- A redo's fresh record `rec` moved into `entry`, the history's record of
-- the action it redid (which stays the same table): what undo reads.
local function adopt(entry, rec)
  entry.def, entry.a, entry.subs, entry.path, entry.serial0 = rec.def, rec.a, rec.subs, rec.path, rec.serial0
  entry.s, entry.e, entry.kept, entry.delays = rec.s, rec.e, rec.kept, rec.delays
end

-- Makes the pending operation permanent, and what it staged for the
-- game's history (history.lua), which keeps a perform's record as its
-- entry; a perform it staged nothing for (a walk's, a replay's) and the
-- undo of one stay in RECS. What can fail (a record's slot, by memory)
-- comes before PENDING is cleared: an error leaves the operation pending,
-- for abort to roll back whole.
function API.commit()
  local p = PENDING
  state.setwritable(false, "")
  if not p then return end
  local op, rec = p.op, p.rec
  if op == "perform" then
    local entry = late.committed(op, rec)
    if not entry then RECS[#RECS + 1] = rec elseif entry ~= rec then adopt(entry, rec) end
  elseif op == "undo" and rec == RECS[#RECS] then
    RECS[#RECS] = nil
  else
    late.committed(op, rec)
  end
  PENDING = nil
  if op == "setup" or op == "set" then
    state.truncate(0)
  elseif op == "undo" then
    state.truncate(rec.s)
  end
end

-- The commit at the end of a call, once the budget's watch has ended: a
-- watched call that ran long is stopped there (release answers true) and
-- runs again counted, so it must not commit: its operation stays pending
-- for the abort before the second run. A call that commits is never run
-- again. Answers whether it committed.
commitcall = function()
  if release() then return false end
  API.commit()
  return true
end

-- newgame(id, seed, options): sets a game up and commits; returns its hash
-- (and the opening's plan, encoded, when the pack has one).
function API.newgame(id, seed, options)
  local hash, opening = newgame(id, seed, options)
  commitcall()
  if opening then return hash, opening end
  return hash
end

-- restart(id, seed, options): the pack loaded again from its compiled
-- chunks (reloadpack), then a new game, in one call.
function API.restart(id, seed, options)
  reloadpack(id)
  return API.newgame(id, seed, options)
end

-- abort(): rolls the failed or stopped call back; returns what was running
-- when it stopped (encoded { action, phase }), for the error's report: a
-- failed operation is two crossings, itself and this.
function API.abort()
  local running = encode({ action = CONTEXT_ACTION, phase = CONTEXT_PHASE })
  state.setwritable(false, "")
  sandbox.closeloads()
  if PENDING then state.rollback(PENDING.mark) end
  PENDING = nil
  late.unwindexplore()     -- explore.lua: a walk an error stopped
  settleids()
  if late.onabort then late.onabort() end
  return running
end

-- The operations, for the calls Swift makes (history.lua) and the kernel's
-- own loops (fuzz.lua): each is one user operation, followed by commit or abort.
M.ops = {
  perform = perform,        -- (name, params, expected, reply, into) -> hash, tree (or record), plan
  treeof = treeof,          -- (rec) -> its subaction tree
  plankey = anim.planhash,  -- (plan) -> valuehash(plan), for a plan perform or undo gave (anim.lua)
  sametree = sametree,      -- (rec, tree) -> whether treeof(rec) would equal `tree`
  undo = undo,              -- (strict, encoded, "values", "mirror" or "checks") -> hash, plan, problems or nil
  commit = API.commit,
  commitcall = commitcall,  -- () -> whether it committed (the end of a call from Swift)
  abort = function()
    state.setwritable(false, ""); sandbox.closeloads(); if PENDING then rollback(PENDING.mark) end; PENDING = nil; settleids()
  end,
  legal = legalcalls,       -- () -> { {name, params}, ... }
  goal = goalholds,         -- (name) -> true or false (the state read-only)
  anygoal = anygoal,        -- () -> whether any goal holds (explore's finished games)
  depth = depth,             -- () -> how many records are applied (history's and RECS)
  records = function() return RECS end,   -- the records above the history (a walk's, a replay's)
  setrecords = function(list) RECS = list end,
  checkpoint = function(name) local def = ACTIONS[name]; return def and def.checkpoint or false end,
  context = function() return CONTEXT_ACTION, CONTEXT_PHASE end,
  pack = function() return PACK end,
  nogame = nogame, setcontext = context,   -- view.lua's read-only calls start as render does
}

-- The engine's steps for explore.lua's walk, each as an operation of its
-- own begins, runs and settles (see explore.lua).
M.steps = {
  nogame = nogame, legal = legalcalls, run = run, invariants = checkinvariants, plan = planorbare, undorec = undorec,
  begin = function(op) if ids.n ~= ids.base then settleids() end; begin(op) end,
  -- A walk's operation ends without commit: its record is pushed or popped here.
  push = function(rec) RECS[#RECS + 1], PENDING = rec, nil end,
  pop = function() RECS[#RECS], PENDING = nil, nil end,
  drop = function() if PENDING then rollback(PENDING.mark); PENDING = nil end end,
  records = function() return RECS end,
}

function API.hash() return state.hash() end

function API.get(keys)
  nogame()
  return core.encode(state.lookup(core.decode(keys)))
end

-- Writes a value at a path before the first action (scenario overrides).
-- A missing table on the way is created, unless `create` is "0" (a
-- scenario's override without `create: true`): then it is an error naming
-- the first missing part, as a misspelled path would silently make one.
function API.set(keys, value, create)
  nogame()
  if depth() > 0 then core.fail("error", "the state can be set only before the first action") end
  begin("set")
  keys = core.decode(keys)
  state.setwritable(true, "a state override")
  local t = state.game()
  for i = 1, #keys - 1 do
    local nextt = t[keys[i]]
    if nextt == nil and create == "0" then
      local names = {}
      for k in next, state.backing(t) do if type(k) == "string" then names[#names + 1] = k end end
      sort(names)
      core.fail("path", state.joinpath({ table.unpack(keys, 1, i) }) .. " does not exist"
        .. core.suggest(tostring(keys[i]), names) .. "; write `create: true` under setup to create missing tables")
    end
    if nextt == nil then t[keys[i]] = {}; nextt = t[keys[i]] end
    if type(nextt) ~= "table" then
      core.fail("path", state.joinpath({ table.unpack(keys, 1, i) }) .. " is " .. core.show(nextt) .. ", not a table")
    end
    t = nextt
  end
  t[keys[#keys]] = core.decode(value)
  state.setwritable(false, "")
  local hash = state.hash()
  commitcall()
  return hash
end

function API.depth() return depth() end

function API.gc() core.collectgarbage("collect") end

-- Settings fixed for the life of a game. leafsources: "1" to record the
-- file:line of every animation leaf (for conflict reports and timelines).
-- configure(leafsources, seedednext, checks): `checks` "0" turns invariants
-- and animation plans off (`explore --no-invariants`, which counts moves
-- only; undo is verified all the same).
function API.configure(leafsources, seedednext, checks, leaks)
  anim.setleafsources(leafsources == "1")
  sandbox.setseedednext(seedednext == "1")   -- a test's planted hole (Game.Configuration.plantsSeededNext)
  CHECKS = checks ~= "0"
  LEAKCHECKS = leaks ~= "0"        -- fuzz.lua's no-leak probes in a seated game (seats.lua)
end

sandbox.provide("rulecover", M.rulecover)
packload.provide("context", M.context)
packload.provide("covered", M.covered)
packload.provide("emitter", M.emitter)
packload.provide("rulecover", M.rulecover)

return M
