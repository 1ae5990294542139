// The perft baseline: the walk of `rulebench explore` (every legal action
// sequence up to a depth, each performed and undone) done by a small
// harness in a bare Lua state on plain tables, with no engine, no journal
// and no undo verification. It runs the same pack files, so the engine's
// explore rate over this one is the price of reading and writing state
// through the engine. It owns only that harness; PlainLua.swift holds the
// baselines for fixed games.
import CLua
import Foundation

enum PlainPerft {
    /// Perft of `pack` (a pack folder) to `depth`, with the pack's default
    /// options: the total number of action sequences of length 1...depth
    /// (what `rulebench explore` prints as total), and the nodes per second
    /// of the median of `repeats` walks.
    static func nodesPerSecond(pack: String, depth: Int, repeats: Int) throws -> (nodes: Int, perSecond: Double) {
        let files = try FileManager.default.contentsOfDirectory(atPath: pack + "/actions")
        let actions = files.filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }
        guard let L = luaL_newstate() else { throw BenchError("cannot create a Lua state") }
        defer { lua_close(L) }
        luaL_openlibs(L)
        guard luaL_loadbufferx(L, harness, harness.utf8.count, "=perft", "t") == LUA_OK else {
            throw BenchError(String(cString: lua_tolstring(L, -1, nil)))
        }
        for argument in [pack, actions.joined(separator: "\n"), String(depth), String(repeats)] { lua_pushstring(L, argument) }
        guard lua_pcallk(L, 4, 2, 0, 0, nil) == LUA_OK else {
            throw BenchError("perft baseline failed: " + String(cString: lua_tolstring(L, -1, nil)))
        }
        let nodes = Int(lua_tointegerx(L, -2, nil))
        let seconds = lua_tonumberx(L, -1, nil)
        return (nodes, Double(nodes) / max(seconds, 1e-9))
    }

    static let harness = #"""
local dir, names, depth, repeats = ...
depth, repeats = tonumber(depth), tonumber(repeats)

"""# + PlainLua.prelude + #"""

local pack = assert(loadfile(dir .. "/pack.lua", "t", env))()
-- the engine offers legal actions in the sorted order of their names
local order, actions = {}, {}
for name in names:gmatch("[^\n]+") do order[#order + 1] = name end
table.sort(order)
for _, name in ipairs(order) do
  actions[name] = assert(loadfile(dir .. "/actions/" .. name .. ".lua", "t", env))()
end
local options = {}   -- `name = default`, or `{ type = ..., default = ... }`
for k, v in pairs(pack.options or {}) do
  if type(v) == "table" then v = v.default end
  options[k] = copy(v)
end

-- perform: check (a refusal is a bug in the pack's legal), apply, then the
-- queued subactions in order, each performed the same way
local ACT = {}
ACT.__index = ACT
function ACT:sub(name, params) self.queue[#self.queue + 1] = { name, copy(params or {}) } end

local function perform(game, name, params)
  local def = actions[name]
  local a = copy(params)
  if def.check then
    local reason = def.check(game, a)
    if reason then error(name .. " offered by legal but refused: " .. tostring(reason)) end
  end
  local act = setmetatable({ queue = {} }, ACT)
  def.apply(game, a, act)
  local subs = {}
  for i, q in ipairs(act.queue) do subs[i] = perform(game, q[1], q[2]) end
  return { name = name, def = def, a = a, subs = subs }
end

-- undo as the engine does: subactions in reverse, then the action's own
-- undo (perft needs every action to declare one: there is no journal here)
local function undo(game, rec)
  for i = #rec.subs, 1, -1 do undo(game, rec.subs[i]) end
  if not rec.def.undo then error("perft needs every action to declare an undo; " .. rec.name .. " does not") end
  rec.def.undo(game, rec.a)
end

local function legal(game)
  local calls = {}
  for _, name in ipairs(order) do
    local def = actions[name]
    if def.legal then
      def.legal(game, function(params) calls[#calls + 1] = { name, copy(params) } end)
    end
  end
  return calls
end

-- counts[d] is the number of action sequences of length d, as explore prints
local function visit(game, level, counts)
  if level > depth then return end
  for _, call in ipairs(legal(game)) do
    local rec = perform(game, call[1], call[2])
    counts[level] = counts[level] + 1
    visit(game, level + 1, counts)
    undo(game, rec)
  end
end

local nodes, times = 0, {}
for r = 1, repeats do
  -- explore's default seed is 1; the engine seeds with mix(seed ~ 0x5eed...)
  local game = { _rng = mix(1 ~ 0x5eed5eed5eed5eed) }
  GAME = game
  if pack.setup then pack.setup(game, copy(options)) end
  local counts = {}
  for d = 1, depth do counts[d] = 0 end
  local start = os.clock()
  visit(game, 1, counts)
  times[r] = os.clock() - start
  nodes = 0
  for d = 1, depth do nodes = nodes + counts[d] end
end
table.sort(times)
return nodes, times[(#times + 1) // 2]
"""#
}
