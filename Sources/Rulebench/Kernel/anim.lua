-- The `anim` builder handed to `animate`, in Lua.
--
-- It only builds and checks plan tables; timing, composition with
-- subactions, reversal and conflict detection happen in Swift
-- (see AnimationPlan and Timeline), where a host app reads them.
-- Each leaf records the file:line that built it, for conflict reports.
--
-- Every perform, undo and redo runs the action's animate, so the builders
-- are on the hot path of a checked step. Each builder checks the common,
-- valid case inline (a few VM instructions, no calls) and hands a value to
-- the checking helpers below only when it is not plainly valid; they return
-- the same value or raise the error. The fields of a spec are read in the
-- same order and as often as the plain version did, so a spec with
-- metamethods sees no difference.

local K = ...
local type, next, error, tostring, ipairs = type, next, error, tostring, ipairs
local math_type, huge = math.type, math.huge
local rawgetmetatable = K.debug.getmetatable
local backing = K.backing

local EASINGS = { linear = true, easeIn = true, easeOut = true, easeInOut = true }
local KINDS = { tween = true, frames = true, wait = true, sound = true, cue = true,
                sequence = true, parallel = true, stagger = true }

local function fault(message) error(K.where(2) .. message, 0) end

-- file:line of the rule code that built a leaf; nil when the builder was
-- called in tail position (`return anim.tween{...}`), whose caller's frame
-- Lua has already dropped. The action's animate location stands in then.
-- Looking a line up costs more than building the leaf, so games that only
-- check plans (fuzz, explore) turn it off (K.leafsources = false); their
-- reports name the action's animate function instead. Builders call it as
-- `K.leafsources and site() or nil`, directly, so level 3 is their caller.
local function site()
  local w = K.where(3, 2)
  if w == "" then return nil end
  return (w:gsub(": $", ""))
end

---------------------------------------------------------------- slow paths
-- Each takes a value the inline check did not accept and returns what the
-- builder stores, or raises the builder's error.

local function fields(spec, allowed, what)
  if type(spec) ~= "table" then fault(what .. " expects a table of fields") end
  for k in next, spec do
    if type(k) == "string" and not allowed[k] then
      local names = {}
      for name in next, allowed do names[#names + 1] = name end
      fault(what .. ": unknown field '" .. k .. "'" .. K.suggest(k, names))
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

local function text(v, name, what, required)
  if v == nil and not required then return nil end
  if type(v) ~= "string" or v == "" then fault(what .. ": '" .. name .. "' must be a non-empty string") end
  return v
end

local function repeats(v, what)
  if v == nil then return 1 end
  if math_type(v) ~= "integer" or v < 1 then fault(what .. ": 'repeat' must be a whole number of at least 1") end
  return v
end

-- A deep copy of plain data; state tables are read through their backing
-- table. Numbers, strings and booleans are stored without a call.
local function data(v, name, what)
  local t = type(v)
  if t == "table" then
    local out = {}
    for k, x in next, backing(v) do
      local tx = type(x)
      if tx ~= "number" and tx ~= "string" and tx ~= "boolean" then x = data(x, name, what) end
      out[k] = x
    end
    return out
  end
  if t == "function" or t == "userdata" or t == "thread" then
    fault(what .. ": '" .. name .. "' must be plain data")
  end
  return v
end

---------------------------------------------------------------- leaves
local anim = {}

local TWEEN = { target = true, property = true, from = true, to = true, duration = true, delay = true,
                easing = true, ["repeat"] = true, autoreverse = true }
function anim.tween(s)
  if type(s) ~= "table" then fields(s, TWEEN, "anim.tween") end
  for k in next, s do
    if not TWEEN[k] and type(k) == "string" then fields(s, TWEEN, "anim.tween") end
  end
  local easing = s.easing or "linear"
  if not EASINGS[easing] then
    fault("anim.tween: unknown easing '" .. tostring(easing) .. "' (linear, easeIn, easeOut, easeInOut)")
  end
  if s.autoreverse ~= nil and type(s.autoreverse) ~= "boolean" then fault("anim.tween: 'autoreverse' must be a boolean") end
  local target = s.target
  if type(target) ~= "string" or target == "" then text(target, "target", "anim.tween", true) end
  local property = s.property
  if type(property) ~= "string" or property == "" then text(property, "property", "anim.tween", true) end
  local from, t = s.from, nil
  if from ~= nil then
    t = type(from)
    if t ~= "number" and t ~= "string" then from = data(from, "from", "anim.tween") end
  end
  local to = s.to
  if to ~= nil then
    t = type(to)
    if t ~= "number" and t ~= "string" then to = data(to, "to", "anim.tween") end
  end
  local duration = s.duration
  if duration == nil then duration = 0.0
  elseif type(duration) == "number" and duration >= 0 and duration < huge then duration = duration + 0.0
  else duration = number(duration, "duration", "anim.tween") end
  local delay = s.delay
  if delay == nil then delay = 0.0
  elseif type(delay) == "number" and delay >= 0 and delay < huge then delay = delay + 0.0
  else delay = number(delay, "delay", "anim.tween") end
  local rep = s["repeat"]
  if rep == nil then rep = 1 else rep = repeats(rep, "anim.tween") end
  return { kind = "tween", target = target, property = property, from = from, to = to,
           duration = duration, delay = delay, easing = easing, ["repeat"] = rep,
           autoreverse = s.autoreverse or false, src = K.leafsources and site() or nil }
end

local FRAMES = { target = true, property = true, frames = true, fps = true, duration = true,
                 delay = true, ["repeat"] = true }
function anim.frames(s)
  fields(s, FRAMES, "anim.frames")
  if type(s.frames) ~= "table" or #s.frames == 0 then fault("anim.frames: 'frames' must be a non-empty list") end
  if (s.fps == nil) == (s.duration == nil) then fault("anim.frames: give exactly one of 'fps' and 'duration'") end
  local fps = number(s.fps, "fps", "anim.frames")
  if fps == 0 then fault("anim.frames: 'fps' must be positive") end
  return { kind = "frames", target = text(s.target, "target", "anim.frames", true),
           property = text(s.property or "frame", "property", "anim.frames", true),
           frames = data(s.frames, "frames", "anim.frames"), fps = fps,
           duration = number(s.duration, "duration", "anim.frames"),
           delay = number(s.delay, "delay", "anim.frames", 0.0),
           ["repeat"] = repeats(s["repeat"], "anim.frames"), src = K.leafsources and site() or nil }
end

function anim.wait(seconds)
  if seconds == nil then seconds = 0.0
  elseif type(seconds) == "number" and seconds >= 0 and seconds < huge then seconds = seconds + 0.0
  else seconds = number(seconds, "seconds", "anim.wait", 0.0) end
  return { kind = "wait", duration = seconds, src = K.leafsources and site() or nil }
end

local SOUND = { name = true, volume = true, delay = true }
function anim.sound(s)
  if type(s) == "string" then
    if s ~= "" then
      return { kind = "sound", name = s, volume = 1.0, delay = 0.0, src = K.leafsources and site() or nil }
    end
    s = { name = s }
  end
  if type(s) ~= "table" then fields(s, SOUND, "anim.sound") end
  for k in next, s do
    if not SOUND[k] and type(k) == "string" then fields(s, SOUND, "anim.sound") end
  end
  local name = s.name
  if type(name) ~= "string" or name == "" then text(name, "name", "anim.sound", true) end
  local volume = s.volume
  if volume == nil then volume = 1.0
  elseif type(volume) == "number" and volume >= 0 and volume < huge then volume = volume + 0.0
  else volume = number(volume, "volume", "anim.sound") end
  local delay = s.delay
  if delay == nil then delay = 0.0
  elseif type(delay) == "number" and delay >= 0 and delay < huge then delay = delay + 0.0
  else delay = number(delay, "delay", "anim.sound") end
  return { kind = "sound", name = name, volume = volume, delay = delay, src = K.leafsources and site() or nil }
end

local CUE = { name = true, args = true, delay = true }
function anim.cue(s)
  if type(s) ~= "table" then fields(s, CUE, "anim.cue") end
  for k in next, s do
    if not CUE[k] and type(k) == "string" then fields(s, CUE, "anim.cue") end
  end
  local name = s.name
  if type(name) ~= "string" or name == "" then text(name, "name", "anim.cue", true) end
  local args = s.args
  if not args then args = {} else
    local t = type(args)
    if t ~= "number" and t ~= "string" then args = data(args, "args", "anim.cue") end
  end
  local delay = s.delay
  if delay == nil then delay = 0.0
  elseif type(delay) == "number" and delay >= 0 and delay < huge then delay = delay + 0.0
  else delay = number(delay, "delay", "anim.cue") end
  return { kind = "cue", name = name, args = args, delay = delay, src = K.leafsources and site() or nil }
end

---------------------------------------------------------------- lists
-- The plain checks, for a list with a metatable or keys besides 1..n.
local function strictkeys(list, what, skip)
  for k in next, list do
    if not (math_type(k) == "integer" and k >= 1 and k <= #list) and not (skip and skip[k]) then
      fault(what .. ": unexpected field '" .. tostring(k) .. "'")
    end
  end
end

-- The items of a list of plans, copied. `list[i]` reads what ipairs read.
-- A list with no metatable whose keys (but `skipkey`) number as many as
-- its items has exactly the keys 1..n, so no key needs a look.
local SKIP = { interval = true }
local function items(list, what, skipkey)
  local out, n = {}, 0
  local item = list[1]
  while item ~= nil do
    n = n + 1
    if type(item) ~= "table" or not KINDS[item.kind] then
      fault(what .. ": item " .. n .. " is not a plan (build it with anim.*)")
    end
    out[n] = item
    item = list[n + 1]
  end
  local m = 0
  for k in next, list do
    if k ~= skipkey then m = m + 1 end
  end
  if m ~= n or rawgetmetatable(list) ~= nil then strictkeys(list, what, skipkey and SKIP) end
  return out
end

function anim.sequence(list)
  if type(list) ~= "table" then fault("anim.sequence expects a list of plans") end
  return { kind = "sequence", items = items(list, "anim.sequence"), src = K.leafsources and site() or nil }
end

function anim.parallel(list)
  if type(list) ~= "table" then fault("anim.parallel expects a list of plans") end
  return { kind = "parallel", items = items(list, "anim.parallel"), src = K.leafsources and site() or nil }
end

function anim.stagger(list)
  if type(list) ~= "table" then fault("anim.stagger expects a list of plans and an interval") end
  local interval = list.interval
  if interval == nil then interval = 0.0
  elseif type(interval) == "number" and interval >= 0 and interval < huge then interval = interval + 0.0
  else interval = number(interval, "interval", "anim.stagger") end
  return { kind = "stagger", interval = interval,
           items = items(list, "anim.stagger", "interval"), src = K.leafsources and site() or nil }
end

K.anim = anim

-- Checks a plan returned by animate (it may have been built by hand).
function K.checkplan(plan, where)
  if type(plan) ~= "table" or not KINDS[plan.kind] then
    error(where .. ": animate must return a plan built with anim.* (or nil)", 0)
  end
  return plan
end
