-- How a fuzz run picks its next step: the seeded generator (SplitMix64,
-- bit for bit Swift's FuzzRandom), the random choice of a step (a legal
-- call, an illegal attempt, an undo, a redo, a take-back), and the guided
-- search's choice of rare kinds of move (the session's play counts, the
-- swarm's kinds left out).
--
-- It owns only the choosing: fuzz.lua plays and checks the chosen steps.
-- Its invariant: a run's choices depend only on its seed, the legal calls
-- offered and the session's play counts, and a fuzz call rolled back takes
-- its counts back (forgetplays), so it chooses the same when it runs again.
-- fuzz.lua reaches it through M.choose.

-- Receives: core, splitmix, engine (KernelSource.swift).
-- Returns its table `M`.
local core, splitmix, engine = ...
local M = {}
local encode = core.encode
local valuehash = core.C.valuehash
local next, setmetatable = next, setmetatable
local ult, sort = math.ult, table.sort

---------------------------------------------------------------- choices
-- SplitMix64 (splitmix.lua), bit for bit the generator of Swift's
-- FuzzRandom, so a run's choices depend only on its seed. Lua's integers
-- wrap like UInt64; only comparison and remainder need care.
local Random = {}
Random.__index = Random
local splitmix = splitmix.splitmix

local function newrandom(seed) return setmetatable({ state = seed }, Random) end

function Random:next()
  local bits
  self.state, bits = splitmix(self.state)
  return bits
end

-- x mod b for x read as unsigned 64 bits and 0 < b < 2^62.
local function umod(x, b)
  if x >= 0 then return x % b end
  local r = x - (((x >> 1) // b) << 1) * b    -- in [0, 2b): exact, it fits
  return r >= b and r - b or r
end

-- A number in 0..<bound, without modulo bias (rejection sampling).
function Random:below(bound)
  local limit = -1 - umod(-1, bound)            -- UInt64.max - UInt64.max % bound
  local x = self:next()
  while not ult(x, limit) do x = self:next() end
  return umod(x, bound)
end

-- True with probability p.
function Random:chance(p)
  return (self:next() >> 11) * 0x1p-53 < p
end

M.fuzzrandom = newrandom

---------------------------------------------------------------- the random game
local function copy(t)
  local out = {}
  for k, v in next, t do out[k] = v end
  return out
end

-- A call that is probably illegal: a legal one with one param swapped for
-- another legal call's value, or another action's name with its params.
local function swapped(random, legal)
  local call = legal[1 + random:below(#legal)]
  local donor = legal[1 + random:below(#legal)]
  if random:chance(0.3) then return donor.name, call.params end
  local keys, n = core.sortedkeys(call.params)
  if n == 0 then return call.name, call.params end
  local key = keys[1 + random:below(n)]
  -- The donor's values in a stable order: by their encoding.
  local values = {}
  for _, v in next, donor.params do values[#values + 1] = { encode(v), v } end
  sort(values, function(a, b) return a[1] < b[1] end)
  local params = copy(call.params)
  if #values > 0 then
    params[key] = values[1 + random:below(#values)][2]
  else
    params[key] = random:below(20) - 5
  end
  return call.name, params
end

-- What authors guard against: a param outside the values `legal` emits
-- (a column past the last, a token nobody has) or of another type than the
-- action declares (a string where it takes an integer). The values are
-- those the action's legal calls carry now; the type is the declared one
-- (`params = { column = "integer" }`), else that of the values. Returns
-- the call and its kind, "range" or "type"; nil when the call has no param
-- to bend (the swap above is tried instead).
local function typeof(v)
  local t = type(v)
  if t == "number" then return math.type(v) end
  return t
end

local function emitted(legal, name, key)
  local out = {}
  for i = 1, #legal do
    local call = legal[i]
    if call.name == name and call.params[key] ~= nil then out[#out + 1] = call.params[key] end
  end
  return out
end

-- A value of type `base` that none of `values` is; nil when none is made.
local function outside(random, base, values)
  if base == "integer" or base == "number" then
    local low, high
    for i = 1, #values do
      local v = values[i]
      if type(v) == "number" then
        if not low or v < low then low = v end
        if not high or v > high then high = v end
      end
    end
    if not low then return random:below(2) == 0 and 0 or -1 end
    if random:below(2) == 0 then return high < math.maxinteger and high + 1 or nil end
    return low > math.mininteger and low - 1 or nil
  end
  if base == "string" then
    local v = values[1 + random:below(#values)]
    return random:below(2) == 0 and "" or (type(v) == "string" and v or "") .. "?"
  end
  return nil
end

-- A value that is not of type `base`, shaped from `value` (an emitted one).
local function mistyped(random, base, value)
  if base == "integer" then return random:below(2) == 0 and tostring(value) or 0.5 end
  if base == "number" then return tostring(value) end
  if base == "string" then return random:below(2) == 0 and 1 or true end
  if base == "boolean" then return tostring(value) end
  if base == "table" then return "table" end
  return nil
end

local function bent(random, legal)
  local call = legal[1 + random:below(#legal)]
  local keys, n = core.sortedkeys(call.params)
  if n == 0 then return nil end
  local key = keys[1 + random:below(n)]
  local def = engine.ops.pack().actions[call.name]
  local declared = def and def.spec and def.spec.types[key]
  local value = call.params[key]
  local base = (declared and declared ~= "any") and declared or typeof(value)
  local kind, v = "range", nil
  if random:below(5) < 3 then v = outside(random, base, emitted(legal, call.name, key)) end
  if v == nil and declared ~= "any" then kind, v = "type", mistyped(random, base, value) end
  if v == nil then return nil end
  local params = copy(call.params)
  params[key] = v
  return call.name, params, kind
end

-- The bent calls draw from a generator of their own (`SIDE`, seeded from
-- the run's seed in `begin`), and are tried beside the step, rolled back
-- whatever comes of them (fuzz.lua's probe): a seed plays the very steps
-- it played before there were bent calls.
local SIDE

-- An illegal attempt: a swapped param, and four times in ten a bent call
-- ({ name, params, kind }) to try beside it.
local function illegal(random, legal)
  local name, params = swapped(random, legal)
  if SIDE:below(10) < 4 then
    local bname, bparams, kind = bent(SIDE, legal)
    if bname then return name, params, { name = bname, params = bparams, kind = kind } end
  end
  return name, params, nil
end

-- Rare kinds first: the guided search's choice of a legal call. Uniform
-- choice plays a kind of move in proportion to how many calls of it are
-- offered, so a kind offered once among forty calls (an en-passant capture,
-- a flight that takes a passenger along) is seldom played even when it is
-- there. A call's kind is where the rules emitted it, its site (engine.lua,
-- engine.emitsites): the lines that called emit, so each branch of a move
-- generator is a kind of its own. A kind never played in the session is
-- played as soon as it is offered; otherwise a kind is drawn with odds
-- inversely proportional to how often it was played. Within the kind, a
-- call played least often so far wins (ties drawn at random), so play
-- keeps reaching new params: a pawn one rank further, a tile not yet
-- visited.
local KINDPLAYS = {}   -- site -> calls of that kind chosen this session
local CALLPLAYS = {}   -- site -> params hash -> times that call was chosen
local TRACKED = 0      -- calls in CALLPLAYS (forgotten past 200,000)
-- The counts the current fuzz call added, as (table, key, added) triples:
-- a call that runs again (see API.fuzzabort) must choose as it did the
-- first time. The first SHARED triples are the other workers' plays
-- (begin), not this call's own.
local COUNTED = {}
local SHARED = 0

local function addplays(counts, key, added)
  local n = counts[key] or 0
  counts[key] = n + added
  COUNTED[#COUNTED + 1] = counts
  COUNTED[#COUNTED + 1] = key
  COUNTED[#COUNTED + 1] = added
  return n
end

local function countplay(counts, key) return addplays(counts, key, 1) end

-- Takes back the counts of a fuzz call that is rolled back.
local function forgetplays()
  for i = #COUNTED - 2, 1, -3 do
    local counts, key = COUNTED[i], COUNTED[i + 1]
    local n = counts[key] - COUNTED[i + 2]
    counts[key] = n > 0 and n or nil
    if n <= 0 and counts ~= KINDPLAYS then TRACKED = TRACKED - 1 end
  end
  COUNTED, SHARED = {}, 0
end

-- The kinds this fuzz call played, { site, plays, ... } (sites in the
-- order first played): what a worker of a parallel session tells the others.
local function played()
  local plays, order = {}, {}
  for i = SHARED * 3 + 1, #COUNTED, 3 do
    local site = COUNTED[i + 1]
    if COUNTED[i] == KINDPLAYS then
      if not plays[site] then order[#order + 1] = site end
      plays[site] = (plays[site] or 0) + COUNTED[i + 2]
    end
  end
  local out = {}
  for i = 1, #order do out[#out + 1] = order[i]; out[#out + 1] = plays[order[i]] end
  return out
end

local function leastplayed(random, site, list)
  local plays = CALLPLAYS[site]
  if not plays then plays = {}; CALLPLAYS[site] = plays end
  local keys, least, ties = {}, nil, 0
  for i = 1, #list do
    local key = valuehash(list[i].params)
    keys[i] = key
    local n = plays[key] or 0
    if not least or n < least then least, ties = n, 0 end
    if n == least then ties = ties + 1 end
  end
  local pick = random:below(ties)
  for i = 1, #list do
    if (plays[keys[i]] or 0) == least then
      if pick == 0 then
        if countplay(plays, keys[i]) == 0 then TRACKED = TRACKED + 1 end
        return list[i]
      end
      pick = pick - 1
    end
  end
end

-- The kinds offered (sites in the order legal first emitted them) and each one's calls.
local function kindsof(legal)
  local kinds, calls = {}, {}
  for i = 1, #legal do
    local call = legal[i]
    local site = call.site
    local list = calls[site]
    if not list then
      list = {}
      calls[site] = list
      kinds[#kinds + 1] = site
    end
    list[#list + 1] = call
  end
  return kinds, calls
end

-- Kinds a swarm run leaves out (site -> true; nil: none), drawn at the
-- start of the run among the kinds played before it (see leaveout).
local LEFTOUT

-- The offered kinds less those left out, unless that leaves none: a game
-- whose only legal moves are left out goes on with them.
local function keptkinds(kinds)
  if not LEFTOUT then return kinds end
  local kept = {}
  for i = 1, #kinds do
    if not LEFTOUT[kinds[i]] then kept[#kept + 1] = kinds[i] end
  end
  return #kept > 0 and kept or kinds
end

-- A swarm of kinds: each kind played so far is left out of this run with
-- even odds. Leaving out whole actions cannot keep a resource for later:
-- a flight never played with a passenger is played as soon as the
-- jetpack is drawn, alone, and the card is gone. Leaving out the kind
-- "fly alone" keeps the card until a passenger stands by, when the new
-- kind "fly with a passenger" is offered and played.
local function leaveout(random)
  local known = {}
  for site in pairs(KINDPLAYS) do known[#known + 1] = site end
  table.sort(known)
  LEFTOUT = {}
  for i = 1, #known do
    if random:below(2) == 0 then LEFTOUT[known[i]] = true end
  end
end

local function rarecall(random, legal)
  if TRACKED > 200000 then CALLPLAYS, TRACKED, COUNTED, SHARED = {}, 0, {}, 0 end
  local kinds, calls = kindsof(legal)
  kinds = keptkinds(kinds)
  local new, total = {}, 0
  for i = 1, #kinds do
    local plays = KINDPLAYS[kinds[i]]
    if plays then total = total + 1 / plays else new[#new + 1] = kinds[i] end
  end
  local site
  if #new > 0 then
    site = new[1 + random:below(#new)]
  else
    local r = (random:next() >> 11) * 0x1p-53 * total
    site = kinds[#kinds]
    for i = 1, #kinds do
      r = r - 1 / KINDPLAYS[kinds[i]]
      if r < 0 then site = kinds[i]; break end
    end
  end
  countplay(KINDPLAYS, site)
  return leastplayed(random, site, calls[site])
end

-- The next step of a random game, or nil when the game is over and
-- nothing can be undone. Mostly a legal action (uniform among them, or
-- rare kinds first with `rare`); sometimes an undo or redo of one to three
-- steps, an undo to the last checkpoint ("turn"), a take-back of the last
-- turn ("lastturn", `undo: last turn`: in a game whose every move is a
-- checkpoint the only undo of a whole turn), or an attempt.
local function choose(random, legal, cursor, count, rare)
  local canundo, canredo = cursor > 0, cursor < count
  local roll = random:below(100)
  if roll < 10 and canundo then return { op = "undo", n = 1 + random:below(3) } end
  if roll < 16 and canredo then return { op = "redo", n = 1 + random:below(3) } end
  if roll < 19 and canundo then return { op = "turn" } end
  if roll < 21 and canundo then return { op = "lastturn" } end
  if roll < 29 and #legal > 0 then
    local name, params, bent = illegal(random, legal)
    return { op = "try", name = name, params = params, bent = bent }
  end
  if #legal > 0 then
    local call = rare and rarecall(random, legal) or legal[1 + random:below(#legal)]
    return { op = "do", name = call.name, params = call.params }
  end
  if canundo then return { op = "undo", n = 1 + random:below(3) } end
  return nil
end

-- A random legal call of action `name` ({ op = "any", name }: the guided
-- search's "the same action, other params"), or nil when it has none.
local function anycall(random, legal, name)
  local of = {}
  for i = 1, #legal do
    if legal[i].name == name then of[#of + 1] = legal[i] end
  end
  if #of == 0 then return nil end
  local call = of[1 + random:below(#of)]
  return { op = "do", name = call.name, params = call.params }
end

-- Readies the choice for a run: a swarm run (guided, with `leaveout`)
-- draws the kinds it leaves out; the counts a rolled-back call would take
-- back start empty.
-- `shared` ({ site, plays, ... }: the other workers' plays of a parallel
-- session, or nil) is counted first, so the kinds they played are not new
-- here either.
local function begin(random, rare, swarm, shared)
  SIDE = newrandom(random.state ~ 0x6a09e667f3bcc909)
  COUNTED = {}
  shared = shared or {}
  for i = 1, #shared - 1, 2 do addplays(KINDPLAYS, shared[i], shared[i + 1]) end
  SHARED = #COUNTED // 3
  LEFTOUT = nil
  if rare and swarm then leaveout(random) end
end

M.choose = { newrandom = newrandom, begin = begin, step = choose, anycall = anycall, forgetplays = forgetplays,
             played = played }

return M
