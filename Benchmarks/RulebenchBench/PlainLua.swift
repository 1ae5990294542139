// The baselines: the same action files run in a bare Lua state, on plain
// tables, by a small harness with no engine. "pure" applies and undoes with
// no checks at all (the speed limit of interpreting these rules); "snapshot"
// is what a hand-written harness does to check undo: deep-copy the whole
// state before each action and deep-compare it after the undo.
import CLua
import Foundation
import Rulebench

enum PlainLua {
    /// Seconds to run the games (each from setup) in a bare Lua state: median of `repeats`.
    static func run(pack: String, options: [String: StateValue], games: [[ActionCall]], mode: String, repeats: Int) throws -> Double {
        guard let L = luaL_newstate() else { throw BenchError("cannot create a Lua state") }
        defer { lua_close(L) }
        luaL_openlibs(L)
        guard luaL_loadbufferx(L, harness, harness.utf8.count, "=harness", "t") == LUA_OK else {
            throw BenchError(String(cString: lua_tolstring(L, -1, nil)))
        }
        let script = "return " + literal(games: games)
        let optionText = "return " + literal(.table(Dictionary(uniqueKeysWithValues: options.map { (StateKey.string($0.key), $0.value) })))
        for argument in [pack, optionText, script, mode, String(repeats)] { lua_pushstring(L, argument) }
        guard lua_pcallk(L, 5, 1, 0, 0, nil) == LUA_OK else {
            throw BenchError("baseline failed: " + String(cString: lua_tolstring(L, -1, nil)))
        }
        return lua_tonumberx(L, -1, nil)
    }

    /// A Lua literal for the games.
    static func literal(games: [[ActionCall]]) -> String {
        "{" + games.map { game in
            "{" + game.map { call in
                "{" + literal(.string(call.name)) + "," + literal(.table(Dictionary(uniqueKeysWithValues: call.params.map { (StateKey.string($0.key), $0.value) }))) + "}"
            }.joined(separator: ",") + "}"
        }.joined(separator: ",\n") + "}"
    }

    static func literal(_ value: StateValue) -> String {
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return "\(d)"
        case .string(let s): return "\"" + s.unicodeScalars.map { $0.isASCII && $0.value >= 32 && $0 != "\"" && $0 != "\\" ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
        case .table(let table):
            return "{" + table.map { key, item in
                switch key {
                case .int(let i): return "[\(i)]=" + literal(item)
                case .string(let s): return "[" + literal(.string(s)) + "]=" + literal(item)
                }
            }.joined(separator: ",") + "}"
        }
    }

    /// The kernel's generator, `Sources/Rulebench/Kernel/splitmix.lua`, read
    /// from the repository the benchmark runs in (it runs from the root, as
    /// it reads the packs there).
    static let splitMix: String = {
        let path = "Sources/Rulebench/Kernel/splitmix.lua"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            fatalError("cannot read \(path): run rulebench-bench from the repository's root")
        }
        return text
    }()

    /// The Lua both harnesses start with (after reading their arguments,
    /// `dir` among them): the rulebench module on plain tables, with the
    /// engine's own generator (so a pack that draws random numbers plays the
    /// same game), and the globals the pack's files load in. `GAME` is the
    /// game math.random draws for.
    static let prelude = #"""
-- the rulebench module on plain tables: the kernel's generator, no journal
local mix, splitmix
do
  local generator = (function(...)
"""# + splitMix + #"""
  end)({})
  mix, splitmix = generator.mix, generator.splitmix
end
local function copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = copy(x) end
  return out
end
local R = { copy = copy }
function R.random(game, m, n)
  local bits
  game._rng, bits = splitmix(game._rng)
  if m == nil then return (bits >> 11) * 0x1p-53 end
  if n == nil then m, n = 1, m end
  return m + (bits >> 11) % (n - m + 1)
end
function R.shuffle(game, list)
  for i = #list, 2, -1 do
    local j = R.random(game, 1, i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

local GAME                      -- the game being played, for math.random
local env = setmetatable({}, { __index = _G })
local modules = { rulebench = R }
env.require = function(name)
  if modules[name] == nil then
    modules[name] = assert(loadfile(dir .. "/" .. name:gsub("%.", "/") .. ".lua", "t", env))(name) or true
  end
  return modules[name]
end
env.math = setmetatable({ random = function(m, n) return R.random(GAME, m, n) end }, { __index = math })
"""#

    static let harness = #"""
local dir, optionText, script, mode, repeats = ...
repeats = tonumber(repeats)
local options = load(optionText)()
local games = load(script)()

"""# + prelude + #"""
local pack = assert(loadfile(dir .. "/pack.lua", "t", env))()
local actions = {}
for name in io.popen('ls "' .. dir .. '/actions"'):lines() do
  if name:match("%.lua$") then actions[name:sub(1, -5)] = assert(loadfile(dir .. "/actions/" .. name, "t", env))() end
end
-- An option is `name = default`, or a table `{ type = ..., default = ... }`.
for k, v in pairs(pack.options or {}) do
  if type(v) == "table" then v = copy(v.default) end
  if options[k] == nil then options[k] = v end
end

local ACT = {}
ACT.__index = ACT
function ACT:sub(name, params) self.queue[#self.queue + 1] = { name, copy(params or {}) } end

local function apply(game, name, params)
  local def = actions[name]
  local a = copy(params)
  if def.check then def.check(game, a) end
  local act = setmetatable({ queue = {} }, ACT)
  def.apply(game, a, act)
  local subs = {}
  for i, q in ipairs(act.queue) do subs[i] = apply(game, q[1], q[2]) end
  return { def = def, a = a, subs = subs }
end

local function undo(game, rec)
  for i = #rec.subs, 1, -1 do undo(game, rec.subs[i]) end
  if rec.def.undo then rec.def.undo(game, rec.a) end
end

local function undoable(rec)
  if not rec.def.undo then return false end
  for _, s in ipairs(rec.subs) do if not undoable(s) then return false end end
  return true
end

local function same(x, y)
  if type(x) ~= "table" or type(y) ~= "table" then return x == y end
  for k, v in pairs(x) do if not same(v, y[k]) then return false end end
  for k in pairs(y) do if x[k] == nil then return false end end
  return true
end

local function newgame()
  local game = { _rng = mix(3 ~ 0x5eed5eed5eed5eed) }
  GAME = game
  if pack.setup then pack.setup(game, copy(options)) end
  return game
end

local times = {}
for r = 1, repeats do
  local total = 0
  for _, calls in ipairs(games) do
    local game = newgame()
    local start = os.clock()
    for _, call in ipairs(calls) do
      local name, params = call[1], call[2]
      if mode == "snapshot" then
        local before = copy(game)
        local rec = apply(game, name, params)
        if undoable(rec) then
          undo(game, rec)
        else
          for k in pairs(game) do game[k] = nil end
          for k, v in pairs(copy(before)) do game[k] = v end
        end
        if not same(before, game) then error("undo of " .. name .. " did not restore the state") end
        apply(game, name, params)
      else
        local rec = apply(game, name, params)
        if undoable(rec) then
          undo(game, rec)
          apply(game, name, params)
        end
      end
    end
    total = total + (os.clock() - start)
  end
  times[r] = total
end
table.sort(times)
return times[(#times + 1) // 2]
"""#
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
