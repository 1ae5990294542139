// The game-value search's baseline: negamax with alpha-beta and a
// transposition table done by a small harness in a bare Lua state on plain
// tables, over the same pack files, with no engine, no journal and no
// checks beyond the rule's own `check`. Each child is a deep copy with the
// move applied, keyed by a canonical text of its contents (PlainSearch's
// key); each root move is searched with the whole window, as `solve
// --value` does. It owns only that harness.
import CLua
import Foundation

enum PlainNegamax {
    /// What the plain search found: the best root value for the seat to
    /// move (1 win, 0 draw, -1 loss), the states searched, and the seconds
    /// of the median of `repeats` searches.
    struct Result {
        let value: Int
        let nodes: Int
        let seconds: Double
    }

    /// The value of `pack`'s setup with `options` (text values as the pack takes them).
    static func value(pack: String, options: [String: String], repeats: Int) throws -> Result {
        let files = try FileManager.default.contentsOfDirectory(atPath: pack + "/actions")
        let actions = files.filter { $0.hasSuffix(".lua") }.map { String($0.dropLast(4)) }
        guard let L = luaL_newstate() else { throw BenchError("cannot create a Lua state") }
        defer { lua_close(L) }
        luaL_openlibs(L)
        let source = PlainSearch.harness.components(separatedBy: "local function search()")[0] + harness
        guard luaL_loadbufferx(L, source, source.utf8.count, "=plainnegamax", "t") == LUA_OK else {
            throw BenchError(String(cString: lua_tolstring(L, -1, nil)))
        }
        let optionText = "return {" + options.map { "[\(PlainLua.literal(.string($0.key)))]=\(PlainLua.literal(.string($0.value)))" }
            .joined(separator: ",") + "}"
        for argument in [pack, actions.joined(separator: "\n"), optionText, "", String(repeats)] { lua_pushstring(L, argument) }
        guard lua_pcallk(L, 5, 3, 0, 0, nil) == LUA_OK else {
            throw BenchError("plain negamax failed: " + String(cString: lua_tolstring(L, -1, nil)))
        }
        return Result(value: Int(lua_tointegerx(L, -3, nil)), nodes: Int(lua_tointegerx(L, -2, nil)), seconds: lua_tonumberx(L, -1, nil))
    }

    /// The search, appended to PlainSearch's harness (its loading, perform,
    /// legal and key; the goal it looks up is not used).
    static let harness = #"""
local EXACT, LOWER, UPPER = 0, 1, 2
local nodes, tt

-- The value of a finished game for `seat`, or nil while play goes on.
local function final(game, seat)
  local r = pack.result(game)
  if r == nil then return nil end
  if r == "draw" then return 0 end
  if type(r) == "string" then return r == seat and 1 or -1 end
  return r[seat]
end

local negamax

-- The value for `seat` of `call` played from `game`, searched within (alpha, beta).
local function child(game, call, seat, alpha, beta)
  local c = copy(game)
  GAME = c
  perform(c, call[1], call[2])
  local v = final(c, seat)
  if v ~= nil then return v end
  local who = pack.turn(c)
  if who == seat then return negamax(c, who, alpha, beta) end
  return -negamax(c, who, -beta, -alpha)
end

function negamax(game, seat, alpha, beta)
  nodes = nodes + 1
  local k = key(game)
  local e = tt[k]
  if e and (e.bound == EXACT or (e.bound == LOWER and e.v >= beta) or (e.bound == UPPER and e.v <= alpha)) then return e.v end
  local start, best = alpha, -math.huge
  for _, call in ipairs(legal(game)) do
    local v = child(game, call, seat, alpha, beta)
    if v > best then best = v end
    if v > alpha then alpha = v end
    if alpha >= beta then break end
  end
  tt[k] = { v = best, bound = best <= start and UPPER or best >= beta and LOWER or EXACT }
  return best
end

local function search()
  local start = { _rng = mix(0 ~ 0x5eed5eed5eed5eed) }
  GAME = start
  if pack.setup then pack.setup(start, copy(options)) end
  nodes, tt = 0, {}
  local seat, best = pack.turn(start), -math.huge
  for _, call in ipairs(legal(start)) do
    local v = child(start, call, seat, -math.huge, math.huge)
    if v > best then best = v end
  end
  return best, nodes
end

local times, value, count = {}, nil, nil
for r = 1, repeats do
  local start = os.clock()
  value, count = search()
  times[r] = os.clock() - start
end
table.sort(times)
return value, count, times[(#times + 1) // 2]
"""#
}
