-- The `anim` builder handed to `animate`, in Lua.
--
-- It only builds and checks plan tables; timing, composition with
-- subactions, reversal and conflict detection happen in Swift
-- (see AnimationPlan and Timeline), where a host app reads them.
-- Each leaf records the file:line that built it, for conflict reports.
--
-- Every perform, undo and redo runs the action's animate, so the builders
-- are on the hot path of a checked step: animcore.c builds the common case
-- in C. The builders in this file are the reference. The C ones hand them
-- every call that is not plainly valid (and every table with a metatable),
-- so the checks and error messages are these.

-- Receives: core, protocol, state (KernelSource.swift).
-- Returns its table `M`.
local core, protocol, state = ...
local M = {}
local type, next, error, tostring, ipairs = type, next, error, tostring, ipairs
local math_type, huge = math.type, math.huge
local utf8len = utf8.len

local EASINGS = protocol.WORDSET.easing
local KINDS = { tween = true, frames = true, wait = true, sound = true, cue = true,
                sequence = true, parallel = true, stagger = true }

local function fault(message) error(core.where(2) .. message, 0) end

local function fields(spec, allowed, what)
  if type(spec) ~= "table" then fault(what .. " expects a table of fields") end
  for k in next, spec do
    if type(k) == "string" and not allowed[k] then
      local names = {}
      for name in next, allowed do names[#names + 1] = name end
      fault(what .. ": unknown field '" .. k .. "'" .. core.suggest(k, names))
    end
  end
end

local function number(v, name, what, default)
  if v == nil then return default end
  if type(v) ~= "number" or v ~= v or v == huge or v == -huge then
    fault(what .. ": '" .. name .. "' must be a finite number")
  end
  if v < 0 then fault(what .. ": '" .. name .. "' must not be negative") end
  return v + 0.0
end

-- The longest time one number of a plan may give (M.PLAN_SECONDS, also
-- for a stagger's step and a subaction's delay in engine.lua): with every
-- time bounded, no sum or product of them (a duration times its repeat
-- count, a sequence of them, an interval times the items) reaches infinity
-- or NaN, which a timeline would show as "duration 0 s" and which no redo
-- could match. animcore.c's AC_MAX_SECONDS is the same number.
M.PLAN_SECONDS = 1e6
local function seconds(v, name, what, default)
  v = number(v, name, what, default)
  if v and v > M.PLAN_SECONDS then
    fault(what .. ": '" .. name .. "' must be at most 1000000 seconds (about 11 days), not " .. core.show(v))
  end
  return v
end

local function text(v, name, what, required)
  if v == nil and not required then return nil end
  if type(v) ~= "string" or v == "" then fault(what .. ": '" .. name .. "' must be a non-empty string") end
  local valid, bad = utf8len(v)
  if not valid then
    fault(what .. ": '" .. name .. "' is not UTF-8 text (" .. string.format("byte 0x%02X at position %d", v:byte(bad), bad)
      .. "); Swift reads these names as text")
  end
  return v
end

local function repeats(v, what)
  if v == nil then return 1 end
  if math_type(v) ~= "integer" or v < 1 then fault(what .. ": 'repeat' must be a whole number of at least 1") end
  return v
end

local function data(v, name, what)
  local t = type(v)
  if t == "table" then
    local out = {}
    for k, x in next, state.backing(v) do out[k] = data(x, name, what) end
    return out
  end
  if t == "function" or t == "userdata" or t == "thread" then
    fault(what .. ": '" .. name .. "' must be plain data")
  end
  if v ~= v or v == huge or v == -huge then   -- a plan holding NaN never equals itself: redo could not match it
    fault(what .. ": '" .. name .. "' must hold finite numbers, not " .. (v ~= v and "NaN" or core.show(v)))
  end
  return v
end

-- The reference builders. `src` is the file:line of the rule code that
-- built the leaf, found by animcore.c (ac_push_site): nil when the builder
-- was called in tail position (`return anim.tween{...}`), whose caller's
-- frame Lua has already dropped, or by a C function (pcall); the action's
-- animate location stands in then. Nil too when leafsources is off (setleafsources):
-- looking a line up costs more than building the leaf, so games that only
-- check plans (fuzz, explore) turn it off; their reports name the action's
-- animate function instead.
local slow = {}

local TWEEN = { target = true, property = true, from = true, to = true, duration = true, delay = true,
                easing = true, ["repeat"] = true, autoreverse = true }
function slow.tween(s, src)
  fields(s, TWEEN, "anim.tween")
  local easing = s.easing or "linear"
  if not EASINGS[easing] then
    fault("anim.tween: unknown easing '" .. tostring(easing) .. "' (" .. table.concat(protocol.WORDS.easing, ", ") .. ")")
  end
  if s.autoreverse ~= nil and type(s.autoreverse) ~= "boolean" then fault("anim.tween: 'autoreverse' must be a boolean") end
  return { kind = "tween", target = text(s.target, "target", "anim.tween", true),
           property = text(s.property, "property", "anim.tween", true),
           from = data(s.from, "from", "anim.tween"), to = data(s.to, "to", "anim.tween"),
           duration = seconds(s.duration, "duration", "anim.tween", 0.0),
           delay = seconds(s.delay, "delay", "anim.tween", 0.0), easing = easing,
           ["repeat"] = repeats(s["repeat"], "anim.tween"), autoreverse = s.autoreverse or false,
           src = src }
end

local FRAMES = { target = true, property = true, frames = true, fps = true, duration = true,
                 delay = true, ["repeat"] = true }
function slow.frames(s, src)
  fields(s, FRAMES, "anim.frames")
  if type(s.frames) ~= "table" or #s.frames == 0 then fault("anim.frames: 'frames' must be a non-empty list") end
  if (s.fps == nil) == (s.duration == nil) then fault("anim.frames: give exactly one of 'fps' and 'duration'") end
  local fps = number(s.fps, "fps", "anim.frames")
  if fps == 0 then fault("anim.frames: 'fps' must be positive") end
  if fps and fps < 1 / M.PLAN_SECONDS then fault("anim.frames: 'fps' must be at least 0.000001 (a frame lasts at most 1000000 seconds)") end
  return { kind = "frames", target = text(s.target, "target", "anim.frames", true),
           property = text(s.property or "frame", "property", "anim.frames", true),
           frames = data(s.frames, "frames", "anim.frames"), fps = fps,
           duration = seconds(s.duration, "duration", "anim.frames"),
           delay = seconds(s.delay, "delay", "anim.frames", 0.0),
           ["repeat"] = repeats(s["repeat"], "anim.frames"), src = src }
end

function slow.wait(time, src)
  return { kind = "wait", duration = seconds(time, "seconds", "anim.wait", 0.0), src = src }
end

-- `do_only = true`: the sound or cue belongs to the do (a win's fanfare); the
-- mirrored undo plan keeps its time but plays nothing there (AnimationPlan.reversed).
-- animcore.c knows no such field, so a spec giving it is built here.
local function doonly(v, what)
  if v == nil or v == false then return nil end
  if v ~= true then fault(what .. ": 'do_only' must be true or false") end
  return true
end

local SOUND = { name = true, volume = true, delay = true, do_only = true }
function slow.sound(s, src)
  if type(s) == "string" then s = { name = s } end
  fields(s, SOUND, "anim.sound")
  return { kind = "sound", name = text(s.name, "name", "anim.sound", true),
           volume = number(s.volume, "volume", "anim.sound", 1.0),
           delay = seconds(s.delay, "delay", "anim.sound", 0.0),
           do_only = doonly(s.do_only, "anim.sound"), src = src }
end

local CUE = { name = true, args = true, delay = true, do_only = true }
function slow.cue(s, src)
  fields(s, CUE, "anim.cue")
  return { kind = "cue", name = text(s.name, "name", "anim.cue", true),
           args = data(s.args or {}, "args", "anim.cue"),
           delay = seconds(s.delay, "delay", "anim.cue", 0.0),
           do_only = doonly(s.do_only, "anim.cue"), src = src }
end

local function items(list, what, skip)
  local out = {}
  for i, item in ipairs(list) do
    if type(item) ~= "table" or not KINDS[item.kind] then
      fault(what .. ": item " .. i .. " is not a plan (build it with anim.*)")
    end
    out[#out + 1] = item
  end
  for k in next, list do
    if not (math_type(k) == "integer" and k >= 1 and k <= #list) and not (skip and skip[k]) then
      fault(what .. ": unexpected field '" .. tostring(k) .. "'")
    end
  end
  return out
end

function slow.sequence(list, src)
  if type(list) ~= "table" then fault("anim.sequence expects a list of plans") end
  return { kind = "sequence", items = items(list, "anim.sequence"), src = src }
end

function slow.parallel(list, src)
  if type(list) ~= "table" then fault("anim.parallel expects a list of plans") end
  return { kind = "parallel", items = items(list, "anim.parallel"), src = src }
end

function slow.stagger(list, src)
  if type(list) ~= "table" then fault("anim.stagger expects a list of plans and an interval") end
  return { kind = "stagger", interval = seconds(list.interval, "interval", "anim.stagger", 0.0),
           items = items(list, "anim.stagger", { interval = true }), src = src }
end

-- The builders rules call. Each tail-calls its C twin, which stands where
-- a Lua builder stood on the stack (animcore.c's ac_push_site relies on
-- it) and takes exactly one argument, as the builders here do.
-- What the C builders read (animcore.c): `backing`, `easings` (the names a
-- tween may give), and, kept with the builders, whether each leaf notes the
-- file:line that made it (setleafsources) and the planner, the kernel's
-- function that runs animate (engine.lua's planof, setplanner): a leaf a
-- builder returns straight to it is noted as `fresh`, known valid (ac_finish_leaf).
local BOUND = { backing = state.backing, easings = EASINGS }
local fast = core.C.anim.bind(BOUND, slow)
local LEAFSOURCES = false
function M.setleafsources(on) LEAFSOURCES = on; fast.setleafsources(on) end
function M.setplanner(fn) fast.setplanner(fn) end
function M.leafsources() return LEAFSOURCES end
local tween, frames, wait, sound, cue = fast.tween, fast.frames, fast.wait, fast.sound, fast.cue
local sequence, parallel, stagger = fast.sequence, fast.parallel, fast.stagger
-- planhash(plan): core.C.valuehash(plan), the same bits, but a leaf built
-- straight for the planner was hashed as it was built and is not walked
-- (animcore.c). Only for plans the planner made (engine.lua's planof).
M.planhash = fast.planhash

local anim = {}
function anim.tween(s) return tween(s) end
function anim.frames(s) return frames(s) end
function anim.wait(seconds) return wait(seconds) end
function anim.sound(s) return sound(s) end
function anim.cue(s) return cue(s) end
-- anim.sequence("NAME") starts the story sequence NAME (sequences/NAME.yaml)
-- when the plan reaches it: a cue named "sequence" (SequenceCue.swift); a
-- list of plans plays them one after another, as before.
function anim.sequence(list)
  if type(list) == "string" then return cue({ name = "sequence", args = { name = list } }) end
  return sequence(list)
end
function anim.parallel(list) return parallel(list) end
function anim.stagger(list) return stagger(list) end

M.anim = anim

-- What a plan may hold, found in sorted key order (so the same plan always
-- names the same value), as animcore.c's `valid` judges it: every number
-- finite, a node's times (TIMES) in range, each table among its `items` a
-- plan node, anything else data. Each returns the path, the value and what
-- is wrong, or nil. Each table is looked into once in each role (`seen`),
-- so a cycle or a table reached many times costs one visit; nothing deeper
-- than 256 tables is looked into (the encoder refuses a plan nested more
-- than 200 levels).
local TIMES = { duration = { 0, "0 to 1000000 seconds" }, delay = { 0, "0 to 1000000 seconds" },
                interval = { 0, "0 to 1000000 seconds" }, fps = { 1 / 1e6, "0.000001 to 1000000" } }
local NONFINITE = "every number of a plan must be finite"

local function step(path, k)
  if type(k) == "string" then return path == "" and k or path .. "." .. k end
  return path .. "[" .. core.show(k) .. "]"
end

-- The backing table of `v` when it is first seen in `role`, else nil.
local function first(v, role, seen, depth)
  if depth >= 256 then return nil end
  local t = state.backing(v)
  local roles = seen[t] or {}
  if roles[role] then return nil end
  roles[role] = true
  seen[t] = roles
  return t
end

local function baddata(v, path, depth, seen)
  if type(v) == "number" then
    if v ~= v or v == huge or v == -huge then return path, v, NONFINITE end
    return nil
  end
  local t = type(v) == "table" and first(v, "data", seen, depth)
  if not t then return nil end
  for _, k in ipairs((core.sortedkeys(t))) do
    local at, bad, why = baddata(k, step(path, k) .. " (a key)", depth + 1, seen)
    if not at then at, bad, why = baddata(t[k], step(path, k), depth + 1, seen) end
    if at then return at, bad, why end
  end
  return nil
end

local function badtime(k, v, path)
  local time = TIMES[k]
  if v ~= v or v == huge or v == -huge then return step(path, k), v, NONFINITE end
  if not (v >= time[1] and v <= M.PLAN_SECONDS) then return step(path, k), v, "a plan's " .. k .. " is " .. time[2] end
  return nil
end

local function badplan(plan, path, depth, seen)
  local t = first(plan, "plan", seen, depth)
  if not t then return nil end
  for _, k in ipairs((core.sortedkeys(t))) do
    local v, at, bad, why = t[k], nil, nil, nil
    if type(k) == "string" and type(v) == "number" and TIMES[k] then
      at, bad, why = badtime(k, v, path)
    elseif k == "items" and type(v) == "table" then
      local items = first(v, "items", seen, depth + 1) or {}
      for _, i in ipairs((core.sortedkeys(items))) do
        local item, ipath = items[i], step(step(path, k), i)
        at, bad, why = baddata(i, ipath .. " (a key)", depth + 2, seen)
        if not at then
          if type(item) == "table" then at, bad, why = badplan(item, ipath, depth + 2, seen)
          else at, bad, why = baddata(item, ipath, depth + 2, seen) end
        end
        if at then break end
      end
    else
      at, bad, why = baddata(k, step(path, k) .. " (a key)", depth + 1, seen)
      if not at then at, bad, why = baddata(v, step(path, k), depth + 1, seen) end
    end
    if at then return at, bad, why end
  end
  return nil
end

-- Checks a plan returned by animate, or by the pack's opening when `what`
-- says so (it may have been built by hand): a plan, every number in it
-- finite and its times in range. A NaN never equals itself, so a plan
-- holding one could never be matched by its redo, and times past 1000000
-- seconds can sum to infinity; the builders refuse both, and a plan built
-- by hand is refused here, at the line of the function that returned it.
function M.checkplan(plan, where, what)
  if type(plan) ~= "table" or not KINDS[plan.kind] then
    error(where .. ": " .. (what or "animate") .. " must return a plan built with anim.* (or nil)", 0)
  end
  if fast.valid(plan) ~= true then
    local at, bad, why = badplan(plan, "", 0, {})
    if at then
      error(where .. ": " .. (what or "animate") .. " returned a plan holding " .. (bad ~= bad and "NaN" or core.show(bad))
        .. " at " .. at .. ": " .. why .. " (build plans with anim.*, which checks them)", 0)
    end
  end
  return plan
end

return M
