// The solver's baseline: a breadth-first search for a pack's goal done by a
// small harness in a bare Lua state on plain tables, over the same pack
// files, with no engine, no journal and no checks beyond the rule's own
// `check`. Each state is a plain table, each child a deep copy with the
// move applied, keyed by a canonical text of its contents (keys sorted);
// the goal is tested on each new state, as `rulebench solve` does
// breadth-first. It owns only that harness.
import CLua
import Foundation

enum PlainSearch {
    /// What the plain search found: the length of a shortest line (nil:
    /// none, every reachable state searched), the distinct states, and the
    /// seconds of the median of `repeats` searches.
    struct Result {
        let moves: Int?
        let states: Int
        let seconds: Double
    }

    /// Breadth-first search of `pack` (a pack folder) for `goal`, from the
    /// setup with `options` (text values as the pack takes them).
    static func solve(pack: String, options: [String: String], goal: String, repeats: Int) throws -> Result {
        let files = try FileManager.default.contentsOfDirectory(atPath: pack + "/actions")
        let actions = files.filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }
        guard let L = luaL_newstate() else { throw BenchError("cannot create a Lua state") }
        defer { lua_close(L) }
        luaL_openlibs(L)
        guard luaL_loadbufferx(L, harness, harness.utf8.count, "=plainsearch", "t") == LUA_OK else {
            throw BenchError(String(cString: lua_tolstring(L, -1, nil)))
        }
        let optionText = "return {" + options.map { "[\(PlainLua.literal(.string($0.key)))]=\(PlainLua.literal(.string($0.value)))" }
            .joined(separator: ",") + "}"
        for argument in [pack, actions.joined(separator: "\n"), optionText, goal, String(repeats)] { lua_pushstring(L, argument) }
        guard lua_pcallk(L, 5, 3, 0, 0, nil) == LUA_OK else {
            throw BenchError("plain search failed: " + String(cString: lua_tolstring(L, -1, nil)))
        }
        let moves = Int(lua_tointegerx(L, -3, nil))
        return Result(moves: moves < 0 ? nil : moves, states: Int(lua_tointegerx(L, -2, nil)), seconds: lua_tonumberx(L, -1, nil))
    }

    static let harness = #"""
local dir, names, optionText, goalname, repeats = ...
repeats = tonumber(repeats)

"""# + PlainLua.prelude + #"""

local pack = assert(loadfile(dir .. "/pack.lua", "t", env))()
-- the engine offers legal actions in the sorted order of their names
local order, actions = {}, {}
for name in names:gmatch("[^\n]+") do order[#order + 1] = name end
table.sort(order)
for _, name in ipairs(order) do
  actions[name] = assert(loadfile(dir .. "/actions/" .. name .. ".lua", "t", env))()
end
local options = load(optionText)()
for k, v in pairs(pack.options or {}) do
  if type(v) == "table" then v = v.default end
  if options[k] == nil then options[k] = copy(v) end
end
local goal = pack.goals[goalname]
if type(goal) == "table" then goal = goal.holds end

local ACT = {}
ACT.__index = ACT
function ACT:sub(name, params) self.queue[#self.queue + 1] = { name, copy(params or {}) } end

-- check (a refusal is a bug in the pack's legal), apply, then the queued
-- subactions in order, each performed the same way
local function perform(game, name, params)
  local def = actions[name]
  local a = copy(params)
  if def.check then
    local reason = def.check(game, a)
    if reason then error(name .. " offered by legal but refused: " .. tostring(reason)) end
  end
  local act = setmetatable({ queue = {} }, ACT)
  def.apply(game, a, act)
  for _, q in ipairs(act.queue) do perform(game, q[1], q[2]) end
end

local function legal(game)
  local calls = {}
  for _, name in ipairs(order) do
    local def = actions[name]
    if def.legal and not def.internal then
      def.legal(game, function(params) calls[#calls + 1] = { name, copy(params or {}) } end)
    end
  end
  return calls
end

-- A canonical text of a plain value: the list part in order, then the
-- other keys sorted.
local concat, sort, tostring, type, math_type = table.concat, table.sort, tostring, type, math.type
local function text(v, out)
  local t = type(v)
  if t ~= "table" then
    out[#out + 1] = t == "string" and ("%q"):format(v) or (t == "number" and math_type(v) == "float") and ("%a"):format(v) or tostring(v)
    return
  end
  out[#out + 1] = "{"
  local n = #v
  for i = 1, n do text(v[i], out); out[#out + 1] = "," end
  local rest = {}
  for k in next, v do
    if not (math_type(k) == "integer" and k >= 1 and k <= n) then rest[#rest + 1] = k end
  end
  if #rest > 0 then
    sort(rest, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    for _, k in ipairs(rest) do
      text(k, out); out[#out + 1] = "="; text(v[k], out); out[#out + 1] = ","
    end
  end
  out[#out + 1] = "}"
end
local function key(game)
  local out = {}
  text(game, out)
  return concat(out)
end

local function search()
  local start = { _rng = mix(0 ~ 0x5eed5eed5eed5eed) }
  GAME = start
  if pack.setup then pack.setup(start, copy(options)) end
  local seen, count = { [key(start)] = true }, 1
  if goal(start) then return 0, count end
  local layer, depth = { start }, 0
  while #layer > 0 do
    depth = depth + 1
    local nextlayer = {}
    for _, game in ipairs(layer) do
      for _, call in ipairs(legal(game)) do
        local child = copy(game)
        GAME = child
        perform(child, call[1], call[2])
        local k = key(child)
        if not seen[k] then
          seen[k] = true
          count = count + 1
          if goal(child) then return depth, count end
          nextlayer[#nextlayer + 1] = child
        end
      end
    end
    layer = nextlayer
  end
  return -1, count
end

local times, moves, states = {}, nil, nil
for r = 1, repeats do
  local start = os.clock()
  moves, states = search()
  times[r] = os.clock() - start
end
table.sort(times)
return moves, states, times[(#times + 1) // 2]
"""#
}
