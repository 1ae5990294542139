-- The `rulebench` module rules see: the game's random generator (its state
-- lives in the game, at game._rng, so undo and replay restore it), shuffle
-- and copy; and the generator a pack's `generate(rng, params)` is handed
-- (`M.generator`: the same SplitMix64 and the same draws, its state kept in
-- the generator itself, since no game exists yet).
--
-- Invariant: every number the generator gives comes from the state it
-- keeps in the game and nothing else (no clock, no address), so the same
-- seed and the same actions give the same numbers in every process.

-- Receives: core, splitmix, state (KernelSource.swift).
-- Returns its table `M`.
local core, splitmix, state = ...
local M = {}
local error, tointeger = error, math.tointeger
local math_type = math.type

local RNG = "_rng"
M.RNG = RNG             -- the key of the generator's state (engine.lua seeds it)
local R = {}

-- A whole number m..n from `nextbits`, a function giving 64 random bits:
-- the one rule for turning bits into a bounded draw (no modulo bias).
local function bounded(nextbits, m, n)
  if n == nil then m, n = 1, m end
  m, n = tointeger(m), tointeger(n)
  if not m or not n then error(core.where(3) .. "random: bounds must be whole numbers", 0) end
  if m > n then error(core.where(3) .. "random: empty interval [" .. m .. ", " .. n .. "]", 0) end
  local range = n - m + 1
  if range <= 0 or range > (1 << 53) then error(core.where(3) .. "random: interval too large", 0) end
  local limit = (1 << 53) - (1 << 53) % range
  local x = nextbits() >> 11
  while x >= limit do x = nextbits() >> 11 end
  return m + x % range
end

-- Fisher-Yates with a draw function `random(1, i)`; returns list.
local function shuffled(random, list)
  for i = #list, 2, -1 do
    local j = random(1, i)
    if i ~= j then list[i], list[j] = list[j], list[i] end
  end
  return list
end

local function nextbits(game)
  if game ~= state.game() then
    error(core.where(2) .. "pass the game (the root state table) to the random generator", 0)
  end
  local s = state.backing(game)[RNG]
  if math_type(s) ~= "integer" then
    error(core.where(2) .. "the random generator's state (game." .. RNG .. ") is missing or damaged", 0)
  end
  local bits
  s, bits = splitmix.splitmix(s)
  game[RNG] = s
  return bits
end

-- random(game) -> float in [0, 1); random(game, n) -> 1..n; random(game, m, n) -> m..n
function R.random(game, m, n)
  if m == nil then return (nextbits(game) >> 11) * 0x1p-53 end
  return bounded(function() return nextbits(game) end, m, n)
end

-- shuffle(game, list): Fisher-Yates with the engine's generator; returns list.
function R.shuffle(game, list)
  return shuffled(function(i, j) return R.random(game, i, j) end, list)
end

-- copy(value): a plain deep copy, to store a second copy of a state table.
function R.copy(v) return state.plain(v) end

M.rulebench = R

-- The generator `generate(rng, params)` receives: rng:random() -> [0, 1),
-- rng:random(n) -> 1..n, rng:random(m, n) -> m..n, rng:shuffle(list). Its
-- first state is `seed` mixed as a game's is, so a level's seed gives the
-- same draws in every process; its state lives in a local of this closure,
-- out of reach of the rules, and nothing else feeds it.
function M.generator(seed)
  local s = splitmix.mix(seed ~ 0x5eed5eed5eed5eed)
  local function bits()
    local out
    s, out = splitmix.splitmix(s)
    return out
  end
  local rng = {}
  function rng.random(self, m, n)
    if self ~= rng then error(core.where(2) .. "call the generator's methods with a colon: rng:random(n)", 0) end
    if m == nil then return (bits() >> 11) * 0x1p-53 end
    return bounded(bits, m, n)
  end
  function rng.shuffle(self, list)
    if self ~= rng then error(core.where(2) .. "call the generator's methods with a colon: rng:shuffle(list)", 0) end
    return shuffled(function(i, j) return bounded(bits, i, j) end, list)
  end
  return rng
end

return M
