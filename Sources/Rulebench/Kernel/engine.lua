-- The engine, in Lua: packs, actions, perform, undo, legal moves, invariants
-- and goals.
--
-- Every operation Swift starts is two calls: the operation itself, run as a
-- user call under the instruction budget and the memory cap, and then either
-- `commit` or `abort`, run as engine calls. Any error inside the operation
-- (a rejection, a script error, a budget error, an invariant) unwinds to
-- Swift's protected call; `abort` then rolls the journal back to where the
-- operation began. Committing separately means a budget that runs out late
-- can never leave bookkeeping half done.

local K = ...
local API = K.API
local type, next, error, ipairs, tostring, tointeger = type, next, error, ipairs, tostring, math.tointeger
local math_type = math.type
local sort, concat = table.sort, table.concat

-- The state's functions, captured once: the hot path below calls them for
-- every action, and an upvalue costs less than a field of K.
local setwritable, mark, serial, hashof = K.setwritable, K.mark, K.serial, K.hash
local rollback, revert, truncate, plain, textcopy = K.rollback, K.revert, K.truncate, K.plain, K.textcopy
local decode, encode = K.decode, K.encode
local utf8len = utf8.len

local LEGAL               -- the list legal() is filling
local SITES               -- emitted calls carry their site (see K.emitsites)
local emitsite, rulecover = K.C.emitsite, K.C.rulecover
-- Coverage is collected: every call of rule code is bracketed by
-- rulecover(true) and rulecover(false), so the C line hook runs only in
-- rule code (luashim.c, rb_line_mask). A new place that calls rule code
-- brackets it too, or its lines go uncounted (CoverageTests compares the
-- bracketed counts with a hook on everywhere).
local COVER = false
function K.covering(on) COVER = on end
-- For the kernel's other files (a module's top level runs from sandbox.lua).
function K.rulecover(open) if COVER then rulecover(open) end end
-- Invariants run and plans are built (off: `explore --no-invariants`).
local CHECKS = true
local PACKS = {}          -- id -> pack
local PACK                -- the pack of the current game
local ACTIONS             -- PACK.actions
local GAME                -- the root state table of the current game (K.game)
local RECS = {}           -- records of performed actions, oldest first
local PENDING             -- the operation between its call and commit/abort
local EMPTY = {}          -- the subaction list of an action that queued none (never written)

-- What was running when an error unwound: the action's path and the phase.
local CONTEXT_ACTION, CONTEXT_PHASE = "", ""

local function context(action, phase)
  CONTEXT_ACTION, CONTEXT_PHASE = action, phase
end

-- One record reused by every operation: the operation's kind, where its
-- journal began, and (for perform and undo) the action record.
local OPERATION = { op = nil, mark = 0, rec = nil }

-- The numbers tostring gives objects (identity.lua) go as far as the
-- history: those the last record's apply (or setup) handed out are kept,
-- any after them (a read-only call's, an undone or failed action's) are
-- forgotten. A record keeps its count in `kept` (see run).
local ids = K.ids
local SETUPIDS = 0
local function settleids()
  if ids.n == ids.base then return end     -- the rules numbered nothing
  local last = RECS[#RECS]
  ids.forget(last and last.kept or SETUPIDS)
end

local function begin(op)
  if PENDING then rollback(PENDING.mark) end
  PENDING = OPERATION
  OPERATION.op, OPERATION.mark, OPERATION.rec = op, mark(), nil
  CONTEXT_ACTION, CONTEXT_PHASE = "", op
end

---------------------------------------------------------------- the rulebench module
local GOLD = 0x9e3779b97f4a7c15
local RNG = "_rng"
local R = {}

local function nextbits(game)
  if game ~= K.game then
    error(K.where(2) .. "pass the game (the root state table) to the random generator", 0)
  end
  local s = K.backing(game)[RNG]
  if math_type(s) ~= "integer" then
    error(K.where(2) .. "the random generator's state (game." .. RNG .. ") is missing or damaged", 0)
  end
  s = s + GOLD
  game[RNG] = s
  return K.mix(s)
end

-- random(game) -> float in [0, 1); random(game, n) -> 1..n; random(game, m, n) -> m..n
function R.random(game, m, n)
  local bits = nextbits(game)
  if m == nil then return (bits >> 11) * 0x1p-53 end
  if n == nil then m, n = 1, m end
  m, n = tointeger(m), tointeger(n)
  if not m or not n then error(K.where(2) .. "random: bounds must be whole numbers", 0) end
  if m > n then error(K.where(2) .. "random: empty interval [" .. m .. ", " .. n .. "]", 0) end
  local range = n - m + 1
  if range <= 0 or range > (1 << 53) then error(K.where(2) .. "random: interval too large", 0) end
  local limit = (1 << 53) - (1 << 53) % range
  local x = bits >> 11
  while x >= limit do x = nextbits(game) >> 11 end
  return m + x % range
end

-- shuffle(game, list): Fisher-Yates with the engine's generator; returns list.
function R.shuffle(game, list)
  for i = #list, 2, -1 do
    local j = R.random(game, 1, i)
    if i ~= j then list[i], list[j] = list[j], list[i] end
  end
  return list
end

-- copy(value): a plain deep copy, to store a second copy of a state table.
function R.copy(v) return K.plain(v) end

K.rulebench = R

---------------------------------------------------------------- loading packs
local MANIFEST = { name = "string", version = "string", extends = "string", options = "table",
                   setup = "function", invariants = "table", render = "function", description = "string",
                   goals = "table", opening = "function", view = "table|function" }
local ACTION = { params = "table", legal = "function", check = "function", apply = "function",
                 undo = "function", animate = "function", sound = "string|function",
                 subanimations = "string", stagger = "number", checkpoint = "boolean", description = "string",
                 internal = "boolean" }
local PARAM_TYPES = { string = true, integer = true, number = true, boolean = true, table = true, any = true }

-- A load error in `file` (at `line`, when known).
local function loadfail(file, message, line) K.fail("load", message, { file = file, line = line }) end

-- The first line of `source` that assigns `field` (`field = ...` at the
-- start of a line), so a load error about a field's value can point at it.
-- Only called on the error path.
-- The string library itself, not the guarded copy rules see through
-- methods (sandbox.lua): this search is the kernel's, not the rule's, and
-- must not spend the rule's instruction budget (on a large pack.lua it
-- would, and the error would become "budget exceeded").
local function fieldline(source, field)
  if type(source) ~= "string" then return nil end
  field = string.gsub(field, "%p", "%%%0")     -- a key is text to find, not a pattern
  local assigned, quoted = "^%s*" .. field .. "%s*=", "^%s*%[%s*[\"']" .. field .. "[\"']%s*%]%s*="
  local n = 1
  for line in string.gmatch(source .. "\n", "([^\n]*)\n") do
    if string.find(line, assigned) or string.find(line, quoted) then return n end
    n = n + 1
  end
  return nil
end

local function checkfields(t, spec, file, what, source)
  for k, v in next, t do
    local want = spec[k]
    if not want then
      loadfail(file, "unknown field '" .. tostring(k) .. "' in " .. what .. K.suggest(tostring(k), K.sortedkeys(spec)),
        fieldline(source, tostring(k)))
    end
    local got = type(v)
    if not (want == got or want:find("|", 1, true) and ("|" .. want .. "|"):find("|" .. got .. "|", 1, true)) then
      loadfail(file, "field '" .. k .. "' of " .. what .. " must be a " .. want:gsub("|", " or ") .. ", not a " .. got,
        fieldline(source, k))
    end
  end
end

-- Compiles a file of a pack. The compiled chunk is kept: reloading a pack
-- (see API.reloadpack) runs its chunks again without compiling them again.
local function compile(pack, chunkname, source)
  local chunk, message = load(source, "@" .. chunkname, "t", pack.env)
  if not chunk then
    -- A syntax error starts with "file:line: "; a refused binary chunk names no file.
    local file, line, text = message:match("^(.-):(%d+): (.*)$")
    if file then loadfail(file, text, tonumber(line)) end
    loadfail(chunkname, message)
  end
  return chunk
end

-- Runs a compiled chunk of the pack in the pack's current globals.
local function run_chunk(pack, chunkname, chunk)
  K.debug.setupvalue(chunk, 1, pack.env)     -- a load's only upvalue is _ENV
  context(chunkname, "loading")
  K.setwritable(false, "loading " .. chunkname)
  if not COVER then return chunk() end
  rulecover(true)
  local result = chunk()
  rulecover(false)
  return result
end

-- Runs pack.lua and checks the manifest it returns.
-- A goal is a function, or a table { holds = fn, estimate = fn, dead_end = fn }
-- (the last two optional, for `rulebench solve`: Kernel/solve.lua).
local GOAL = { holds = true, estimate = true, dead_end = true }
local function checkgoal(name, goal, chunkname, source)
  for k, f in next, goal do
    if not GOAL[k] or type(f) ~= "function" then
      loadfail(chunkname, "goal '" .. name .. "' is a table of functions: holds (required), estimate and dead_end (optional); "
        .. K.show(k) .. " is not one of them", fieldline(source, name))
    end
  end
  if not goal.holds then
    loadfail(chunkname, "goal '" .. name .. "' needs holds = function(game) return true or false end", fieldline(source, name))
  end
end

local function definemanifest(pack)
  local chunkname = pack.file
  local manifest = run_chunk(pack, chunkname, pack.manifestchunk)
  if type(manifest) ~= "table" then
    loadfail(chunkname, "pack.lua must return a table, not " .. (manifest == nil and "nothing" or "a " .. type(manifest)))
  end
  checkfields(manifest, MANIFEST, chunkname, "the pack", pack.source)
  if type(manifest.name) ~= "string" then loadfail(chunkname, "the pack needs a 'name'") end
  for _, field in ipairs({ "invariants", "goals" }) do
    for name, f in next, manifest[field] or {} do
      if type(name) == "string" and field == "goals" and type(f) == "table" then
        checkgoal(name, f, chunkname, pack.source)
      elseif type(name) ~= "string" or type(f) ~= "function" then
        loadfail(chunkname, "'" .. field .. "' maps names to functions (entry " .. K.show(name) .. " is not)",
          fieldline(pack.source, type(name) == "string" and name or field))
      end
    end
  end
  pack.manifest = manifest
  return manifest
end

function API.definepack(id, dir, chunkname, source)
  local pack = { id = id, dir = dir, file = chunkname, modules = {}, compiled = {}, loading = true,
                 own = {}, actionfiles = {}, source = source }
  pack.env = K.newenv(pack)
  PACKS[id] = pack
  pack.manifestchunk = compile(pack, chunkname, source)
  local manifest = definemanifest(pack)
  return K.encode({ name = manifest.name, version = manifest.version, extends = manifest.extends })
end

-- Checks a `params` declaration and compiles it once, so that running an
-- action never parses it: { name -> base type } and the required names.
local function compileparams(spec, file, source)
  local types, required, names = {}, {}, {}
  for k, v in next, spec do
    local base = type(v) == "string" and v:gsub("%?$", "")
    if type(k) ~= "string" or not base or not PARAM_TYPES[base] then
      loadfail(file, "params." .. tostring(k) .. " must be one of string, integer, number, boolean, table, any (add ? for optional), not " .. K.show(v),
        fieldline(source, tostring(k)) or fieldline(source, "params"))
    end
    types[k] = base
    if v:sub(-1) ~= "?" then required[#required + 1] = k end
  end
  sort(required)
  return { types = types, required = required }
end

-- Runs an action file and checks the action it returns.
-- Raises the error for emitted params that JSON text cannot carry exactly
-- (histories and findings save params as JSON, and `replay` must perform
-- the very same call): a string that is not UTF-8, NaN or an infinity, a
-- function, a key that is not a string or an integer, a param not named by
-- a string. Names the first such param in key order, at the line of the
-- rule's emit (the caller's caller).
local function nottext(params)
  local copy = plain(params)
  for _, k in ipairs(K.sortedkeys(copy)) do
    local name, bad, what = "a param name", nil, nil
    if type(k) ~= "string" then
      bad, what = k, type(k) == "number" and "the position " .. K.show(k) or "a " .. type(k) .. " key"
    else
      _, bad, what = textcopy({ [k] = true })
      if not what then _, bad, what = textcopy(copy[k]); name = "param '" .. k .. "'" end
    end
    if type(bad) == "string" then
      error(K.where(3) .. "emit: " .. name .. " holds a string that is not UTF-8 text (" .. what
        .. "); params are saved as JSON text: keep bytes as a list of numbers (string.byte)", 0)
    elseif what and type(k) ~= "string" then
      error(K.where(3) .. "emit: params are named by strings, not by " .. what
        .. " (a saved history names each param): write emit({ name = value }), a list inside one param", 0)
    elseif what then
      error(K.where(3) .. "emit: " .. name .. " holds " .. what .. ", which a saved history (JSON text) cannot carry"
        .. " exactly; emit finite numbers, strings, booleans and tables keyed by strings or integers", 0)
    end
  end
  return copy
end

-- The site of a kind the rules named (emit's second argument): a hash of
-- the action's name and the kind (FNV-1a, shifted to stay a non-negative
-- integer like emitsite's), so the same name is the same kind wherever it
-- is emitted from, and no address or folder reaches it.
local function namedsite(action, kind)
  local h = -3750763034362895579   -- the FNV-1a 64-bit offset basis
  local text = action .. "\0" .. kind
  for i = 1, #text do h = (h ~ text:byte(i)) * 0x100000001b3 end
  return h >> 1
end

local function defineaction(pack, name, chunkname, chunk, source)
  local def = run_chunk(pack, chunkname, chunk)
  if type(def) ~= "table" then
    loadfail(chunkname, "an action file must return a table, not " .. (def == nil and "nothing" or "a " .. type(def)))
  end
  checkfields(def, ACTION, chunkname, "the action", source)
  if type(def.apply) ~= "function" then loadfail(chunkname, "the action needs an 'apply' function") end
  if type(def.sound) == "string" and not utf8len(def.sound) then
    loadfail(chunkname, "sound must be a sound name in UTF-8 text")
  end
  local mode = def.subanimations or "parallel"
  if mode ~= "parallel" and mode ~= "sequence" and mode ~= "stagger" then
    loadfail(chunkname, "subanimations must be \"parallel\", \"sequence\" or \"stagger\", not " .. K.show(mode),
      fieldline(source, "subanimations"))
  end
  local step = def.stagger
  if step ~= nil then
    if mode ~= "stagger" then
      loadfail(chunkname, "stagger (seconds between subactions' starts) needs subanimations = \"stagger\"",
        fieldline(source, "stagger"))
    end
    if type(step) ~= "number" or step ~= step or step < 0 or step > K.PLAN_SECONDS then
      loadfail(chunkname, "stagger must be a finite number of seconds, from 0 to 1000000", fieldline(source, "stagger"))
    end
  end
  local copy = {}
  for k, v in next, def do copy[k] = v end
  copy.name, copy.file = name, chunkname
  if def.params then copy.spec = compileparams(def.params, chunkname, source) end
  -- Phase names for read-only errors, built once rather than per run.
  copy.checkphase = "check of '" .. name .. "'"
  copy.mode = mode
  -- The step between staggered subactions, sent with the plan nodes of the
  -- action that have subactions (nil, so absent, for the other modes).
  copy.step = mode == "stagger" and (step or 0.1) + 0.0 or nil
  copy.animsrc = K.defined(def.animate)
  -- One emit function per action, reused by every legal enumeration.
  -- emit(params, kind): `kind`, when given, names the guided search's kind
  -- of the call (see namedsite); without it the kind is the emitting line.
  local kinds = {}
  copy.emit = function(params, kind)
    if type(params) ~= "table" then error(K.where(2) .. "emit expects a param table", 0) end
    if kind ~= nil and type(kind) ~= "string" then
      error(K.where(2) .. "emit: the kind (second argument) must be a string naming the kind of move, not a "
        .. type(kind), 0)
    end
    local out = LEGAL
    if not out then error(K.where(2) .. "emit can only be called while legal runs", 0) end
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
  pack.own[name] = copy
end

function API.addaction(id, name, chunkname, source)
  local pack = PACKS[id]
  local chunk = compile(pack, chunkname, source)
  pack.actionfiles[#pack.actionfiles + 1] = { name = name, chunkname = chunkname, chunk = chunk, source = source }
  defineaction(pack, name, chunkname, chunk, source)
end

-- Links a pack to its base before its action files load, so their
-- top-level `require` can reach the base pack's modules.
function API.linkbase(id, baseid)
  PACKS[id].base = PACKS[baseid]
end

-- A pack's `options`: `name = default` (the default's type is the
-- option's type), or `name = { type = "T", default = v, description = "..." }`
-- (T one of the param types; an option with no default passes nil to setup
-- when not given). Returns the defaults setup sees and name -> type.
local OPTIONSPEC = { type = true, default = true, description = true }
local function isoptionspec(v)
  if type(v) ~= "table" or type(v.type) ~= "string" then return false end
  for k in next, v do if not OPTIONSPEC[k] then return false end end
  return true
end

local function compileoptions(options, file, source)
  local defaults, types = {}, {}
  for name, v in next, options do
    if type(name) ~= "string" then loadfail(file, "options are named by strings, not " .. K.show(name), fieldline(source, "options")) end
    if isoptionspec(v) then
      local base = v.type:gsub("%?$", "")
      if not PARAM_TYPES[base] then
        loadfail(file, "options." .. name .. ".type must be one of string, integer, number, boolean, table, any, not " .. K.show(v.type),
          fieldline(source, name))
      end
      local d = v.default
      if d ~= nil and base ~= "any" and type(d) ~= base and not (base == "integer" and math_type(d) == "integer") then
        loadfail(file, "options." .. name .. ".default must be " .. base .. ", not " .. K.show(d), fieldline(source, name))
      end
      types[name], defaults[name] = base, d
    else
      local t = type(v)
      types[name] = t == "number" and (math_type(v) == "integer" and "integer" or "number") or t
      defaults[name] = v
    end
  end
  return defaults, types
end

local function merged(base, own)
  local out = {}
  for k, v in next, base or {} do out[k] = v end
  for k, v in next, own or {} do out[k] = v end
  return out
end

local function describe(pack)
  local actions = {}
  for name, def in next, pack.actions do
    local params = {}
    for k, v in next, def.params or {} do params[k] = v end
    actions[name] = { params = params, file = def.file, legal = def.legal ~= nil, check = def.check ~= nil,
                      undo = def.undo ~= nil, animate = def.animate ~= nil, checkpoint = def.checkpoint or false,
                      declared = def.params ~= nil, description = def.description, internal = def.internal or false }
  end
  local invariants = {}
  for i, inv in ipairs(pack.invariantlist) do invariants[i] = inv.name end
  return K.encode({ name = pack.name, version = pack.version, actions = actions, options = pack.options,
                    optiontypes = pack.optiontypes, goals = K.sortedkeys(pack.goals),
                    invariants = invariants, setup = pack.setup ~= nil, render = pack.render ~= nil,
                    description = pack.manifest.description })
end

-- Merges a pack with its base; returns nothing (see API.finishpack).
local function finish(id, baseid)
  local pack = PACKS[id]
  local base = baseid ~= "" and PACKS[baseid] or nil
  local m = pack.manifest
  pack.base = base
  pack.name, pack.version = m.name, m.version or (base and base.version) or "0"
  pack.actions = merged(base and base.actions, pack.own)
  pack.invariants = merged(base and base.invariants, m.invariants)
  local defaults, types = compileoptions(m.options or {}, pack.file, pack.source)
  pack.options = merged(base and base.options, defaults)
  pack.optiontypes = merged(base and base.optiontypes, types)
  pack.goals = merged(base and base.goals, m.goals)
  pack.setup = m.setup or (base and base.setup)
  pack.opening = m.opening or (base and base.opening)
  pack.render = m.render or (base and base.render)
  pack.actionnames = K.sortedkeys(pack.actions)
  -- The actions a player may perform: legal() lists only these; an
  -- internal action runs only as a subaction.
  pack.playernames = {}
  for _, name in ipairs(pack.actionnames) do
    if not pack.actions[name].internal then pack.playernames[#pack.playernames + 1] = name end
  end
  pack.invariantlist = {}
  for _, name in ipairs(K.sortedkeys(pack.invariants)) do
    pack.invariantlist[#pack.invariantlist + 1] = { name = name, fn = pack.invariants[name], label = "invariant " .. name }
  end
  pack.loading = false
  ids.loaded()   -- what loading numbered keeps its number in every game
  return pack
end

function API.finishpack(id, baseid)
  return describe(finish(id, baseid))
end

-- Loads a pack again from its compiled chunks, in the order it first loaded:
-- new globals, no modules, every file run again. Whatever a pack keeps
-- outside the game state (module-level tables, upvalues) starts afresh, as
-- in a new Lua state, for a fraction of the cost of compiling it again.
local function reload(pack)
  pack.env = K.newenv(pack)
  pack.modules, pack.own, pack.loading = {}, {}, true
  definemanifest(pack)
  if pack.base then reload(pack.base) end
  for _, f in ipairs(pack.actionfiles) do defineaction(pack, f.name, f.chunkname, f.chunk, f.source) end
  finish(pack.id, pack.base and pack.base.id or "")
end

function API.reloadpack(id)
  PACK = nil
  ids.forget(0)    -- numbered afresh, as in a new Lua state
  reload(PACKS[id])
  return ""
end

---------------------------------------------------------------- running actions
-- The first param that does not fit the declaration, in key order (so the
-- message does not depend on table order), raised as a "params" failure
-- naming the param and the problem. Only called once a problem was seen.
local function paramfault(def, params, path)
  local types = def.spec.types
  for _, k in ipairs(K.sortedkeys(params)) do
    local base, v = types[k], params[k]
    if not base then
      local names = K.sortedkeys(def.params)
      K.fail("params", "'" .. path .. "' has no param '" .. tostring(k) .. "'" .. K.suggest(tostring(k), names)
        .. " (declared: " .. concat(names, ", ") .. ")", { action = path, param = tostring(k), problem = "undeclared" })
    end
    if not (base == "any" or type(v) == base or (base == "integer" and math_type(v) == "integer")) then
      K.fail("params", "param '" .. k .. "' of '" .. path .. "' must be " .. base .. ", not " .. K.show(v),
        { action = path, param = k, problem = "type" })
    end
  end
end

local function checkparams(def, params, path)
  if type(params) ~= "table" then K.fail("params", "params of '" .. path .. "' must be a table", { action = path }) end
  local spec = def.spec
  if not spec then return end
  local types = spec.types
  for k, v in next, params do
    local base = types[k]
    if not (base == "any" or type(v) == base or (base == "integer" and math_type(v) == "integer")) then
      paramfault(def, params, path)
    end
  end
  local required = spec.required
  for i = 1, #required do
    local k = required[i]
    if params[k] == nil then
      K.fail("params", "'" .. path .. "' needs param '" .. k .. "' (" .. def.params[k] .. ")",
        { action = path, param = k, problem = "missing" })
    end
  end
end

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
  if getmetatable(e) ~= K.C.errormeta then error(e, 0) end
  return encode({ message = e.message, param = e.param, problem = e.problem })
end

-- The options of act:sub: only `delay`, a finite number of seconds >= 0.
local function suboptions(options)
  if type(options) ~= "table" then error(K.where(3) .. "act:sub: options must be a table such as { delay = 0.1 }", 0) end
  for k in next, options do
    if k ~= "delay" then
      error(K.where(3) .. "act:sub: unknown option " .. K.show(k) .. " (the options are: delay)", 0)
    end
  end
  local delay = options.delay
  if delay ~= nil and (type(delay) ~= "number" or delay ~= delay or delay < 0 or delay > K.PLAN_SECONDS) then
    error(K.where(3) .. "act:sub: delay must be a finite number of seconds, from 0 to 1000000", 0)
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
  if self.closed then error(K.where(2) .. "act:sub can only be called while apply runs", 0) end
  if type(name) ~= "string" or not ACTIONS[name] then
    error(K.where(2) .. "unknown subaction " .. K.show(name) .. K.suggest(tostring(name), K.sortedkeys(ACTIONS)), 0)
  end
  if params ~= nil and type(params) ~= "table" then error(K.where(2) .. "act:sub: params must be a table", 0) end
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

-- Runs an action and then its queued subactions; returns its record:
-- name, def, params (as given), a (the copy the rule sees), subs, path,
-- serial0 (tables created after it are new), s and e (its journal span).
local function run(name, params, path, depth)
  if depth > 64 then K.fail("error", "subactions nested more than 64 deep", { action = path }) end
  local def = ACTIONS[name]
  if not def then
    K.fail("unknown", "unknown action '" .. tostring(name) .. "'" .. K.suggest(tostring(name), K.sortedkeys(ACTIONS)), { action = path })
  end
  if depth == 0 and def.internal then
    K.fail("rejected", "'" .. name .. "' is an internal action: it runs only as part of another action (act:sub), "
      .. "never on its own", { action = path })
  end
  if def.spec or type(params) ~= "table" then checkparams(def, params, path) end
  local a = plain(params)
  local rec = { name = name, def = def, params = params, a = a, subs = EMPTY, path = path, serial0 = serial() }
  local check = def.check
  if check then
    CONTEXT_ACTION, CONTEXT_PHASE = path, "check"
    setwritable(false, def.checkphase)
    if COVER then rulecover(true) end
    local reason = check(GAME, a)
    if COVER then rulecover(false) end
    if reason ~= nil and reason ~= false then
      if type(reason) ~= "string" then
        K.fail("error", "check must return nil or a reason string, not a " .. type(reason), { action = path, fn = check })
      end
      K.fail("rejected", reason, { action = path })
    end
  end
  local act = setmetatable({ name = name }, ACT)
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
      subs[i] = run(q.name, q.params, path .. " > " .. q.name, depth + 1)
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
      local why = ok == false and (message ~= nil and K.tostring(message) or "it returned false")
        or ("it returned " .. K.show(ok) .. " (an invariant returns true, or false and a message)")
      first = first or inv
      lines = lines or {}
      lines[#lines + 1] = "invariant '" .. inv.name .. "' failed: " .. why:gsub("\n", " ")
    end
  end
  if COVER then rulecover(false) end
  if first then
    K.fail("invariant", concat(lines, "\n"), { invariant = first.name, fn = first.fn })
  end
end

-- Whether goal `name` of the pack holds now. A goal runs as an invariant
-- does, with the state read-only, and answers true or false; anything
-- else is the rule's mistake, reported with the goal's file and line.
local function goalholds(name)
  local goals = PACK.goals
  local fn = goals[name]
  if not fn then
    local names = K.sortedkeys(goals)
    K.fail("unknown", "unknown goal '" .. tostring(name) .. "'" .. K.suggest(tostring(name), names)
      .. (#names > 0 and " (goals: " .. concat(names, ", ") .. ")"
          or " (the pack declares no goals: add goals = { name = function(game) return ... end } to pack.lua)"))
  end
  if type(fn) == "table" then fn = fn.holds end
  setwritable(false, "a goal")
  CONTEXT_ACTION = "goal '" .. name .. "'"
  CONTEXT_PHASE = CONTEXT_ACTION
  if COVER then rulecover(true) end
  local holds = fn(GAME)
  if COVER then rulecover(false) end
  if holds ~= true and holds ~= false then
    K.fail("error", "goal '" .. name .. "' returned " .. K.show(holds) .. " (a goal returns true or false)", { fn = fn })
  end
  return holds
end

local function treeof(rec)
  local node = { name = rec.name, params = rec.params }
  local subs = rec.subs
  if subs ~= EMPTY then
    local out = {}
    for i = 1, #subs do out[i] = treeof(subs[i]) end
    node.subs = out
  end
  return node
end

local checkplan = K.checkplan

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
      K.fail("error", "sound must return a sound name or nil", { action = rec.path, fn = def.sound })
    end
    if sound and not utf8len(sound) then
      K.fail("error", "sound returned a name that is not UTF-8 text", { action = rec.path, fn = def.sound })
    end
  end
  local node = { action = rec.name, mode = def.mode, sound = sound }
  local animate = def.animate
  if animate then
    CONTEXT_ACTION, CONTEXT_PHASE = rec.path, "animate"
    setwritable(false, "animate")
    local src = def.animsrc
    node.src = src
    if COVER then rulecover(true) end
    local plan = animate(K.anim, GAME, rec.a, direction)
    if COVER then rulecover(false) end
    if plan ~= nil then node.own = checkplan(plan, src) end
  end
  local subs = rec.subs
  if subs ~= EMPTY then
    local out = {}
    for i = 1, #subs do out[i] = planof(subs[i], direction) end
    -- How the subactions are timed: set only when the action staggers or
    -- delays them, so the nodes of other actions carry nothing more.
    node.subs, node.step, node.delays = out, def.step, rec.delays
  end
  return node
end

-- The plan of a performed or undone action; with checks off (`explore
-- --no-invariants`), a bare node: no sound, animate or subaction is run.
local function planorbare(rec, direction)
  if CHECKS then return planof(rec, direction) end
  return { action = rec.name, mode = rec.def.mode }
end

-- The opening animation: the pack's `opening(anim, game, options)` run
-- read-only on the state setup made, as the plan node of a "setup" action
-- (played by `timeline --step 0` and `play`; nil when it returns nil).
local function openingof(game, opts)
  local opening = PACK.opening
  context("setup", "opening")
  setwritable(false, "opening")
  local src = K.defined(opening)
  if COVER then rulecover(true) end
  local plan = opening(K.anim, game, opts)
  if COVER then rulecover(false) end
  local node = { action = "setup", mode = "parallel", src = src }
  if plan ~= nil then node.own = checkplan(plan, src, "opening") end
  return node
end

local function undorec(rec, strict, problems)
  local subs = rec.subs
  for i = #subs, 1, -1 do undorec(subs[i], strict, problems) end
  local undo = rec.def.undo
  if not undo then
    revert(rec.s, rec.e)
    return
  end
  local us = mark()
  CONTEXT_ACTION, CONTEXT_PHASE = rec.path, "undo"
  setwritable(true, "undo")
  if COVER then rulecover(true) end
  undo(GAME, rec.a)
  if COVER then rulecover(false) end
  setwritable(false, "undo")
  if not strict then return end
  local diffs = K.verify(rec.s, rec.e, us, mark(), rec.serial0)
  if diffs then
    local file, line = K.site(undo)
    problems[#problems + 1] = { action = rec.path, file = file, line = line, diffs = diffs }
    revert(us, mark())         -- back to the state right after apply...
    revert(rec.s, rec.e)       -- ...and from there to before it
  end
end

---------------------------------------------------------------- operations
-- Every operation on a game starts here, so numbers a read-only call
-- handed out before are forgotten first (settleids).
local function nogame()
  if not K.game or not PACK then K.fail("error", "no game is running") end
  if ids.n ~= ids.base then settleids() end
end

function API.newgame(id, seed, options)
  PACK = PACKS[id]
  ACTIONS = PACK.actions
  RECS = {}
  local game = K.newroot()
  GAME = game
  begin("setup")
  local opts = merged(PACK.options, K.decode(options))
  K.setwritable(true, "setup")
  game[RNG] = K.mix(tointeger(tonumber(seed)) ~ 0x5eed5eed5eed5eed)
  ids.newgame()
  SETUPIDS = ids.n              -- what an abort goes back to until setup ends
  if PACK.setup then
    context("setup", "setup")
    if COVER then rulecover(true) end
    PACK.setup(game, opts)
    if COVER then rulecover(false) end
  end
  SETUPIDS = ids.n
  K.setwritable(false, "after setup")
  checkinvariants()
  if PACK.opening then return K.hash(), encode(openingof(game, opts)) end
  return K.hash()
end

-- perform(name, params, expected, reply): `expected` is nil or "" or, for
-- a redo, the state hash the action gave the first time. Invariants are
-- functions of the state, so a redo that reaches that same state need not
-- run them again. The plan is always built (a failing `animate` fails the
-- action); `reply` says what comes back with the hash: nil, the subaction
-- tree and the plan encoded (for Swift); "values", the two as Lua tables
-- (the fuzzer's loop compares them in C); "hash", nothing else.
local function perform(name, params, expected, reply)
  nogame()
  begin("perform")
  local rec = run(name, params, name, 0)
  local hash = hashof()
  if expected == nil or expected == "" or hash ~= expected then checkinvariants() end
  local plan = planorbare(rec, "do")
  PENDING.rec = rec
  if reply == nil then return hash, encode(treeof(rec)), encode(plan) end
  if reply == "values" then return hash, treeof(rec), plan end
  return hash
end

function API.perform(name, params, expected)
  return perform(name, decode(params), expected)
end

-- undo(strict, encoded): returns the hash after the undo, its plan
-- (encoded when `encoded` is true, as a Lua table when it is "values":
-- the fuzzer compares it with the do plan) and the problems of a strict
-- verification (nil when exact).
local function undo(strict, encoded)
  nogame()
  local rec = RECS[#RECS]
  if not rec then K.fail("error", "nothing to undo") end
  begin("undo")
  local problems = {}
  undorec(rec, strict, problems)
  local plan = planorbare(rec, "undo")
  PENDING.rec = rec
  if encoded == "values" then return hashof(), plan, #problems > 0 and problems or nil end
  return hashof(), encoded and encode(plan) or "", #problems > 0 and problems or nil
end

function API.undo(strict)
  local hash, plan, problems = undo(strict == "1", true)
  return hash, plan, problems and encode(problems) or ""
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
function K.emitsites(on) SITES = on end

function API.legal()
  nogame()
  return encode(legalcalls())
end

---------------------------------------------------------------- explore
-- explore(depth): every sequence of legal actions up to `depth` from the
-- current state, walked as Swift's Explorer walks it through Game (perform,
-- recurse, strict undo, the hash back to what it was), but without a
-- crossing per node. Each legal enumeration, perform and undo is its own
-- operation for the instruction budget (C.operation starts one).
--
-- Returns "ok" and the counts per depth, or "undo" and the problems of an
-- undo that did not restore the state. Any other failure raises. Either
-- way EXPLORED.path is the path to the failure, and the walk's actions are
-- undone from the journal (here, or by abort when an error unwound): the
-- state is the one explore started from.
local operation = K.C.operation or function() end
local EXPLORED = { path = {} }
local EXPLORING                  -- { recs = #RECS, mark = journal mark } while a walk runs

local function unwind()
  rollback(EXPLORING.mark)
  for i = #RECS, EXPLORING.recs + 1, -1 do RECS[i] = nil end
  EXPLORING = nil
end

-- explore(depth, strict)
function API.explore(depth, strict)
  strict = strict ~= "0"
  nogame()
  if PENDING then rollback(PENDING.mark); PENDING = nil end
  depth = tointeger(tonumber(depth)) or 0
  local counts, path = {}, {}
  for i = 1, depth do counts[i] = 0 end
  EXPLORED.path = path
  EXPLORING = { recs = #RECS, mark = mark() }
  local failure
  local function visit(level)
    operation()
    local calls = legalcalls()
    for i = 1, #calls do
      local call = calls[i]
      path[level] = call
      local before = hashof()
      operation()
      if ids.n ~= ids.base then settleids() end
      begin("perform")
      local rec = run(call.name, call.params, call.name, 0)
      checkinvariants()
      planorbare(rec, "do")
      RECS[#RECS + 1], PENDING = rec, nil
      counts[level] = counts[level] + 1
      if level < depth and not visit(level + 1) then return false end
      operation()
      if ids.n ~= ids.base then settleids() end
      begin("undo")
      local problems = {}
      undorec(rec, strict, problems)
      planorbare(rec, "undo")
      RECS[#RECS], PENDING = nil, nil
      truncate(rec.s)
      local after = hashof()
      if strict and #problems == 0 and after ~= before then
        problems[1] = { action = call.name, diffs = { { path = "(state hash)", before = before, after = after,
                        note = "the state differs from before the action" } } }
      end
      if #problems > 0 then failure = problems; return false end
    end
    path[level] = nil
    return true
  end
  if depth > 0 then visit(1) end
  unwind()
  setwritable(false, "")
  if failure then return "undo", encode(failure) end
  return "ok", encode(counts)
end

-- The path of the last explore, to report where it failed.
function API.explored()
  return encode(EXPLORED.path)
end

function API.render()
  nogame()
  if not PACK.render then return "" end
  K.setwritable(false, "render")
  context("render", "render")
  if COVER then rulecover(true) end
  local text = PACK.render(K.game)
  if COVER then rulecover(false) end
  if type(text) ~= "string" then K.fail("error", "render must return a string", { fn = PACK.render }) end
  return text
end

-- Engine calls ------------------------------------------------------------

function API.commit()
  local p = PENDING
  PENDING = nil
  K.setwritable(false, "")
  if not p then return end
  if p.op == "setup" or p.op == "set" then
    K.truncate(0)
  elseif p.op == "perform" then
    RECS[#RECS + 1] = p.rec
  elseif p.op == "undo" then
    RECS[#RECS] = nil
    K.truncate(p.rec.s)
  end
end

function API.abort()
  K.setwritable(false, "")
  K.closeloads()
  if PENDING then K.rollback(PENDING.mark) end
  PENDING = nil
  if EXPLORING then unwind() end
  settleids()
  if K.onabort then K.onabort() end
end

-- The operations as Swift makes them, for the kernel's own loops
-- (fuzz.lua): each is one user operation, followed by commit or abort.
K.ops = {
  perform = perform,        -- (name, params, expected, reply) -> hash, tree, plan
  undo = undo,              -- (strict, encoded or "values") -> hash, plan, problems or nil
  commit = API.commit,
  abort = function()
    K.setwritable(false, ""); K.closeloads(); if PENDING then rollback(PENDING.mark) end; PENDING = nil; settleids()
  end,
  legal = legalcalls,       -- () -> { {name, params}, ... }
  goal = goalholds,         -- (name) -> true or false (the state read-only)
  depth = function() return #RECS end,
  records = function() return RECS end,
  setrecords = function(list) RECS = list end,
  checkpoint = function(name) local def = ACTIONS[name]; return def and def.checkpoint or false end,
  context = function() return CONTEXT_ACTION, CONTEXT_PHASE end,
  pack = function() return PACK end,
  -- For the view (view.lua): read-only calls start as render does.
  nogame = nogame,
  setcontext = context,
  fieldline = fieldline,
}

function API.failure()
  return K.encode({ action = CONTEXT_ACTION, phase = CONTEXT_PHASE })
end

function API.hash() return K.hash() end

function API.get(keys)
  nogame()
  return K.encode(K.lookup(K.decode(keys)))
end

-- Writes a value at a path before the first action (scenario overrides).
-- A missing table on the way is created, unless `create` is "0" (a
-- scenario's override without `create: true`): then it is an error naming
-- the first missing part, as a misspelled path would silently make one.
function API.set(keys, value, create)
  nogame()
  if #RECS > 0 then K.fail("error", "the state can be set only before the first action") end
  begin("set")
  keys = K.decode(keys)
  K.setwritable(true, "a state override")
  local t = K.game
  for i = 1, #keys - 1 do
    local nextt = t[keys[i]]
    if nextt == nil and create == "0" then
      local names = {}
      for k in next, K.backing(t) do if type(k) == "string" then names[#names + 1] = k end end
      sort(names)
      K.fail("path", K.joinpath({ table.unpack(keys, 1, i) }) .. " does not exist"
        .. K.suggest(tostring(keys[i]), names) .. "; write `create: true` under setup to create missing tables")
    end
    if nextt == nil then t[keys[i]] = {}; nextt = t[keys[i]] end
    if type(nextt) ~= "table" then
      K.fail("path", K.joinpath({ table.unpack(keys, 1, i) }) .. " is " .. K.show(nextt) .. ", not a table")
    end
    t = nextt
  end
  t[keys[#keys]] = K.decode(value)
  K.setwritable(false, "")
  return K.hash()
end

function API.depth() return #RECS end

function API.gc() K.collectgarbage("collect") end

-- A development aid: while on, every VM instruction is counted against the
-- function running it ("file:line" of its definition). Counts are exact and
-- repeatable, unlike times on a shared machine. Needs a game whose
-- instruction budget is 0 (the budget's own hook would be replaced).
local PROFILE
function API.profile(on)
  local debug = K.debug
  if on == "1" then
    PROFILE = {}
    local counts, getinfo = PROFILE, debug.getinfo
    debug.sethook(function()
      local info = getinfo(2, "S")
      local key = K.chunkname(info.source) .. ":" .. info.linedefined
      counts[key] = (counts[key] or 0) + 1
    end, "", 1)
    return ""
  end
  debug.sethook()
  local counts = PROFILE or {}
  PROFILE = nil
  return K.encode(counts)
end

-- Runs a kernel test file (Tests/KernelTests/*.lua, by KernelLuaTests):
-- the chunk gets K and API, over the kernel's own globals plus two helpers:
-- fails(f, pattern) asserts that f raises an error matching pattern, and
-- same(a, b) compares plain values deeply. An error fails the test.
function API.selftest(chunkname, source)
  local function message(e)
    if type(e) == "table" then return tostring(e.message) end
    return tostring(e)
  end
  local function same(a, b)
    if type(a) ~= "table" or type(b) ~= "table" then return a == b and math_type(a) == math_type(b) end
    for k, v in next, a do if not same(v, b[k]) then return false end end
    for k in next, b do if a[k] == nil then return false end end
    return true
  end
  local function fails(f, pattern)
    local ok, e = pcall(f)
    if ok then error("expected an error matching '" .. pattern .. "', but it succeeded", 2) end
    if not message(e):find(pattern) then
      error("expected an error matching '" .. pattern .. "', got: " .. message(e), 2)
    end
  end
  local env = setmetatable({ fails = fails, same = same }, { __index = K.G })
  local chunk, err = load(source, "@" .. chunkname, "t", env)
  if not chunk then error(err, 0) end
  chunk(K, API)
  return ""
end

-- Settings fixed for the life of a game. leafsources: "1" to record the
-- file:line of every animation leaf (for conflict reports and timelines).
-- configure(leafsources, seedednext, checks): `checks` "0" turns invariants
-- and animation plans off (`explore --no-invariants`, which counts moves
-- only; undo is verified all the same).
function API.configure(leafsources, seedednext, checks)
  K.leafsources = leafsources == "1"
  K.seedednext = seedednext == "1"   -- a test's planted hole (Game.Configuration.plantsSeededNext)
  CHECKS = checks ~= "0"
end

return API
