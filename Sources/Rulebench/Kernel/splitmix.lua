-- SplitMix64, the kernel's one definition: the generator behind
-- `rulebench.random` and `rulebench.shuffle` (engine.lua) and behind the
-- fuzzer's choices (fuzz.lua), bit for bit Swift's FuzzRandom, so a game's
-- draws and a run's choices depend only on their seeds. Lua's integers wrap
-- like UInt64 and its `>>` is a logical shift, so the arithmetic is exact.
--
-- The chunk returns a table of `mix` (the finalizer) and `splitmix` (one
-- step), for the kernel and for the plain-Lua harness of the benchmarks
-- (Benchmarks/RulebenchBench/PlainLua.swift), which plays the same games
-- without the engine.

-- Receives nothing (the benchmarks' plain-Lua harness loads it too).
-- Returns its table `M`.
local M = {}
local GOLD, M1, M2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb

-- One step of the generator from `state`: the next state and its 64 bits.
-- (The finalizer is written inline: this is the call every draw makes.)
local function splitmix(state)
  state = state + GOLD
  local z = state
  z = (z ~ (z >> 30)) * M1
  z = (z ~ (z >> 27)) * M2
  return state, z ~ (z >> 31)
end

-- The finalizer alone: 64 well-mixed bits of `z` (a game's first state is
-- its seed mixed so).
local function mix(z)
  local _, bits = splitmix(z - GOLD)
  return bits
end

M.mix, M.splitmix = mix, splitmix

return M
