-- Seats and secrets: who sits at a seated game, which seats may act in a
-- state, which seat performs a call, what each seat may see (its view of
-- the state, of a step's changes and animation plan, and the view's hash),
-- the players' undo barriers, and the no-leak probes for one seat.
--
-- Owns the current game's seats (SEATS, from the pack's `seats`), every
-- call of the pack's `turn`, `secrets` and actions' `seat` functions, the
-- views of the last seated perform (LASTVIEWS), and what the seats' no-leak
-- probes of one state share while fuzz.lua holds that state still (SHARED;
-- ALIKE: what one probe computed for seats whose rearranged state is its own).
-- Invariant: nothing a view holds is derived from a slot hidden from its
-- seat: a hidden slot's value is HIDDEN, the random generator is left out,
-- a plan's words that only hidden slots hold are replaced, a step's
-- changes are those of the seat's views (and where hidden slots changed,
-- never how), and a view's hash is the hash of the view alone, never of
-- the state. A step's views cost what it wrote and what is marked, not
-- the state: they are read from the journal and the marked tables, once
-- for every seat, and once for seats that may see alike every marked slot
-- (`twinof`). A pack without `seats` pays nothing here: SEATS is nil
-- and history.lua's hook is unset.

-- Receives: core, splitmix, state, rulebench, sandbox, anim, packload, engine,
-- history, view (KernelSource.swift).
-- Returns its table `M`; fills packload's finishseats; engine's seatgame.
local core, splitmix, state, rulebench, sandbox, anim, packload, engine, history, view = ...
local M = {}
local API, ops, history = core.API, engine.ops, history
local type, next, ipairs, tostring, error = type, next, ipairs, tostring, error
local backing, isnode, encode, decode = state.backing, state.isnode, core.encode, core.decode
local concat = table.concat
local RNG = rulebench.RNG
local kmatch, hasplain = sandbox.match, sandbox.hasplain   -- string.match and a plain find, charged as the rules' are (sandbox.lua)

-- What a seat's view holds in place of a hidden slot's value.
local HIDDEN = "(hidden)"
M.HIDDEN = HIDDEN

local SEATS          -- the current game's seats in order (nil: the pack declares none)
local SEATSET        -- seat -> true
local LASTVIEWS      -- seat -> { hash, plan, changes, barrier } of the last seated perform, or { twin = seat } sharing that seat's
local FRESH = { at = -1 }   -- the marks of the state as it stands (declared, below)
local REFERENCE = false     -- the kernel tests' reference mode (M.seatsreference, below)

---------------------------------------------------------------- declarations
local function seatfail(pack, field, message)
  core.fail("load", message, { file = pack.file, line = packload.fieldline(pack.source, field) })
end

-- packload.lua's finish: the seat declarations of `pack` (its own, else its base's).
function M.finishseats(pack, base, m)
  pack.seatdecl = m.seats or (base and base.seatdecl)
  pack.turn = m.turn or (base and base.turn)
  pack.secrets = m.secrets or (base and base.secrets)
  if not pack.seatdecl then
    if pack.turn then seatfail(pack, "turn", "turn says which seats may act: declare the seats too (seats = { \"p1\", \"p2\" })") end
    if pack.secrets then seatfail(pack, "secrets", "secrets says what each seat may see: declare the seats too (seats = { \"p1\", \"p2\" })") end
  end
end

-- The seat list a pack's `seats` gave, checked: distinct strings, at least one.
local function checkedseats(list, fn)
  local where = fn and { fn = fn } or nil
  if type(list) ~= "table" or #list == 0 then
    core.fail("error", "seats must be a list of seat names such as { \"p1\", \"p2\" }, not " .. core.show(list), where)
  end
  local out, set = {}, {}
  for i, name in ipairs(list) do
    if type(name) ~= "string" or name == "" then
      core.fail("error", "seat " .. i .. " must be a non-empty string, not " .. core.show(name), where)
    end
    if set[name] then core.fail("error", "seat " .. name .. " is named twice", where) end
    out[i], set[name] = name, true
  end
  return out, set
end

local beforestep   -- the hook history.lua runs around a seated perform (below)

-- engine.lua's newgame, after setup: this game's seats (from the options
-- when `seats` is a function), or none.
function M.seatgame(pack, options)
  local decl = pack.seatdecl
  SEATS, SEATSET, LASTVIEWS, FRESH = nil, nil, nil, { at = -1 }
  if decl == nil then history.seathook(nil); return end
  local list = decl
  if type(decl) == "function" then
    state.setwritable(false, "seats")
    ops.setcontext("setup", "seats")
    engine.rulecover(true)
    list = decl(state.plain(options))
    engine.rulecover(false)
  end
  SEATS, SEATSET = checkedseats(list, type(decl) == "function" and decl or nil)
  history.seathook(beforestep)
end

local function pack() return ops.pack() end

local function knownseat(seat)
  if not SEATS then
    core.fail("error", "the pack declares no seats (add seats = { \"p1\", \"p2\" } to pack.lua to play as a seat)")
  end
  if type(seat) ~= "string" or not SEATSET[seat] then
    local named = type(seat) == "string" and "'" .. seat .. "'" or core.show(seat)
    core.fail("unknown", "unknown seat " .. named .. core.suggest(tostring(seat), SEATS) .. " (seats: " .. concat(SEATS, ", ") .. ")")
  end
end

-- A rule function of the seat declarations, run with the state read-only.
local function readonly(what, phase)
  state.setwritable(false, phase)
  ops.setcontext(what, phase)
end

-- A seat, or a list of seats, as a set (nil: the empty set), as `turn`
-- returns and `secret` takes them. When `v` is neither, nil, "kind" and
-- `v`; when it names something that is not a seat, nil, "seat" and that.
local function seatset(v)
  local set = {}
  if type(v) == "string" then
    set[v] = true
  elseif type(v) == "table" then
    for _, s in ipairs(v) do set[s] = true end
  elseif v ~= nil then
    return nil, "kind", v
  end
  for s in next, set do
    if not SEATSET[s] then return nil, "seat", s end
  end
  return set
end

---------------------------------------------------------------- turns
-- The seats that may act now (a set) and the pack's reason for the others:
-- `turn(game)` returns a seat, a list of seats, or nil (the game acts by
-- itself), and optionally why the others may not. Without `turn`, every seat.
local function actors()
  local turn = pack().turn
  if not turn then return SEATSET, nil end
  readonly("turn", "turn")
  engine.rulecover(true)
  local who, reason = turn(state.game())
  engine.rulecover(false)
  local set, wrong, what = seatset(who)
  if wrong == "kind" then
    core.fail("error", "turn must return a seat, a list of seats or nil, not " .. core.show(what), { fn = turn })
  elseif wrong == "seat" then
    core.fail("error", "turn returned " .. core.show(what) .. ", which is not a seat", { fn = turn })
  end
  if reason ~= nil and type(reason) ~= "string" then
    core.fail("error", "turn's second result is the reason others may not act: a string, not " .. core.show(reason), { fn = turn })
  end
  return set, reason
end

-- The game's seats (nil without) and the set that may act now: what the
-- value search (value.lua) and explore ask of each state.
function M.actors()
  if not SEATS then return nil, nil end
  return SEATS, (actors())
end

-- The seat that performs call `name` with `params`: the action's `seat`
-- (a param's name, or a function of the state and the params); by
-- default its param `seat` or `player` when that names a seat; nil when
-- any seat that may act may make it.
local function performer(name, params)
  local def = pack().actions[name]
  if not def then return nil end
  local seat = def.seat
  if type(seat) == "string" then return params[seat] end
  if type(seat) == "function" then
    readonly(name, "seat")
    engine.rulecover(true)
    local who = seat(state.game(), state.plain(params))
    engine.rulecover(false)
    if who ~= nil and (type(who) ~= "string" or not SEATSET[who]) then
      core.fail("error", "seat of '" .. name .. "' must return a seat or nil, not " .. core.show(who), { fn = seat })
    end
    return who
  end
  local who = params.seat
  if who == nil then who = params.player end
  if type(who) == "string" and SEATSET[who] then return who end
  return nil
end

-- Why `seat` may not make the call (nil when it may), given the actors.
local function refusal(name, params, seat, set, reason)
  if not set[seat] then
    if reason then return reason end
    local who = {}
    for _, s in ipairs(SEATS) do if set[s] then who[#who + 1] = s end end
    if #who == 0 then return "no seat may act now (" .. seat .. " waits)" end
    return "it is not " .. seat .. "'s turn (" .. concat(who, ", ") .. " may act)"
  end
  local by = performer(name, params)
  if by ~= nil and by ~= seat then return "this call is " .. tostring(by) .. "'s to make, not " .. seat .. "'s" end
  return nil
end

-- Raises the refusal of a call by `seat` as a rejection (nothing changed).
local function refuse(name, params, seat)
  knownseat(seat)
  local set, reason = actors()
  local why = refusal(name, params, seat, set, reason)
  if why then core.fail("rejected", why, { action = name }) end
end

-- The legal calls `seat` may make: every legal call the seat is not refused.
local function legalas(seat)
  knownseat(seat)
  local set, reason = actors()
  local calls, out = ops.legal(), {}
  if not set[seat] then return out end
  for i = 1, #calls do
    local c = calls[i]
    if not refusal(c.name, c.params, seat, set, reason) then out[#out + 1] = c end
  end
  return out
end

---------------------------------------------------------------- secrets
-- The slots the pack's `secrets(game, secret)` marks, as proxy -> { all =
-- owners, keys = { key -> owners } }, owners the set of seats that may see
-- (empty: no seat). `secret(t)` hides every slot of t, `secret(t, key)` one;
-- a third argument names the seat (or list of seats) that still sees it.
-- A slot's own mark overrides its table's.
local function runsecrets()
  local secrets = pack().secrets
  local hid = {}
  if not secrets then return hid end
  readonly("secrets", "secrets")
  local function secret(t, key, owners)
    if not isnode(t) then error(core.where(2) .. "secret: the first argument must be a table of the game state", 0) end
    local set, wrong, what = seatset(owners)
    if wrong == "kind" then
      error(core.where(2) .. "secret: the third argument names the seat (or list of seats) that sees it, not " .. core.show(what), 0)
    elseif wrong == "seat" then
      error(core.where(2) .. "secret: " .. core.show(what) .. " is not a seat", 0)
    end
    local rec = hid[t]
    if not rec then rec = {}; hid[t] = rec end
    if key == nil then rec.all = set else rec.keys = rec.keys or {}; rec.keys[key] = set end
  end
  engine.rulecover(true)
  local result = secrets(state.game(), secret)
  engine.rulecover(false)
  if result ~= nil then core.fail("error", "secrets marks slots with secret(...) and returns nothing", { fn = secrets }) end
  return hid
end

-- The marks of the state as it stands, kept while it stands: `secrets`
-- runs with the state read-only and reads nothing else, so its marks are
-- the same until a slot changes (statecore's count of changes, which every
-- write, rollback and revert moves) or the game is another. A served step
-- reads them before it and after, and the next step before it again:
-- `secrets` runs once a step. `words` keeps, for the same marks, each
-- seat's words only hidden slots hold (hiddenwords, below). Not kept in
-- the kernel tests' reference mode (K.seatsreference), nor while coverage
-- is collected (each run of `secrets` counts its lines).
local changes = core.C.state.changes

local function declared()
  local at, game = changes(), state.game()
  if FRESH.at == at and FRESH.game == game then
    if pack().secrets then readonly("secrets", "secrets") end   -- as a run of `secrets` leaves the state
    return FRESH.hid
  end
  local hid = runsecrets()
  if REFERENCE or engine.covered() then return hid end
  FRESH = { at = at, game = game, hid = hid, words = {} }
  return hid
end

-- Whether slot k of a table with marks `rec` is hidden from `seat`. Seat
-- "" is a spectator, who sees a marked slot only when every seat may.
local function hidden(rec, k, seat)
  local owners = rec.keys and rec.keys[k]
  if owners == nil then owners = rec.all end
  if owners == nil then return false end
  if seat == "" then
    for i = 1, #SEATS do if not owners[SEATS[i]] then return true end end
    return false
  end
  return not owners[seat]
end

-- A seat's view of state table t: a plain copy, hidden slots as HIDDEN,
-- the generator left out. `content(t)` gives the slots to read (the
-- backing table; a step's state before, beforeof's).
local function viewof(t, seat, hid, root, content)
  content = content or backing
  local out, rec = {}, hid[t]
  for k, v in next, content(t) do
    if not (root and k == RNG) then
      if rec and hidden(rec, k, seat) then out[k] = HIDDEN
      elseif type(v) == "table" then out[k] = viewof(v, seat, hid, false, content)
      else out[k] = v end
    end
  end
  return out
end

---------------------------------------------------------------- a view's hash
-- A seat's view hashed as the state is (statecore.c: a table's hash is
-- the mixed sum of one term per slot, the same whatever the order): the
-- view's own hash, the same for every state the seat cannot tell apart,
-- and never the state's. Only the tables that hold a mark, and those
-- above them, are summed here, as the view shows their slots (a hidden
-- slot's term is HIDDEN's, the generator has none); every other table is
-- in the view as in the state, and its term is its node's own, which the
-- barrier keeps. So a view's hash costs the marked tables' slots, not the
-- state's.
local SC, NODE = core.C.state, state.NODE
local slotterm, termof, termsum, sumhash = SC.slotterm, SC.term, SC.termsum, SC.sumhash

-- The node records of the marked tables (`hid`) and of the tables above them.
local function markedtree(hid)
  local above = {}
  for t in next, hid do
    local m = NODE[t]
    while m and not above[m] do above[m] = true; m = m.up end
  end
  return above
end

-- The sum of the terms of node m's slots as `seat` sees them.
local function viewsum(m, seat, hid, above, root)
  local rec, sum = hid[m.proxy], 0
  for k, v in next, m.b do
    if root and k == RNG then
      -- the generator is never seen
    elseif rec and hidden(rec, k, seat) then
      sum = sum + termof(k, HIDDEN)
    elseif type(v) == "table" and above[NODE[v]] then
      sum = sum + termsum(k, viewsum(NODE[v], seat, hid, above, false))
    else
      sum = sum + slotterm(m, k)
    end
  end
  return sum
end

-- The hash of `seat`'s view now, with the marks `hid` (and their tree, `above`).
local function viewhash(seat, hid, above)
  return sumhash(viewsum(NODE[state.game()], seat, hid, above or markedtree(hid), true))
end

-- The word of a scalar a plan may name: a string, or an integer's digits
-- ("card:" .. 17 names card 17); nil for the rest.
local function word(v)
  if type(v) == "string" then return v end
  if math.type(v) == "integer" then return tostring(v) end
  return nil
end

-- The words a value holds (its own, or its tables' values), into `set`.
local function leaves(v, set, content)
  if type(v) ~= "table" then
    local w = word(v)
    if w then set[w] = true end
    return
  end
  for _, x in next, content(v) do leaves(x, set, content) end
end

-- The words of seat's view: strings held only in slots hidden from it
-- (`hid`) and strings it sees (`seen`), for the plan's redaction.
-- `content` as viewof's.
local function words(t, seat, hid, root, hiddenw, seen, content)
  content = content or backing
  local rec = hid[t]
  for k, v in next, content(t) do
    if type(k) == "string" then seen[k] = true end
    if root and k == RNG then
      -- the generator is never seen, and holds no words
    elseif rec and hidden(rec, k, seat) then
      leaves(v, hiddenw, content)
    elseif type(v) == "table" then
      words(v, seat, hid, false, hiddenw, seen, content)
    else
      local w = word(v)
      if w then seen[w] = true end
    end
  end
end

-- The words only slots hidden from `seat` hold, as `words` finds them,
-- read from the marked tables alone (a marked table inside a hidden slot
-- adds nothing the slot's leaves do not): into `set`.
local function hiddenwords(seat, hid, set)
  local root = NODE[state.game()]
  for t, rec in next, hid do
    local m = NODE[t]
    while m.up do m = m.up end
    if m == root then
      for k, v in next, backing(t) do
        if hidden(rec, k, seat) then leaves(v, set, backing) end
      end
    end
  end
  return set
end

-- hiddenwords of `seat` into a new set, kept with the marks of the state
-- as it stands when `hid` are they and no slot changed since (declared):
-- read only, never filled further.
local function hiddenwordsof(seat, hid)
  if hid ~= FRESH.hid or FRESH.at ~= changes() or FRESH.game ~= state.game() then return hiddenwords(seat, hid, {}) end
  local set = FRESH.words[seat]
  if not set then set = hiddenwords(seat, hid, {}); FRESH.words[seat] = set end
  return set
end

-- A plan's fields that name its structure, never the game's things.
local STRUCTURE = { kind = true, action = true, mode = true, easing = true, property = true, src = true, sound = true }

-- A seat's view of a plan or a scene's node: every string that only
-- hidden slots held before or after the step (and the seat saw in
-- neither) is replaced, as is the part after the last ':' of a node name
-- ("card:sun3" -> "card:?1"); the replacements are numbered in the order
-- met. A node name keeps its number wherever it recurs (a card's tweens
-- move one node); a hidden word itself gets a new number each time, so
-- that two equal hidden words (two copies of a card) do not show as equal.
-- `secretword(s)` says whether s is such a word. Returns a function of a
-- value: its redacted copy, and whether anything in it was replaced.
local function redactor(secretword)
  local names, n, changed = {}, 0, false
  local function hide(s)
    changed = true
    local name = names[s]
    if not name then
      n = n + 1
      local prefix = not secretword(s) and kmatch(s, "^(.*:)[^:]*$")
      if not prefix then return "?" .. n end
      name = prefix .. "?" .. n
      names[s] = name
    end
    return name
  end
  local function walk(v, key)
    if type(v) == "string" then
      if STRUCTURE[key] then return v end
      if secretword(v) then return hide(v) end
      local tail = kmatch(v, ":([^:]*)$")
      if tail and secretword(tail) then return hide(v) end
      return v
    end
    if type(v) ~= "table" then return v end
    local out = {}
    for _, k in ipairs(core.sortedkeys(v)) do out[k] = walk(v[k], k) end
    return out
  end
  return function(v)
    changed = false
    local out = walk(v, nil)
    return out, changed
  end
end

local function redact(plan, secretword) return (redactor(secretword)(plan)) end

-- Whether the redactor would replace anything in `v` (at `key`): a string
-- it hides, anywhere in it. A value without one is its own redaction, so
-- a scene's node without a secret is kept as it is, not copied in key order.
local function namessecret(v, key, secretword)
  if type(v) == "string" then
    if STRUCTURE[key] then return false end
    if secretword(v) then return true end
    if not hasplain(v, ":") then return false end
    local tail = kmatch(v, ":([^:]*)$")
    return tail ~= nil and secretword(tail)
  end
  if type(v) ~= "table" then return false end
  for k, x in next, v do
    if namessecret(x, k, secretword) then return true end
  end
  return false
end

---------------------------------------------------------------- a seated step
-- The kernel tests' switch (M.seatsreference): every seat's view of a
-- step computed on its own, and the secret words found by walking every
-- slot of both views, as before the shortcuts (`twinof`, `unseen`), to
-- compare with them.
function M.seatsreference(on) REFERENCE = on and true or false; FRESH = { at = -1 } end

-- Whether seats a and b may see alike every slot the marks `hid` name:
-- every owner set holds both or neither. Then `hidden` answers alike for
-- the two, and so does every view, which reads the seat through it alone.
local function alike(hid, a, b)
  for _, rec in next, hid do
    local all = rec.all
    if all and not all[a] ~= not all[b] then return false end
    if rec.keys then
      for _, owners in next, rec.keys do
        if not owners[a] ~= not owners[b] then return false end
      end
    end
  end
  return true
end

-- Whether two owner sets (nil: none) hold the same seats.
local function sameowners(a, b)
  if a == b then return true end
  if a == nil or b == nil then return false end
  for s in next, a do if not b[s] then return false end end
  for s in next, b do if not a[s] then return false end end
  return true
end

-- Whether a table's marks a and b (nil: unmarked) hide the same slots from
-- the same seats: then `hidden` answers alike for every slot and seat.
-- Never in the reference mode (K.seatsreference), which walks every mark.
local function samemark(a, b)
  if REFERENCE then return false end
  if a == b then return true end
  if a == nil or b == nil or not sameowners(a.all, b.all) then return false end
  local ka, kb = a.keys, b.keys
  if ka == kb then return true end
  if ka == nil or kb == nil then return false end
  for k, owners in next, ka do
    if not sameowners(owners, kb[k]) or kb[k] == nil then return false end
  end
  for k in next, kb do if ka[k] == nil then return false end end
  return true
end

-- The first of seats[1 .. i-1] that sees alike with seats[i] under every
-- marks given (a step's before and after), whose view seats[i] shares; nil when none.
local function twinof(seats, i, hid, hid2)
  if REFERENCE then return nil end
  local seat = seats[i]
  for j = 1, i - 1 do
    local other = seats[j]
    if alike(hid, other, seat) and (not hid2 or alike(hid2, other, seat)) then return other end
  end
  return nil
end

-- The hash of a state table's subtree (statecore.c keeps one per table).
local function nodehash(t) return SC.hash(NODE[t]) end
-- A slot's value as a barrier compares it: a table by its subtree's hash.
local function slotvalue(v) if type(v) == "table" then return nodehash(v) end return v end

-- The marks of `secrets` now (a table's subtree hash, each marked slot's
-- value) and, for each of `seats` (a perform as a seat, a step's probe),
-- the words only slots hidden from it hold; with seats, the marks
-- themselves, each marked table's slot values (for the changes' hidden
-- entries) and where the journal stands (what the step writes comes
-- after). Before a step (history.lua's hook). What it costs is the
-- marks', not the state's: every perform in a seated game runs it.
local function snapshot(seats)
  local hid = declared()
  local marks, n = {}, 0
  for t, rec in next, hid do
    local values, slots
    if rec.keys then
      values = {}
      for k in next, rec.keys do values[k] = slotvalue(backing(t)[k]) end
    end
    if seats then
      slots = {}
      for k, v in next, backing(t) do slots[k] = slotvalue(v) end
    end
    n = n + 1
    marks[n] = { t = t, rec = rec, hash = rec.all and nodehash(t) or nil, values = values, slots = slots }
  end
  local hiddenw = nil
  if seats then
    hiddenw = {}
    for i, seat in ipairs(seats) do
      local twin = twinof(seats, i, hid)
      hiddenw[seat] = twin and hiddenw[twin] or hiddenwordsof(seat, hid)
    end
  end
  return { rng = backing(state.game())[RNG], marks = marks, hid = seats and hid, hiddenw = hiddenw, mark = state.mark() }
end

-- Whether a mark hid something from `seat` that the marks `after` show it.
local function uncovered(rec, after, seat, t)
  if rec.all and not rec.all[seat] then
    if not (after and after.all and not after.all[seat]) then
      -- The table is no longer hidden whole: shown, unless every slot is still marked.
      for k in next, backing(t) do
        if not (after and hidden(after, k, seat)) and hidden(rec, k, seat) then return true end
      end
    elseif after.keys then
      -- Still hidden whole: only a slot's own mark can show it (a scout's look).
      for k in next, after.keys do
        if hidden(rec, k, seat) and not hidden(after, k, seat) then return true end
      end
    end
  end
  if rec.keys then
    for k in next, rec.keys do
      if hidden(rec, k, seat) and not (after and hidden(after, k, seat)) then return true end
    end
  end
  return false
end

-- Whether the step from snapshot `before` is an undo barrier for players:
-- it drew from the generator, wrote a slot hidden from some seat (a card
-- left a face-down deck, a hand changed), or showed a seat a slot hidden
-- from it before (a tile turned face up, a scout's look). "generator",
-- "secret" or nil.
local function barrier(before, hid)
  if backing(state.game())[RNG] ~= before.rng then return "generator" end
  local marks = before.marks
  for i = 1, #marks do
    local m = marks[i]
    local t, rec = m.t, m.rec
    if m.hash and nodehash(t) ~= m.hash then return "secret" end
    if m.values then
      for k, v in next, m.values do
        if slotvalue(backing(t)[k]) ~= v then return "secret" end
      end
    end
    -- Marks that hide the same slots from the same seats after the step show nothing.
    if not samemark(rec, hid[t]) then
      for _, seat in ipairs(SEATS) do
        if uncovered(rec, hid[t], seat, t) then return "secret" end
      end
    end
  end
  return nil
end

---------------------------------------------------------------- a step as a seat sees it
-- A step's views are read from what it wrote (the journal since the
-- snapshot: every slot written, with its value before) and from the marks
-- before and after, once for every seat: a table no write reached and
-- no mark names is the same in every view before and after, and is not
-- walked. What a seat is sent is still a function of its two views alone:
-- the slots written are only where to look; each change is a slot whose
-- value in the seat's view differs, whatever was written (a hidden slot
-- written, a visible one written back to its value: nothing shows).

-- What every seat's view of the step is read from: the slots written
-- (state.lua's written: node record -> { key -> value before }), the
-- marks before and after, the node records a write reached and those
-- above them (`written`), those and the node records whose marks changed
-- (a slot shown or hidden without a write: samemark) and those above
-- them (`dirty`), and the marked tables' tree now. A table no write
-- reached holds the same slots and subtree hashes as before the step.
local function stepcontext(before, hid)
  local first = state.written(before.mark)
  local written, dirty = {}, {}
  local function up(m, set) while m and not set[m] do set[m] = true; m = m.up end end
  for m in next, first do up(m, written) end
  for m in next, written do dirty[m] = true end
  for t, rec in next, before.hid do if not samemark(rec, hid[t]) then up(NODE[t], dirty) end end
  for t in next, hid do if before.hid[t] == nil then up(NODE[t], dirty) end end   -- marked by the step
  local ctx = { first = first, written = written, dirty = dirty, hidb = before.hid, hid = hid, above = markedtree(hid) }
  -- The slots of table t before the step: its backing table, or (when
  -- the step wrote it) a copy with the values before.
  ctx.content = function(t)
    local m = NODE[t]
    local f = first[m]
    if not f then return m.b end
    local out = {}
    for k, v in next, m.b do out[k] = v end
    for k, old in next, f do if old == state.NIL then out[k] = nil else out[k] = old end end
    return out
  end
  return ctx
end

-- The differences between `seat`'s views of state tables tb (before the
-- step) and ta (after), into `out` as { path, before, after } (a side
-- absent when the slot is), in key order, down to the slots whose values
-- differ: a slot that appears or disappears, or holds a table on one side
-- only, is one entry with its whole value. A table unchanged (the same
-- table, and no write or mark below it) is skipped.
local function viewdiff(ctx, seat, tb, ta, keys, out)
  if tb == ta and not ctx.dirty[NODE[ta]] then return out end
  local b, a = ctx.content(tb), backing(ta)
  local recb, reca = ctx.hidb[tb], ctx.hid[ta]
  local root = #keys == 0
  local both = {}
  for k in next, b do both[k] = true end
  for k in next, a do both[k] = true end
  local union = core.sortedkeys(both)
  local depth = #keys + 1
  for i = 1, #union do
    local k = union[i]
    if not (root and k == RNG) then
      local x, y = b[k], a[k]
      if x ~= nil and recb and hidden(recb, k, seat) then x = HIDDEN end
      if y ~= nil and reca and hidden(reca, k, seat) then y = HIDDEN end
      keys[depth] = k
      if type(x) == "table" and type(y) == "table" then
        viewdiff(ctx, seat, x, y, keys, out)
      elseif x ~= y then
        if type(x) == "table" then x = viewof(x, seat, ctx.hidb, false, ctx.content) end
        if type(y) == "table" then y = viewof(y, seat, ctx.hid, false) end
        out[#out + 1] = { path = state.joinpath(keys), before = x, after = y }
      end
      keys[depth] = nil
    end
  end
  return out
end

-- The tables with a slot hidden from `seat` before and after the step
-- whose value changed (a face-down deck shuffled, a card of another
-- seat's hand swapped), as { path, before = HIDDEN, after = HIDDEN },
-- sorted by path: the seat may know that something it cannot see changed
-- there, never what. A slot that appeared or left is the views' change
-- already; a table the step detached is left out (its slot is its parent's).
local function hiddenchanges(before, ctx, seat, out)
  local hid, found = ctx.hid, {}
  for _, m in ipairs(before.marks) do
    local t, rec, now = m.t, m.rec, hid[m.t]
    -- A table no write reached holds the values it held (m.slots): skipped, but in the reference mode.
    if now and (REFERENCE or ctx.written[NODE[t]]) then
      local b, any = backing(t), false
      for k, old in next, m.slots do
        local v = b[k]
        if v ~= nil and hidden(rec, k, seat) and hidden(now, k, seat) and slotvalue(v) ~= old then any = true; break end
      end
      if any then
        local path = state.pathof(state.NODE[t])
        if not path:find("^%(detached") then found[#found + 1] = path end
      end
    end
  end
  table.sort(found)
  for i = 1, #found do out[#out + 1] = { path = found[i], before = HIDDEN, after = HIDDEN } end
  return out
end

-- The words a plan may name (redactor's): each string but a structure
-- field's, and the part after its last ':', into `set`.
local function planwords(v, key, set)
  if type(v) == "string" then
    if not STRUCTURE[key] then
      set[v] = true
      local tail = kmatch(v, ":([^:]*)$")
      if tail then set[tail] = true end
    end
  elseif type(v) == "table" then
    for k, x in next, v do planwords(x, k, set) end
  end
  return set
end

-- Removes from `want` (word -> true, `left` of them) each word seat's
-- view of table t shows, as `words` finds the words seen (a string key, a
-- scalar of a slot not hidden from it), and stops as soon as none is
-- left. Returns how many are left. `content` as viewof's.
local function unseen(t, seat, hid, root, want, left, content)
  local rec = hid[t]
  for k, v in next, content(t) do
    if want[k] and type(k) == "string" then
      want[k], left = nil, left - 1
      if left == 0 then return 0 end
    end
    if root and k == RNG then
      -- the generator is never seen
    elseif rec and hidden(rec, k, seat) then
      -- nor a hidden slot
    elseif type(v) == "table" then
      left = unseen(v, seat, hid, false, want, left, content)
      if left == 0 then return 0 end
    else
      local w = word(v)
      if w and want[w] then
        want[w], left = nil, left - 1
        if left == 0 then return 0 end
      end
    end
  end
  return left
end

-- Which of the plan's words (`named`) are secret from `seat`: held only
-- by slots hidden from it before or after the step, and seen by it in
-- neither. Only when a word is held by a hidden slot are the words the
-- seat sees looked for (after the step, then before it), and only until
-- every such word is found seen.
local function secretwords(before, ctx, seat, named)
  local hb, ha = before.hiddenw[seat], hiddenwordsof(seat, ctx.hid)
  local secret, left = {}, 0
  for w in next, named do
    if hb[w] or ha[w] then secret[w], left = true, left + 1 end
  end
  if left == 0 then return secret end
  if not REFERENCE then
    left = unseen(state.game(), seat, ctx.hid, true, secret, left, backing)
    if left > 0 then unseen(state.game(), seat, ctx.hidb, true, secret, left, ctx.content) end
    return secret
  end
  for _, read in ipairs({ { hid = ctx.hid }, { hid = ctx.hidb, content = ctx.content } }) do
    local seen = {}
    words(state.game(), seat, read.hid, true, {}, seen, read.content)
    local any = false
    for w in next, secret do
      if seen[w] then secret[w] = nil else any = true end
    end
    if not any then break end
  end
  return secret
end

-- `seat`'s view of the step from snapshot `before` (taken with the seat)
-- to now, with the step's context `ctx`: the hash of its view after, the
-- plan with the words only hidden slots held replaced, and the changes:
-- its view's differences (a slot revealed shows "(hidden)" -> its value),
-- then the tables whose hidden slots changed (hiddenchanges). `named`:
-- the plan's words (planwords).
local function seatstep(before, ctx, seat, plan, named)
  local secret = secretwords(before, ctx, seat, named)
  local changes = hiddenchanges(before, ctx, seat, viewdiff(ctx, seat, state.game(), state.game(), {}, {}))
  -- A plan that names no word secret from the seat is its own redaction (the redactor would copy it unchanged).
  local seen = plan
  if REFERENCE or next(secret) ~= nil then seen = redact(plan, function(w) return secret[w] ~= nil end) end
  return { hash = viewhash(seat, ctx.hid, ctx.above), plan = seen, changes = changes }
end

-- Whether the next perform is one as a seat (performas) whose reply
-- carries each seat's view of the step: only then are views computed (an
-- author's perform in a seated game, and a match's replay, pay for the
-- barrier alone).
local WANTVIEWS = false
local LASTBARRIER   -- the barrier of the last seated perform

-- history.lua's hook around a seated perform: called before the action,
-- it returns the function called after it (before the commit), which
-- returns the barrier and, for a perform as a seat that wants them, keeps
-- each seat's view of the step (LASTVIEWS).
beforestep = function()
  local withviews = WANTVIEWS
  WANTVIEWS = false
  LASTVIEWS = nil
  local before = snapshot(withviews and SEATS or nil)
  return function(plan)
    local hid = declared()
    local mark = barrier(before, hid)
    LASTBARRIER = mark
    if not withviews then return mark end
    if type(plan) == "string" then plan = decode(plan) end
    local ctx, named, views, sent = stepcontext(before, hid), planwords(plan, nil, {}), {}, {}
    for i, seat in ipairs(SEATS) do
      -- A seat that sees alike with one before it, before and after the
      -- step, shares its view: sent as the name of that seat, read once.
      local twin = twinof(SEATS, i, before.hid, hid)
      local view = twin and views[twin] or seatstep(before, ctx, seat, plan, named)
      view.barrier = mark
      views[seat] = view
      sent[seat] = twin and { twin = twin } or view
    end
    LASTVIEWS = sent
    return mark
  end
end

---------------------------------------------------------------- Game's calls
-- seats(): the current game's seats, encoded (an empty list without seats).
function API.seats()
  ops.nogame()
  return encode(SEATS or {})
end

-- performas(name, params, seat, views): `seat` performs the call: refused
-- (a rejection, nothing changed) when the seat may not make it; else as
-- perform, with the step's players' undo barrier ("" when none) and, when
-- `views` is not "0", each seat's view of the step encoded (seat -> {
-- hash, plan, changes, barrier }, or { twin = seat } for a seat whose view
-- is that earlier seat's; "" without) after the plan, then the position. A match's replay asks for no views: it checks hashes only.
function API.performas(name, params, seat, views)
  ops.nogame()
  refuse(name, decode(params), seat)
  WANTVIEWS, LASTBARRIER = views ~= "0", nil
  local hash, tree, plan, c, n, t, l, v = API.perform(name, params)
  local seen = views ~= "0" and encode(LASTVIEWS or {}) or ""
  return hash, tree, plan, LASTBARRIER or "", seen, c, n, t, l, v
end

-- legalas(seat): the legal calls `seat` may make now, encoded.
function API.legalas(seat)
  ops.nogame()
  return encode(legalas(seat))
end

-- legalbyseat(): the legal calls of every seat now, encoded (seat -> its
-- calls): the pack's legal and turn run once for all.
function API.legalbyseat()
  ops.nogame()
  knownseat(SEATS and SEATS[1])
  local set, reason = actors()
  local calls, out = ops.legal(), {}
  for _, seat in ipairs(SEATS) do
    local mine = {}
    if set[seat] then
      for i = 1, #calls do
        local c = calls[i]
        if not refusal(c.name, c.params, seat, set, reason) then mine[#mine + 1] = c end
      end
    end
    out[seat] = mine
  end
  return encode(out)
end

-- refusal(name, params, seat): why `seat` may not make the call ("" when it may).
function API.refusal(name, params, seat)
  ops.nogame()
  knownseat(seat)
  local set, reason = actors()
  return refusal(name, decode(params), seat, set, reason) or ""
end

-- seatview(seat): the seat's view of the state and its hash, encoded {
-- state, hash }. Seat "" is a spectator's: the public view, where a slot
-- `secrets` marks shows only when every seat may see it.
function API.seatview(seat)
  ops.nogame()
  if seat ~= "" or not SEATS then knownseat(seat) end
  local hid = declared()
  return encode({ state = viewof(state.game(), seat, hid, true), hash = viewhash(seat, hid) })
end

-- viewhash(seat): the hash of the seat's view (seat "": the public one),
-- without the view: what its slots hidden and marked tables cost.
function API.viewhash(seat)
  ops.nogame()
  if seat ~= "" or not SEATS then knownseat(seat) end
  return viewhash(seat, declared())
end

-- The secret words of `seat` now: strings only hidden slots hold. The
-- marked tables' hidden words (hiddenwords: every word `words` finds in a
-- hidden slot, and maybe more) rule most strings out; the whole state is
-- walked for the words the seat sees only when a string is one of them.
local function secretnow(seat, hid)
  local candidates, h, s = hiddenwordsof(seat, hid), nil, nil
  return function(w)
    if not candidates[w] then return false end
    if not h then
      h, s = {}, {}
      words(state.game(), seat, hid, true, h, s)
    end
    return h[w] and not s[w]
  end
end

-- The seat's scene: the pack's view with the secret words of its nodes
-- redacted, as a plan's are (a face-down card's node is "card:?1", drawn
-- with its atlas's frame 1); "" without a view.
local function seatscene(seat, hid, scene)
  scene = scene or API.scene()
  if scene == "" then return "" end
  -- The declarations (atlases, grid) are the pack's, the same in every
  -- state: only the nodes are redacted (an atlas naming every card would
  -- otherwise number each card's back by its place in the atlas).
  -- A node that names something hidden shows its atlas's first frame (the
  -- card back): the frame the scene resolved from a name is a number the
  -- redaction cannot see.
  scene = decode(scene)
  local secretword = secretnow(seat, hid)
  local hide, nodes = redactor(secretword), scene.nodes
  for i = 1, #nodes do
    if namessecret(nodes[i], nil, secretword) then
      local node, changed = hide(nodes[i])
      if changed and node.sprite then node.sprite.frame = 1 end
      nodes[i] = node
    end
  end
  return encode(scene)
end

-- seatscene(seat): the seat's scene, encoded ("" when the pack has no view).
-- Seat "" is a spectator's: the public scene, where a slot `secrets` marks
-- shows only when every seat may see it.
function API.seatscene(seat)
  ops.nogame()
  if seat ~= "" or not SEATS then knownseat(seat) end
  return seatscene(seat, declared())
end

-- The current game's seats (nil without), for fuzz.lua's probes.
function M.seatnames() return SEATS end

---------------------------------------------------------------- the no-leak probe
-- The slots hidden from `seat`, grouped by table: { t, keys } for each
-- table with two or more, in a fixed order (paths), so a probe's
-- rearrangement is the same in every process.
local function hiddengroups(seat, hid)
  local groups = {}
  for t, rec in next, hid do
    local keys = {}
    for _, k in ipairs(core.sortedkeys(backing(t))) do
      if hidden(rec, k, seat) then keys[#keys + 1] = k end
    end
    if #keys >= 2 then groups[#groups + 1] = { t = t, keys = keys, path = state.pathof(state.NODE[t]) } end
  end
  table.sort(groups, function(a, b) return a.path < b.path end)
  return groups
end

-- Rotates the values of a group's slots by `by` places (moves, as
-- assignment moves state tables: every slot emptied first).
local function rotate(group, by)
  local t, keys = group.t, group.keys
  local values, n = {}, #keys
  for i = 1, n do values[i] = t[keys[i]] end
  for i = 1, n do t[keys[i]] = nil end
  for i = 1, n do t[keys[i]] = values[(i - 1 + by) % n + 1] end
end

-- What `seat` is shown: its view's hash, the calls it may make and its
-- scene, each encoded.
local function shown(seat)
  local hid = declared()
  return viewhash(seat, hid), encode(legalas(seat)), seatscene(seat, hid, API.scene(true))
end

-- What the seats' probes of one state share (fuzz.lua's leaks: one probe
-- per seat, the state held still between them): the side "as the state
-- is", read once for every seat instead of once a seat. The marks, the
-- actors and the legal calls, the pack's scene (encoded, before any
-- seat's redaction) and, before a `do`, the step run once with every
-- seat's view of it. Each seat's rearranged side is its own, as before.
-- Nil while no probes are under way, and while coverage is collected (a
-- second run of the same rule code counts its lines again there).
local SHARED
-- What a probe of this state computed for the seats after its own whose
-- rearranged state is the very same (alikeafter): seat -> { salt, kind,
-- paths, its three results }, taken by that seat's probe. Only while
-- SHARED is set; never kept for another state.
local ALIKE

-- probeshare(kept) before the seats' probes of a state: what they share
-- starts empty, or is `kept` (what the probes of this very state shared
-- before, nothing written since). probeshared() after them: what they
-- shared (nil when nothing was), closed; its `calls` are the state's
-- legal calls when the probes listed them.
function M.probeshare(kept)
  SHARED = not engine.covered() and (kept or {}) or nil
  ALIKE = SHARED and {} or nil
end

function M.probeshared()
  local shared = SHARED
  SHARED, ALIKE = nil, nil
  return shared
end

-- The marks of `secrets` as the state is (declared's), shared by the probes.
local function marksnow()
  local s = SHARED
  if not s then return declared() end
  if not s.hid then s.hid = declared(); s.above = markedtree(s.hid) end
  return s.hid
end

-- shown(seat), reading the side of the state that no seat changes (its
-- marks, actors, legal calls and scene) from `s` or into it when missing.
-- A seat that sees alike with one shown before it (twinof) is shown the
-- same view hash and scene (both read the seat through `hidden` alone);
-- its calls are its own.
local function shownin(seat, s)
  if not s.hid then s.hid = declared(); s.above = markedtree(s.hid) end
  s.seen = s.seen or {}
  local i = 1
  while SEATS[i] ~= seat do i = i + 1 end
  local twin = twinof(SEATS, i, s.hid)
  local same = twin and s.seen[twin]
  local hash = same and same[1] or viewhash(seat, s.hid, s.above)
  if not s.set then s.set, s.reason = actors() end
  if not s.calls then s.calls = ops.legal() end   -- listed whether or not the seat may act, as legalas does
  local mine = {}
  if s.set[seat] then
    local calls = s.calls
    for i = 1, #calls do
      local c = calls[i]
      if not refusal(c.name, c.params, seat, s.set, s.reason) then mine[#mine + 1] = c end
    end
  end
  if s.scene == nil then s.scene = API.scene(true) end
  local scene = same and same[2] or seatscene(seat, s.hid, s.scene)
  s.seen[seat] = { hash, scene }
  return hash, encode(mine), scene
end

-- shown(seat) as the state is, from what the probes share.
local function shownnow(seat)
  local s = SHARED
  if not s then return shown(seat) end
  return shownin(seat, s)
end

-- The groups of the slots hidden from `seat` as the state is
-- (hiddengroups), from what the probes share.
local function groupsof(seat)
  local s = SHARED
  if not s then return hiddengroups(seat, declared()) end
  s.groups = s.groups or {}
  local groups = s.groups[seat]
  if not groups then groups = hiddengroups(seat, marksnow()); s.groups[seat] = groups end
  return groups
end

-- Whether two seats' groups are the same slots of the same tables, in the same order.
local function samegroups(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    local x, y = a[i].keys, b[i].keys
    if a[i].t ~= b[i].t or #x ~= #y then return false end
    for j = 1, #x do if x[j] ~= y[j] then return false end end
  end
  return true
end

-- The seats after `seat` whose rearranged state is `seat`'s own: their
-- groups are the same, so the same salt moves the same values to the same
-- slots (seats that see alike). Only while the probes share: their probes
-- follow this one, on this very state, with this salt.
local function alikeafter(seat)
  local out = {}
  if not SHARED then return out end
  local mine, after = groupsof(seat), false
  for _, other in ipairs(SEATS) do
    if after and samegroups(mine, groupsof(other)) then out[#out + 1] = other end
    if other == seat then after = true end
  end
  return out
end

-- What the probe of an alike seat computed for `seat` in the rearranged
-- state they share (ALIKE), for the probe of kind `kind` with `salt`; nil
-- when none was kept.
local function takealike(seat, salt, kind)
  local kept = ALIKE and ALIKE[seat]
  if not kept then return nil end
  ALIKE[seat] = nil
  if kept.salt ~= salt or kept.kind ~= kind then return nil end
  return kept
end

-- Rearranges what is hidden from `seat` (the generator reseeded from
-- `salt`, each table's hidden slots rotated), inside the operation under
-- way; returns the paths rearranged.
local function rearrange(seat, salt)
  local groups = groupsof(seat)
  state.setwritable(true, "a leak probe")
  local game = state.game()
  game[RNG] = splitmix.mix(backing(game)[RNG] ~ salt)
  local paths = { "_rng" }
  for i, g in ipairs(groups) do
    rotate(g, 1 + (salt + i) % (#g.keys - 1))
    paths[#paths + 1] = g.path
  end
  state.setwritable(false, "")
  return paths
end

-- One run of a step inside an operation (rolled back by the caller):
-- each of `seats`' views of it (seatstep's) as { its view hash after, the
-- plan encoded, the changes encoded }, by seat.
local function stepviews(seats, name, params)
  local before = snapshot(seats)
  local rec = engine.steps.run(name, params, name, 0)
  local plan = engine.steps.plan(rec, "do")
  local ctx, named, out = stepcontext(before, declared()), planwords(plan, nil, {}), {}
  for i, seat in ipairs(seats) do
    -- A seat that sees alike with one before it, before and after the step, shares its view (as beforestep's).
    local twin = twinof(seats, i, before.hid, ctx.hid)
    if twin then
      out[seat] = out[twin]
    else
      local view = seatstep(before, ctx, seat, plan, named)
      out[seat] = { view.hash, encode(view.plan), encode(view.changes) }
    end
  end
  return out
end

-- The seat's view of one run of a step: its view hash after, the plan
-- and the changes, encoded.
local function stepview(seat, name, params)
  return table.unpack(stepviews({ seat }, name, params)[seat], 1, 3)
end

-- stepview(seat, name, params) from the state as it is, rolled back: from
-- what the probes share, the step run once for every seat.
local function stepviewnow(seat, name, params)
  local s = SHARED
  if not s then
    engine.steps.begin("probe")
    local view, plan, changes = stepview(seat, name, params)
    engine.steps.drop()
    return view, plan, changes
  end
  if not s.steps then
    engine.steps.begin("probe")
    s.steps = stepviews(SEATS, name, params)
    engine.steps.drop()
  end
  return table.unpack(s.steps[seat], 1, 3)
end

-- What `seat` is shown in the state rearranged for it from `salt` (shown's
-- three), rolled back, after the paths rearranged. The seats after it
-- whose rearranged state is the same (alikeafter) are shown that state in
-- the same run: what the state gives every seat (marks, actors, legal
-- calls, scene) is read once, each seat's own (view hash, calls it may
-- make, redacted scene) computed as for it alone and kept for its probe.
-- A seat whose own part fails is not kept: its probe runs its own.
local function shownrearranged(seat, salt)
  local kept = takealike(seat, salt, "leak")
  if kept then return kept.paths, kept[1], kept[2], kept[3] end
  local alike = alikeafter(seat)
  engine.steps.begin("probe")
  local paths = rearrange(seat, salt)
  local view, calls, scene
  if #alike == 0 then
    view, calls, scene = shown(seat)
  else
    local side = {}
    view, calls, scene = shownin(seat, side)
    for _, other in ipairs(alike) do
      local ok, v, c, sc = pcall(shownin, other, side)
      if ok then ALIKE[other] = { salt = salt, kind = "leak", paths = paths, v, c, sc } end
    end
  end
  engine.steps.drop()
  return paths, view, calls, scene
end

-- stepview(seat, name, params) in the state rearranged for `seat` from
-- `salt`, rolled back: the paths rearranged, then true and its three
-- results, or false and the error. The seats after it whose rearranged
-- state is the same (alikeafter) see the step in the same run, each
-- seat's view computed as for it alone (stepviews), kept for its probe;
-- a run that fails keeps nothing (each of them runs its own).
local function steprearranged(seat, name, params, salt)
  local kept = takealike(seat, salt, "step")
  if kept then return kept.paths, true, kept[1], kept[2], kept[3] end
  local seats = alikeafter(seat)
  table.insert(seats, 1, seat)
  engine.steps.begin("probe")
  local paths = rearrange(seat, salt)
  local ok, views = pcall(stepviews, seats, name, params)
  engine.steps.drop()
  if not ok then return paths, false, views end
  for i = 2, #seats do
    ALIKE[seats[i]] = { salt = salt, kind = "step", paths = paths, table.unpack(views[seats[i]], 1, 3) }
  end
  return paths, true, table.unpack(views[seat], 1, 3)
end

---------------------------------------------------------------- where a leak came from
-- Run only once a probe found a leak: the file:line of the pack's code
-- that put the secret into what the seat is shown. Each compares what the
-- seat was shown in the state as it is and in the rearranged one.

-- The file:line of the rule code `level` calls up (kernel frames skipped).
local function site(level) return core.where(level + 1):match("^(.*): $") end

local function isrejection(err)
  return type(err) == "table" and getmetatable(err) == core.C.errormeta and err.kind == "rejected"
end

-- f() in the state as it is, then in the one rearranged for `seat` from
-- `salt`, both rolled back: its two results (nil for a run the rules refused).
local function twice(seat, salt, f)
  local out = {}
  for run = 1, 2 do
    engine.steps.begin("probe")
    if run == 2 then rearrange(seat, salt) end
    local ok, result = pcall(f)
    engine.steps.drop()
    if not ok and not isrejection(result) then error(result, 0) end
    out[run] = ok and result or nil
  end
  return out[1], out[2]
end

-- The keys to the first place two decoded values differ (sorted key
-- order), or nil when they are the same.
local function firstdiff(a, b, keys)
  if type(a) ~= "table" or type(b) ~= "table" then
    if a ~= b then return keys end
    return nil
  end
  local both = {}
  for k in next, a do both[k] = true end
  for k in next, b do both[k] = true end
  for _, k in ipairs(core.sortedkeys(both)) do
    keys[#keys + 1] = k
    if firstdiff(a[k], b[k], keys) then return keys end
    keys[#keys] = nil
  end
  return nil
end

-- The scene's leak: the add{...} of the first node that differs.
local function sceneline(seat, salt)
  local function scene()
    local encoded = seatscene(seat, declared())
    return { nodes = encoded ~= "" and decode(encoded).nodes or {}, sites = view.scenesites() or {} }
  end
  local s0, s1 = twice(seat, salt, scene)
  local d = s0 and s1 and firstdiff(s0.nodes, s1.nodes, {})
  return d and (s1.sites[d[1]] or s0.sites[d[1]]) or nil
end

-- The calls' leak: the emit of the first call offered in one state and
-- not the other (each action's emit recording its caller's line).
local function callsline(seat, salt)
  local function offered()
    local lines, saved = {}, {}
    for name, def in next, pack().actions do
      local emit = def.emit
      if emit then
        saved[def] = emit
        def.emit = function(params, kind)
          lines[#lines + 1] = { name = name, params = type(params) == "table" and state.plain(params) or params, line = site(2) }
          return emit(params, kind)
        end
      end
    end
    local ok, err = pcall(legalas, seat)
    for def, emit in next, saved do def.emit = emit end
    if not ok then error(err, 0) end
    return lines
  end
  local c0, c1 = twice(seat, salt, offered)
  if not (c0 and c1) then return nil end
  for i = 1, math.max(#c0, #c1) do
    local x, y = c0[i], c1[i]
    if not (x and y and x.name == y.name and encode(x.params) == encode(y.params)) then return (y or x).line end
  end
  return nil
end

-- The plan's leak: the source of the first leaf of the plan that differs
-- (anim.setleafsources has the builders note where each leaf was made).
local function planline(seat, name, params, salt)
  local before = anim.leafsources()
  anim.setleafsources(true)
  local ok, p0, p1 = pcall(twice, seat, salt, function()
    local _, plan = stepview(seat, name, params)
    return decode(plan)
  end)
  anim.setleafsources(before)
  if not ok then error(p0, 0) end
  local d = p0 and p1 and firstdiff(p0, p1, {})
  if not d then return nil end
  local src
  local a, b = p0, p1
  for i = 1, #d do
    src = (type(b) == "table" and b.src) or (type(a) == "table" and a.src) or src
    a, b = type(a) == "table" and a[d[i]] or nil, type(b) == "table" and b[d[i]] or nil
  end
  return src
end

-- The changes' leak: the write of the rule code that changed the first
-- change that differs (every table holding hidden slots, and the tables
-- in them, recording the line of each write made to them).
local function changesline(seat, name, params, salt)
  local function written()
    local writes, saved = {}, {}
    local function wrap(m)
      if saved[m] then return end
      local write = m.__newindex
      saved[m] = write
      m.__newindex = function(p, k, v)
        writes[#writes + 1] = { path = state.pathof(m, k), line = site(2) }
        return write(p, k, v)
      end
      for _, v in next, m.b do if isnode(v) then wrap(state.NODE[v]) end end
    end
    for t in next, declared() do wrap(state.NODE[t]) end
    local ok, err, _, changes = pcall(stepview, seat, name, params)
    for m, write in next, saved do m.__newindex = write end
    if not ok then error(err, 0) end
    return { writes = writes, changes = decode(changes) }
  end
  local w0, w1 = twice(seat, salt, written)
  local d = w0 and w1 and firstdiff(w0.changes, w1.changes, {})
  if not d then return nil end
  local change = w1.changes[d[1]] or w0.changes[d[1]]
  local path = change.path
  for _, run in ipairs({ w1, w0 }) do
    for _, w in ipairs(run.writes) do
      local rest = w.path:sub(#path + 1)
      if w.path:sub(1, #path) == path and (rest == "" or rest:find("^[.%[]")) then return w.line end
    end
  end
  return nil
end

-- leakprobe(seat, salt): rearranges what is hidden from `seat` (the
-- generator reseeded, each table's hidden slots rotated) and compares what
-- the seat is shown with what it was shown before; the state is rolled
-- back either way. "" when nothing changed, else the finding encoded
-- { seat, what = "view", "calls" or "scene", slots = the rearranged
-- paths, line = the file:line that put the secret there, when found }.
function API.leakprobe(seat, salt)
  ops.nogame()
  knownseat(seat)
  salt = math.tointeger(tonumber(salt)) or 1
  local view0, calls0, scene0 = shownnow(seat)
  local paths, view1, calls1, scene1 = shownrearranged(seat, salt)
  local what = view1 ~= view0 and "view" or calls1 ~= calls0 and "calls" or scene1 ~= scene0 and "scene" or nil
  if not what then return "" end
  local line = what == "calls" and callsline(seat, salt) or what == "scene" and sceneline(seat, salt) or nil
  return encode({ seat = seat, what = what, slots = paths, line = line })
end

-- stepprobe(seat, name, params, salt): the step's side of the no-leak
-- property. The call runs twice, as it is and after what is hidden from
-- `seat` was rearranged (both rolled back); when the seat cannot tell the
-- two states after apart, it must not tell the two steps apart either:
-- their plans and their changes, as it sees them, must be the same. ""
-- when they are (or a run was rejected), else the finding encoded
-- { seat, what = "plan" or "changes", slots, line } (as leakprobe's).
function API.stepprobe(seat, name, params, salt)
  ops.nogame()
  knownseat(seat)
  salt = math.tointeger(tonumber(salt)) or 1
  params = decode(params)
  local view0, plan0, changes0 = stepviewnow(seat, name, params)
  local paths, ok, view1, plan1, changes1 = steprearranged(seat, name, params, salt)
  if not ok then
    if type(view1) == "table" and getmetatable(view1) == core.C.errormeta and view1.kind == "rejected" then return "" end
    error(view1, 0)
  end
  if view1 ~= view0 then return "" end
  local what = plan1 ~= plan0 and "plan" or changes1 ~= changes0 and "changes" or nil
  if not what then return "" end
  local line
  if what == "plan" then line = planline(seat, name, params, salt) else line = changesline(seat, name, params, salt) end
  return encode({ seat = seat, what = what, slots = paths, line = line })
end

packload.provide("finishseats", M.finishseats)
engine.provide("seatgame", M.seatgame)

return M
