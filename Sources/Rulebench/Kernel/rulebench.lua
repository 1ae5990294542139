-- The `rulebench` module rules see: the game's random generator (its state
-- lives in the game, at game._rng, so undo and replay restore it), shuffle
-- and copy.
--
-- Invariant: every number the generator gives comes from the state it
-- keeps in the game and nothing else (no clock, no address), so the same
-- seed and the same actions give the same numbers in every process.

local K = ...
local error, tointeger = error, math.tointeger
local math_type = math.type

local RNG = "_rng"
K.RNG = RNG             -- the key of the generator's state (engine.lua seeds it)
local R = {}

local function nextbits(game)
  if game ~= K.game then
    error(K.where(2) .. "pass the game (the root state table) to the random generator", 0)
  end
  local s = K.backing(game)[RNG]
  if math_type(s) ~= "integer" then
    error(K.where(2) .. "the random generator's state (game." .. RNG .. ") is missing or damaged", 0)
  end
  local bits
  s, bits = K.splitmix(s)
  game[RNG] = s
  return bits
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
