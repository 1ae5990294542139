-- The fuzzer's step loop: a random game (or a given program) played inside
-- the kernel, step by step, with every check the fuzzer makes after a step.
--
-- Swift's Fuzzer decides what to run, shrinks and reports; choose.lua
-- picks each step; this file owns what happens between a game's setup and
-- the end of its run: playing the chosen steps, performing, undoing and
-- redoing in the game's one history (history.lua, which Game's operations
-- use too: one operation each, with its own instruction budget, then commit
-- or abort), and checking after every step that
--   - an undo restored the state (strict verification, then the hash),
--   - an undo does not replay the do animation forwards (history.forwards),
--   - a redo gave the same hash, subaction tree and animation plan,
--   - a failed or rejected action changed nothing,
--   - an action `legal` emitted passed its check and its invariants,
--   - every slot a story sequence reads is in the state (`reads`),
-- and, at the end, that rewinding reaches the state after setup. One
-- crossing per run instead of several per step: a step's failure is caught
-- here (C.protect) and recorded, never unwound to Swift. The run's
-- history, outcomes and hashes go back to Swift in one reply, where the
-- checks that need Swift (animation timelines, saving and replaying the
-- history) run once per run.

-- Receives: core, state, engine, history, seats, choose (KernelSource.swift).
-- Returns its table `M`; fills engine's onabort.
local core, state, engine, history, seats, choose = ...
local M = {}
local probeshare, probeshared = seats.probeshare, seats.probeshared   -- `seats` is a list in leaks()
local API = core.API
local ops = engine.ops
local release = core.C.release
-- One operation of the loop, and a failed one's record for Swift (history.lua).
local protect, failure = history.protectop, history.failure
local hashof, mark, rollback, encode, decode = state.hash, state.mark, state.rollback, core.encode, core.decode
local same, coveredges = core.C.same, core.C.coveredges
local takeedges, seeedges = core.C.takeedges, core.C.seeedges
-- How each step is chosen (choose.lua).
local CHOOSE = choose.choose

---------------------------------------------------------------- one run
local RUN            -- the run in progress: outcomes, trace, plans, ...
local HISTORY = history   -- the game's history (history.lua): the run plays in it
-- Plans seen, so Swift judges each distinct plan once: the plan's 128-bit
-- hash (history.plankey) -> its id. Only hashes are kept: keeping the plans
-- made the collector walk them all.
local PLANIDS = {}
local PLANCOUNT, NEXTPLAN = 0, 1

local function callof(entry) return { name = entry.name, params = entry.params } end

local function islegal(legal, step)
  for i = 1, #legal do
    local call = legal[i]
    if call.name == step.name and same(call.params, step.params) then return true end
  end
  return false
end

-- The plan's id; the first time, its bytes go to Swift for judging. At
-- most 20,000 hashes are kept: past that the table starts afresh (ids stay
-- unique; a plan seen again is judged again).
local NEWPLANS = {}   -- the hashes the current fuzz call added (see forgetnewplans)

-- Also returns the key (history.plankey), which the entry keeps
-- (`plankey`): its plan is hashed once, here (history.difference).
local function planid(plan)
  local key = HISTORY.plankey(plan)
  local id = PLANIDS[key]
  if id then return id, false, key end
  if PLANCOUNT >= 20000 then PLANIDS, PLANCOUNT = {}, 0 end
  id, NEXTPLAN, PLANCOUNT = NEXTPLAN, NEXTPLAN + 1, PLANCOUNT + 1
  PLANIDS[key] = id
  NEWPLANS[#NEWPLANS + 1] = key
  return id, true, key
end

-- A call rolled back never reached Swift, so Swift never judged the plans
-- it saw first: they must count as new again when the call runs again.
local function forgetnewplans()
  for i = 1, #NEWPLANS do
    if PLANIDS[NEWPLANS[i]] then
      PLANIDS[NEWPLANS[i]] = nil
      PLANCOUNT = PLANCOUNT - 1
    end
  end
  NEWPLANS = {}
end

-- How often each action was performed, undone and redone by the fuzzer's
-- runs in this Lua state, and attempted illegally (`try` steps: with a
-- param out of the range legal emits, of the wrong type, or swapped from
-- another call; choose.lua), for the coverage report: name -> counts.
local COUNTS = {}
function M.fuzzcounts() return COUNTS end
local TRIED = { range = "outofrange", type = "wrongtype" }

local function count(name, what)
  local c = COUNTS[name]
  if not c then c = { performed = 0, undone = 0, redone = 0, attempted = 0, outofrange = 0, wrongtype = 0 }; COUNTS[name] = c end
  c[what] = c[what] + 1
end

-- Performs a step's call ("do" or "try"); returns a finding or nil.
local function performstep(index, step)
  local before = HISTORY.current()
  local ok, hash, tree, plan = protect(ops.perform, step.name, step.params, nil, "values")
  if ok then
    HISTORY.stageperform(step.name, step.params, hash, tree, plan)
    ops.commit()
    RUN.outcomes[index] = { kind = "performed", hash = hash }
    count(step.name, "performed")
    if step.op == "do" then
      local id, new, key = planid(plan)
      HISTORY.last().plankey = key
      local list = RUN.plans
      list[#list + 1] = { step = index, id = id, plan = new and RUN.raw(encode(plan)) or nil }
    end
    return nil
  end
  local err = failure(hash, tree)
  ops.abort()
  local rejected = err.fields and err.fields.kind == "rejected" and err.cause == "error"
  RUN.outcomes[index] = rejected and { kind = "rejected", reason = err.fields.message } or { kind = "failed", failure = err }
  local call = callof(step)
  if hashof() ~= before then
    return { property = "failureChangesNothing", what = "failed", call = call, failure = err }
  end
  if step.op == "try" then return nil end
  if err.fields and err.fields.kind == "invariant" then
    return { property = "invariantsHold", what = "after", call = call, failure = err }
  end
  return { property = "legalIsAllowed", what = "emitted", call = call, failure = err }
end

-- Undoes the last applied entry as Game.undo does (strict, history.lua's
-- checks); returns nil, or what went wrong: { failure } or { problems }
-- (the undo took effect), or { mirror } unless `nomirror` (a rewind, which
-- never reports an undo played forwards: it does not look for one, and its
-- undo's plan is built for the plan's checks only).
local function undoone(nomirror)
  local entry = HISTORY.last()
  local ok, hash, plan, problems = protect(ops.undo, true, nomirror and "checks" or "mirror")
  if not ok then
    local err = failure(hash, plan)
    ops.abort()
    return { call = callof(entry), failure = err }
  end
  HISTORY.stageundo()
  ops.commit()
  count(entry.name, "undone")
  problems = problems or HISTORY.undoproblems(entry, hash)
  if problems then return { call = callof(entry), problems = problems } end
  if nomirror then return nil end
  local forwards = HISTORY.forwards(entry, plan)
  if forwards then return { call = callof(entry), mirror = true, failure = forwards } end
  return nil
end

-- Redoes the next entry as Game.redo does (strict, history.lua's
-- comparison), run into the entry itself (engine.lua's run: no new
-- record); returns nil or what went wrong.
local function redoone()
  local original = HISTORY.following()
  local ok, hash, rec, plan = protect(ops.perform, original.name, original.params, original.hash, "record", original)
  if not ok then
    local err = failure(hash, rec)
    ops.abort()
    return { call = callof(original), failure = err }
  end
  local mismatch = HISTORY.difference(original, hash, nil, plan, rec)
  if mismatch then
    ops.abort()
    return { call = callof(original), mismatch = mismatch }
  end
  HISTORY.stageredo(original, hash, nil, plan, true)   -- compared: the entry keeps its tree
  ops.commit()
  count(original.name, "redone")
  return nil
end

-- Undoes `n` entries, each checked as undoone checks it; returns the
-- finding of the first that went wrong (`what` names the step) or nil.
local function undotimes(n, what)
  for _ = 1, n do
    local wrong = undoone()
    if wrong then
      wrong.property, wrong.what = wrong.mirror and "undoMirrorsDo" or "undoRestores", what
      wrong.mirror = nil
      return wrong
    end
  end
  return nil
end

-- A bent call (choose.lua: a param out of the range legal emits, or of a
-- wrong type) tried beside a `try` step and rolled back whatever came of
-- it, so the run goes on as the step alone leaves it. When it failed and
-- its rollback left the state changed, it is the finding, and the step
-- becomes that call (the state before the step is the state it ran on).
local function probe(index, step)
  local bent = step.bent
  step.bent = nil
  count(bent.name, "attempted")
  count(bent.name, TRIED[bent.kind])
  local before = hashof()
  local ok, err, cause = protect(ops.perform, bent.name, bent.params, nil, "hash")
  if not ok then err = failure(err, cause) end
  ops.abort()
  if ok or hashof() == before then return nil end
  step.name, step.params = bent.name, bent.params
  RUN.outcomes[index] = { kind = "failed", failure = err }
  return { property = "failureChangesNothing", what = "failed", call = callof(step), failure = err }
end

-- The outcome of an undo or redo step of `n` (kind "undone" or
-- "redone"), made once for each n and shared by the steps that give it:
-- outcomes are only read (encoded for the reply), never written.
local MOVED = { undone = {}, redone = {} }
local function moved(kind, n)
  if math.type(n) ~= "integer" then return { kind = kind, n = n } end
  local made = MOVED[kind]
  local outcome = made[n]
  if not outcome then outcome = { kind = kind, n = n }; made[n] = outcome end
  return outcome
end

-- Runs one step; returns a finding or nil.
local function runstep(index, step)
  local op = step.op
  if op == "try" then
    count(step.name, "attempted")
    if step.bent then
      local found = probe(index, step)
      if found then return found end
    end
  end
  if op == "do" or op == "try" then return performstep(index, step) end
  local cursor = HISTORY.cursor()
  if op == "undo" or op == "turn" or op == "lastturn" then
    local n = op == "turn" and HISTORY.turn() or op == "lastturn" and HISTORY.lastturn()
      or (step.n < cursor and step.n or cursor)
    local wrong = undotimes(n, op)
    if wrong then return wrong end
    RUN.outcomes[index] = moved("undone", n)
  elseif op == "redo" then
    local left = HISTORY.count() - cursor
    local n = step.n < left and step.n or left
    for _ = 1, n do
      local wrong = redoone()
      if wrong then wrong.property, wrong.what = "redoReproduces", "redo"; return wrong end
    end
    RUN.outcomes[index] = moved("redone", n)
  else
    core.fail("error", "unknown fuzz step " .. core.show(op))
  end
  return nil
end

-- The seats' no-leak probes of one state share its side as it is
-- (seats.probeshare, seats.lua). After a step, what they shared is kept for
-- the probes before the next step, which start from the same state
-- (KEPT), and the legal calls they listed there are the next step's
-- (LISTED, taken by legalnow). Both are cleared before each step runs and
-- when a run starts or ends: nothing writes while they are set.
local LISTED, KEPT

-- The legal calls at this point, or a finding when `legal` raised.
local function legalnow()
  local listed = LISTED
  LISTED = nil
  if listed then return listed end
  local ok, legal, cause = protect(ops.legal)
  if ok then return legal end
  return nil, { property = "legalIsAllowed", what = "legal", failure = failure(legal, cause) }
end

-- The no-leak property in a seated game (seats.lua): before a `do` step,
-- its plan as each seat sees it must not depend on what is hidden from
-- the seat (`stepprobe`); after every step, neither may each seat's view,
-- offered calls and scene (`leakprobe`). A probe that a rule error stops
-- (a rearranged state the rules refuse) finds nothing. `step` is the
-- do step about to run, or nil after a step; returns a finding or nil.
local LEAKSEATS   -- the seats the probes play in the run under way (nil: no probes; set by API.fuzz)
local function leaks(index, step, kept)
  local seats = LEAKSEATS
  if not seats then return nil end
  probeshare(kept)
  local found = nil
  for _, seat in ipairs(seats) do
    local ok, leak
    if step then
      ok, leak = protect(API.stepprobe, seat, step.name, encode(step.params), index)
    else
      ok, leak = protect(API.leakprobe, seat, index)
    end
    if not ok then ops.abort() elseif leak ~= "" then
      leak = decode(leak)
      found = { property = "seatSeesOnly", what = step and "before" or "after", call = step and callof(step) or nil,
                seat = leak.seat, shown = leak.what, slots = leak.slots, line = leak.line }
      break
    end
  end
  local shared = probeshared()
  if not step and not found and shared then LISTED, KEPT = shared.calls, shared end
  return found
end

-- The story sequences' property (docs/sequences.md): every state the run
-- reaches holds each slot a sequence reads (`reads`: lists of keys from the
-- root, Swift's SequenceProbe). Looked up after setup and after each step
-- that performed (an undo or a redo goes back to a state already looked
-- at); returns a finding naming the first missing slot by its place in
-- `reads`, or nil.
local function unread(reads, step)
  for i = 1, #reads do
    if state.lookup(reads[i]) == nil then
      return { property = "sequenceTextsRead", what = "after", call = step and callof(step) or nil, read = i }
    end
  end
  return nil
end

-- The entries whose undo a rewind verified, each with the index it stood
-- at (weak keys: an entry a perform dropped goes with it). A rewind adds
-- its entries only when every undo below them was verified too (it
-- reached the state after setup, its hash the initial one, or stopped at
-- an entry already here). While such an entry stands at that index, the
-- entries below it are the ones verified with it (a perform below it
-- would have dropped it), and from its state (its hash) the rest of the
-- rewind is known to pass.
local VERIFIED

-- No rewind verified yet (a restarted game, or a call that failed).
local function forgetverified() VERIFIED = setmetatable({}, { __mode = "k" }) end
forgetverified()

-- Rewinds the whole history (the end-of-run check); returns a finding or
-- nil. A finding says how many undos the rewind ran (`undos`, the failing
-- one included), so a reproduction ends on the undo that fails. A resumed
-- run (the shrinker's candidates, which share their first steps with the
-- last one) stops at the first entry a rewind verified at its index
-- (VERIFIED), its state the one recorded: the undos below were verified
-- from that very state, and the game stays there for the next candidate,
-- which starts from its shared steps without redoing them.
local function rewind(resumed)
  if not resumed then forgetverified() end
  local undone, undos = {}, 0
  while HISTORY.cursor() > 0 do
    local index, entry = HISTORY.cursor(), HISTORY.last()
    if resumed and VERIFIED[entry] == index and hashof() == HISTORY.current() then break end
    -- An undo played forwards is a finding of the undo steps, where a
    -- reproduction can expect it; rewinding only checks the state.
    local wrong = undoone(true)
    undos = undos + 1
    undone[undos] = entry
    if wrong then wrong.property, wrong.what, wrong.undos = "undoRestores", "rewind", undos; return wrong end
  end
  if HISTORY.cursor() == 0 then
    local hash, initial = hashof(), HISTORY.initial()
    if hash ~= initial then
      return { property = "rewindAndReplay", what = "rewound", expected = initial, actual = hash, undos = undos }
    end
  end
  local top = HISTORY.cursor() + undos
  for i = 1, undos do VERIFIED[undone[i]] = top - i + 1 end
  return nil
end

-- fuzz(request): request (encoded) is { program, choices, depth, rare,
-- leaveout, checklegal, recordlegal, final, listlegal, share }. The steps of
-- `program` (if any) are played first; an { op = "any", name } step becomes
-- a random legal call of that action. Then, up to `depth` steps in all,
-- steps are chosen from the generator seeded with `choices`: uniformly, or
-- rare kinds first with `rare` (less the kinds left out with `leaveout`:
-- the search's swarm runs). A `perform` step not legal at its point
-- (with `checklegal`) ends the run invalid, and `offered` in the result is
-- the legal calls there. Returns the encoded result
-- and, after it, raw byte strings that the result refers to by index
-- (new plans, kept exact). The result's `history` is where the history
-- stands (history.reply), not its entries: Swift reads those when it
-- needs them. The request may write its tables in the counted forms
-- (wire.c: `a<n>;`, `h<n>;`), which decode to the same tables. `steps` in
-- the result is the program as played, every step concrete, when anything
-- was chosen.
-- `share` (a worker of a parallel guided session) is what the other workers
-- found since this one last heard: { edges = { edge, ... }, kinds = { site,
-- plays, ... } }; their edges are not new here, their plays count as this
-- session's. The result then says what this state found in turn:
-- `found` = { before = edges first reached before the run (setup, a
-- probe's walk), edges = those of the run, kinds = { site, plays, ... } }.
-- With `resume` = p (`resumeto` below), the run starts after the last run's
-- first p steps: `program` is its steps after those only, and the result
-- answers for them only (outcomes, trace, legal calls, chosen steps; plans
-- and findings keep the run's step numbers), its history where it stands
-- without the entries (`history.reply`).
local STARTED        -- the journal mark the last fuzz call began at (see API.fuzzabort)

-- Resuming (the shrinker's candidates): a run may start where the last one
-- stood after its first `resume` steps, when it played the same steps
-- there, instead of from a game just set up. LAST is what that takes: for
-- each of the last run's first steps that were all performs or attempts
-- (`clean` of them: the history after step i is then entries 1..counts[i],
-- no redo tail), the count and the last entry (`counts[i]`, `tops[i]`);
-- and the history's count and last entry when the run ended (`count`,
-- `top`: nothing has moved the game since while they are still the same).
-- `listed[i]` is the legal calls `legal` listed before step i when the
-- steps before it were all such (i <= clean + 1): the state after step
-- i - 1, which a run resumed there stands in again, its entries the same
-- (`tops`) and its hash verified by the strict undo. Its first legality
-- check takes them instead of listing them again (legal is a function
-- of the state: a finding there would have been the last run's).
-- `bystate[h]` is the legal calls a run that checked its steps' legality
-- listed, without sites, in the state whose hash is h (keepbystate,
-- `kept` of them): a resumed run's listing anywhere takes them.
-- Nil once a call failed.
local LAST

-- Back to the state after step `p` of the last run: each entry after it
-- undone with the strict, verified undo (undoone), or, when the run ended
-- below it (it rewound), each entry up to it redone with the strict redo
-- (redoone); then the redo tail dropped, so the history is the one step p
-- left. What came after those steps changed none of their entries when
-- the entry at counts[p] is the very one step p left (a perform below it
-- would have replaced it). Anything else (no such run, a state that is
-- not the history's, an undo or redo that went wrong) fails the call: the
-- caller starts afresh instead.
local function resumeto(p)
  local last = LAST
  LAST = nil
  local target = p > 0 and last and last.counts[p] or 0
  if not (last and p <= last.clean and HISTORY.count() == last.count and HISTORY.last() == last.top
          and HISTORY.count() >= target and hashof() == HISTORY.current()) then
    core.fail("error", "a fuzz run can resume only within the last run's first performs")
  end
  while HISTORY.cursor() > target do
    if undoone() then core.fail("error", "a fuzz run could not resume: an undo went wrong") end
  end
  while HISTORY.cursor() < target do
    if redoone() then core.fail("error", "a fuzz run could not resume: a redo went wrong") end
  end
  if HISTORY.last() ~= (p > 0 and last.tops[p] or nil) then
    core.fail("error", "a fuzz run could not resume: the history changed below its step " .. p)
  end
  HISTORY.droptail()
  last.clean = p
  for i in pairs(last.listed) do
    if i > p + 1 then last.listed[i] = nil end
  end
  return last
end

-- What a run that starts afresh keeps for the runs resumed after it
-- (LAST): nothing yet.
local function newlast()
  return { counts = {}, tops = {}, listed = {}, clean = 0, bystate = {}, kept = 0 }
end

-- Keeps `legal`, the legal calls listed in the state whose hash is `key`,
-- in LAST's `bystate`: `legal` is a function of the state, and a
-- shrink's candidates come back to states an earlier one listed (a move
-- deleted and mended, two moves swapped). At most BYSTATE listings: past
-- that the table starts afresh.
local BYSTATE = 2048
local function keepbystate(last, key, legal)
  if last.kept >= BYSTATE then last.bystate, last.kept = {}, 0 end
  if last.bystate[key] == nil then last.kept = last.kept + 1 end
  last.bystate[key] = legal
end

-- The entries base+1..n of `list`, as a list from 1 (a resumed run
-- answers for its own steps only).
local function after(list, base)
  if base == 0 or not list then return list end
  local out, i = {}, base + 1
  while list[i] ~= nil do out[i - base] = list[i]; i = i + 1 end
  return out
end

function API.fuzz(request)
  request = decode(request)
  local base = request.resume
  local last = base and resumeto(base) or newlast()
  base = base or 0
  LAST = nil
  if base == 0 and (ops.depth() ~= 0 or HISTORY.count() ~= 0) then
    core.fail("error", "a fuzz run starts from a game with no history")
  end
  STARTED = mark()
  NEWPLANS, LISTED, KEPT = {}, last.listed[base + 1], nil
  -- The seats are the game's from its setup, the probes the game's
  -- configuration: neither changes during a run.
  LEAKSEATS = engine.leakchecks() and seats.seatnames() or nil
  local rare = request.rare or false
  -- Listings by state (LAST's `bystate`, made without sites): kept by a
  -- run whose steps are checked against them, taken only by a resumed
  -- one (a shrink's candidates: no other run resumes, and no coverage
  -- counts there).
  local keeps = request.checklegal and not rare
  local takes = keeps and base > 0
  -- The legal calls before step `index`, kept for a run resumed after
  -- the step before it (LAST's `listed`) and by the state's hash.
  local function listedat(index)
    local key = keeps and HISTORY.current()
    local legal = takes and LISTED == nil and last.bystate[key]
    local found
    if not legal then
      legal, found = legalnow()
      if legal and keeps then keepbystate(last, key, legal) end
    end
    if legal and last.clean == index - 1 then last.listed[index] = legal end
    return legal, found
  end
  local raw = {}
  local function rawindex(bytes) raw[#raw + 1] = bytes; return #raw end
  RUN = { mark = STARTED, outcomes = {}, trace = {}, plans = {}, raw = rawindex }
  -- A resumed run is sent only its steps after the shared ones: program[i]
  -- is the run's step base + i.
  local program, steps = request.program or {}, {}
  local chosen = request.program == nil
  local random = CHOOSE.newrandom(request.choices or 0)
  local legals = request.recordlegal and {} or nil
  engine.emitsites(rare)
  local share = request.share
  CHOOSE.begin(random, rare, request.leaveout, share and share.kinds)
  local result = { valid = true }
  local count = base + #program > (request.depth or 0) and base + #program or request.depth
  local before = share and takeedges()
  if share then seeedges(share.edges or {}) end
  coveredges()   -- forget edges reached since the last run (setup, a probe's walk): not this run's
  local novel, total = {}, 0
  local reads = request.reads
  if reads and base == 0 then
    local found = unread(reads, nil)
    if found then found.step = 0; result.finding = found; count = 0 end
  end
  for index = base + 1, count do
    local step
    if index <= base + #program then
      step = program[index - base]
      if step.op == "any" then
        local legal, found = listedat(index)
        if not legal then result.finding = found; found.step = index; break end
        step = CHOOSE.anycall(random, legal, step.name)
        if not step then result.valid = false; break end
        chosen = true
      elseif step.op == "do" and (request.checklegal or legals) then
        local legal, found = listedat(index)
        if not legal then result.finding = found; found.step = index; break end
        if legals then legals[index] = legal end
        -- The calls offered there go back with the verdict: the shrinker
        -- mends an illegal step with one of them (no run to list them).
        if request.checklegal and not islegal(legal, step) then result.valid, result.offered = false, legal; break end
      elseif legals then
        legals[index] = {}
      end
    else
      local legal, found = listedat(index)
      if not legal then result.finding = found; found.step = index; break end
      step = CHOOSE.step(random, legal, HISTORY.cursor(), HISTORY.count(), rare)
      if not step then break end
      chosen = true
    end
    steps[index] = step
    local kept = KEPT
    LISTED, KEPT = nil, nil
    local found = step.op == "do" and LEAKSEATS and leaks(index, step, kept) or runstep(index, step)
      or LEAKSEATS and leaks(index, nil) or nil
    if not found and reads and RUN.outcomes[index] and RUN.outcomes[index].kind == "performed" then
      found = unread(reads, step)
    end
    if found then found.step = index; result.finding = found; break end
    RUN.trace[index] = HISTORY.current()
    if last.clean == index - 1 and (step.op == "do" or step.op == "try") then
      last.counts[index], last.tops[index], last.clean = HISTORY.count(), HISTORY.last(), index
    end
    -- Where this run went somewhere new: the steps (with the legal
    -- enumeration before them) that reached edges no run had reached.
    local fresh = coveredges()
    if fresh > 0 then
      novel[#novel + 1] = index
      total = total + fresh
    end
  end
  -- A finding of `legal` raising after the last step is reproduced by
  -- listing the legal actions there.
  if request.listlegal and not result.finding and result.valid then
    local legal, found = listedat(count + 1)
    if not legal then result.finding = found; found.step = #steps + 1 end
  end
  LISTED, KEPT = nil, nil
  if request.final and not result.finding and result.valid then
    result.rewound = rewind(request.resume ~= nil)
  end
  -- Where the game stands: a resume checks nothing moved it since.
  last.count, last.top = HISTORY.count(), HISTORY.last()
  LAST = last
  engine.emitsites(false)
  release()   -- no rule code from here on: the reply is not under the budget
  result.steps = chosen and after(steps, base) or nil
  result.outcomes, result.trace, result.plans = after(RUN.outcomes, base), after(RUN.trace, base), RUN.plans
  result.legal = after(legals, base)
  result.history = HISTORY.reply()
  result.fresh = total + coveredges()     -- line-to-line edges no earlier run reached
  if share then result.found = { before = before, edges = takeedges(), kinds = CHOOSE.played() } end
  result.novel = novel
  RUN = nil
  return encode(result), table.unpack(raw)
end

---------------------------------------------------------------- replay
local REPLAYING      -- the journal mark a replay started from

-- replay(steps): performs each step { name, params, hash } from the
-- current state (a game fresh from setup), checking that it gives the
-- saved hash, then rolls all of it back, so the game is as it was. Plans
-- are built but not encoded: only hashes are compared. Returns "" when
-- every hash matched, or the encoded { step, failure } or { step, hash }
-- of the first step that failed or gave another hash.
local REPLAYED       -- the journal mark the last replay began at (see API.replayabort)

function API.replay(steps)
  if ops.depth() ~= 0 then core.fail("error", "a replay starts from a game with no history") end
  steps = decode(steps)
  REPLAYING = mark()
  REPLAYED = REPLAYING
  local result = ""
  for i = 1, #steps do
    local step = steps[i]
    local ok, hash, cause = protect(ops.perform, step.name, step.params, nil, "hash")
    if not ok then
      local err = failure(hash, cause)
      ops.abort()
      result = encode({ step = i, failure = err })
      break
    end
    ops.commit()
    if hash ~= step.hash then
      result = encode({ step = i, hash = hash })
      break
    end
  end
  rollback(REPLAYING)
  ops.setrecords({})
  REPLAYING = nil
  return result
end

-- A fuzz call (or a replay) that was stopped between its operations runs
-- again counted (vm.c, rb_call; an operation that ran long runs again
-- alone, see protect above). It may have finished first: RUN is gone and
-- the game is where the run ended. So the abort before the second run
-- rolls back to where the last fuzz call began, whatever happened since; it
-- runs only right after that call.
-- Back to journal mark `start` (when given) with no history, and no run
-- or replay in progress. A run (`run` true) started from a game with no
-- history, so its history is emptied; a replay never wrote to it.
local function backto(start, run)
  if start then
    rollback(start)
    ops.setrecords({})
    if run then HISTORY.reset(hashof()) end
  end
  RUN, REPLAYING = nil, nil
end

local function rollbackto(start, run)
  API.abort()
  backto(start, run)
end

function API.fuzzabort()
  LAST = nil
  forgetverified()
  rollbackto(STARTED, true)
  forgetnewplans()
  CHOOSE.forgetplays()
end
function API.replayabort() rollbackto(REPLAYED) end

-- An abort while a run or a replay is in progress (a call that failed in
-- the middle): back to the state it started from.
function M.onabort()
  LAST, LISTED, KEPT = nil, nil, nil
  forgetverified()
  seats.probeshared()
  engine.emitsites(false)
  if RUN then
    forgetnewplans()
    CHOOSE.forgetplays()
  end
  local start = RUN and RUN.mark or REPLAYING
  if start then backto(start, RUN ~= nil) end
end

engine.provide("onabort", M.onabort)

return M
