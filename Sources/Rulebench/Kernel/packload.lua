-- Loading packs: pack.lua's manifest, the action files, the options, and
-- the merge of a pack with the pack it extends.
--
-- Owns PACKS (id -> pack; engine.lua reads it as packload.packs) and every check
-- of what a pack declares, each raised as a "load" error at the file and,
-- when it can be found, the line.
-- Invariant: a pack's files are compiled once; loading it again (reload)
-- runs the same chunks in fresh globals in the order they first ran, so a
-- reloaded pack is the one a new Lua state would load. Nothing here runs
-- during a game: engine.lua reads the finished pack (actions, invariants,
-- goals, options).

-- Receives: core, state, identity, sandbox, anim (KernelSource.swift).
-- Returns its table `M`; late slots context, covered, emitter, rulecover, finishseats.
local core, state, identity, sandbox, anim = ...
local M = {}
local API = core.API
-- Defined by engine.lua (context, covered, emitter, rulecover) and seats.lua (finishseats).
local late, provide = core.late("packload", { "context", "covered", "emitter", "rulecover", "finishseats" })
M.provide = provide
local type, next, ipairs, tostring, tonumber, load = type, next, ipairs, tostring, tonumber, load
local math_type = math.type
local sort, concat = table.sort, table.concat
local utf8len = utf8.len
local ids = identity.ids
local plain, textcopy = state.plain, state.textcopy

local PACKS = {}          -- id -> pack
M.packs = PACKS

local MANIFEST = { name = "string", version = "string", extends = "string", options = "table",
                   setup = "function", invariants = "table", render = "function", description = "string",
                   goals = "table", opening = "function", view = "table|function",
                   seats = "table|function", turn = "function", secrets = "function",
                   result = "function", appraise = "function", generate = "function" }
local ACTION = { params = "table", legal = "function", check = "function", apply = "function",
                 undo = "function", animate = "function", sound = "string|function",
                 subanimations = "string", stagger = "number", checkpoint = "boolean", description = "string",
                 internal = "boolean", seat = "string|function" }
local PARAM_TYPES = { string = true, integer = true, number = true, boolean = true, table = true, any = true }

-- A load error in `file` (at `line`, when known).
local function loadfail(file, message, line) core.fail("load", message, { file = file, line = line }) end

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
      loadfail(file, "unknown field '" .. tostring(k) .. "' in " .. what .. core.suggest(tostring(k), core.sortedkeys(spec)),
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
  core.debug.setupvalue(chunk, 1, pack.env)     -- a load's only upvalue is _ENV
  late.context(chunkname, "loading")
  state.setwritable(false, "loading " .. chunkname)
  if not late.covered() then return chunk() end
  late.rulecover(true)
  local result = chunk()
  late.rulecover(false)
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
        .. core.show(k) .. " is not one of them", fieldline(source, name))
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
        loadfail(chunkname, "'" .. field .. "' maps names to functions (entry " .. core.show(name) .. " is not)",
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
  pack.env = sandbox.newenv(pack)
  PACKS[id] = pack
  pack.manifestchunk = compile(pack, chunkname, source)
  local manifest = definemanifest(pack)
  return core.encode({ name = manifest.name, version = manifest.version, extends = manifest.extends })
end

-- Checks a `params` declaration and compiles it once, so that running an
-- action never parses it: { name -> base type } and the required names.
local function compileparams(spec, file, source)
  local types, required, names = {}, {}, {}
  for k, v in next, spec do
    local base = type(v) == "string" and v:gsub("%?$", "")
    if type(k) ~= "string" or not base or not PARAM_TYPES[base] then
      loadfail(file, "params." .. tostring(k) .. " must be one of string, integer, number, boolean, table, any (add ? for optional), not " .. core.show(v),
        fieldline(source, tostring(k)) or fieldline(source, "params"))
    end
    types[k] = base
    if v:sub(-1) ~= "?" then required[#required + 1] = k end
  end
  sort(required)
  return { types = types, required = required }
end

---------------------------------------------------------------- params
-- The first param that does not fit the declaration, in key order (so the
-- message does not depend on table order), raised as a "params" failure
-- naming the param and the problem. Only called once a problem was seen.
local function paramfault(def, params, path)
  local types = def.spec.types
  for _, k in ipairs(core.sortedkeys(params)) do
    local base, v = types[k], params[k]
    if not base then
      local names = core.sortedkeys(def.params)
      core.fail("params", "'" .. path .. "' has no param '" .. tostring(k) .. "'" .. core.suggest(tostring(k), names)
        .. " (declared: " .. concat(names, ", ") .. ")", { action = path, param = tostring(k), problem = "undeclared" })
    end
    if not (base == "any" or type(v) == base or (base == "integer" and math_type(v) == "integer")) then
      core.fail("params", "param '" .. k .. "' of '" .. path .. "' must be " .. base .. ", not " .. core.show(v),
        { action = path, param = k, problem = "type" })
    end
  end
end

local function checkparams(def, params, path)
  if type(params) ~= "table" then core.fail("params", "params of '" .. path .. "' must be a table", { action = path }) end
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
      core.fail("params", "'" .. path .. "' needs param '" .. k .. "' (" .. def.params[k] .. ")",
        { action = path, param = k, problem = "missing" })
    end
  end
end
M.checkparams = checkparams   -- engine.lua runs it before every action
M.fieldline = fieldline       -- view.lua points its load errors at a field's line

-- Raises the error for emitted params that JSON text cannot carry exactly
-- (histories and findings save params as JSON, and `replay` must perform
-- the very same call): a string that is not UTF-8, NaN or an infinity, a
-- function, a key that is not a string or an integer, a param not named by
-- a string. Names the first such param in key order, at the line of the
-- rule's emit (the caller's caller).
local function nottext(params)
  local copy = plain(params)
  for _, k in ipairs(core.sortedkeys(copy)) do
    local name, bad, what = "a param name", nil, nil
    if type(k) ~= "string" then
      bad, what = k, type(k) == "number" and "the position " .. core.show(k) or "a " .. type(k) .. " key"
    else
      _, bad, what = textcopy({ [k] = true })
      if not what then _, bad, what = textcopy(copy[k]); name = "param '" .. k .. "'" end
    end
    if type(bad) == "string" then
      error(core.where(3) .. "emit: " .. name .. " holds a string that is not UTF-8 text (" .. what
        .. "); params are saved as JSON text: keep bytes as a list of numbers (string.byte)", 0)
    elseif what and type(k) ~= "string" then
      error(core.where(3) .. "emit: params are named by strings, not by " .. what
        .. " (a saved history names each param): write emit({ name = value }), a list inside one param", 0)
    elseif what then
      error(core.where(3) .. "emit: " .. name .. " holds " .. what .. ", which a saved history (JSON text) cannot carry"
        .. " exactly; emit finite numbers, strings, booleans and tables keyed by strings or integers", 0)
    end
  end
  return copy
end
M.nottext = nottext   -- engine.lua's emit raises it

-- Runs an action file and checks the action it returns.
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
    loadfail(chunkname, "subanimations must be \"parallel\", \"sequence\" or \"stagger\", not " .. core.show(mode),
      fieldline(source, "subanimations"))
  end
  local step = def.stagger
  if step ~= nil then
    if mode ~= "stagger" then
      loadfail(chunkname, "stagger (seconds between subactions' starts) needs subanimations = \"stagger\"",
        fieldline(source, "stagger"))
    end
    if type(step) ~= "number" or step ~= step or step < 0 or step > anim.PLAN_SECONDS then
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
  copy.animsrc = core.defined(def.animate)
  -- One emit function per action, reused by every legal enumeration (engine.lua).
  copy.emit = late.emitter(name)
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
    if type(name) ~= "string" then loadfail(file, "options are named by strings, not " .. core.show(name), fieldline(source, "options")) end
    if isoptionspec(v) then
      local base = v.type:gsub("%?$", "")
      if not PARAM_TYPES[base] then
        loadfail(file, "options." .. name .. ".type must be one of string, integer, number, boolean, table, any, not " .. core.show(v.type),
          fieldline(source, name))
      end
      local d = v.default
      if d ~= nil and base ~= "any" and type(d) ~= base and not (base == "integer" and math_type(d) == "integer") then
        loadfail(file, "options." .. name .. ".default must be " .. base .. ", not " .. core.show(d), fieldline(source, name))
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
  return core.encode({ name = pack.name, version = pack.version, actions = actions, options = pack.options,
                    optiontypes = pack.optiontypes, goals = core.sortedkeys(pack.goals),
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
  pack.result = m.result or (base and base.result)       -- value.lua: who won a finished game
  pack.appraise = m.appraise or (base and base.appraise) -- value.lua: how a position looks to a seat
  pack.generate = m.generate or (base and base.generate)
  late.finishseats(pack, base, m)   -- seats.lua: seats, turn, secrets
  pack.actionnames = core.sortedkeys(pack.actions)
  -- The actions a player may perform: legal() lists only these; an
  -- internal action runs only as a subaction.
  pack.playernames = {}
  for _, name in ipairs(pack.actionnames) do
    if not pack.actions[name].internal then pack.playernames[#pack.playernames + 1] = name end
  end
  pack.invariantlist = {}
  for _, name in ipairs(core.sortedkeys(pack.invariants)) do
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
  pack.env = sandbox.newenv(pack)
  pack.modules, pack.own, pack.loading = {}, {}, true
  definemanifest(pack)
  if pack.base then reload(pack.base) end
  for _, f in ipairs(pack.actionfiles) do defineaction(pack, f.name, f.chunkname, f.chunk, f.source) end
  finish(pack.id, pack.base and pack.base.id or "")
end

-- engine.lua's: the merge of options, and loading a pack again (reloadpack).
M.merged = merged
function M.reload(id) reload(PACKS[id]) end

return M
