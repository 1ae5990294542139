-- Kernel tests: the protocol between Swift and the kernel. Swift declares
-- its side (Kernel/KernelEntry.swift: each entry point with its mode and
-- restart policy; Kernel/KernelWords.swift: the words inside requests and
-- replies, every group of them) and the runner hands it in as `swift`; the kernel declares its
-- words in Kernel/protocol.lua. Both sides must name the same things.
local K, API, swift = ...
assert(type(swift) == "table" and swift.entries and swift.words, "the runner hands in the protocol as Swift declares it")

-- Every entry point Swift calls is a function of the kernel's API.
local count = 0
for name, row in next, swift.entries do
  count = count + 1
  assert(type(API[name]) == "function", "Swift calls '" .. name .. "', which the kernel does not define")
  assert(row.mode == "rules" or row.mode == "bookkeeping", name .. ": unknown mode " .. tostring(row.mode))
  if row.restart ~= "never" then
    -- Only rule calls run watched, and what rolls them back is the kernel's own bookkeeping.
    assert(row.mode == "rules", name .. " runs watched but is not a rule call")
    if row.abort then
      local abort = swift.entries[row.abort]
      assert(abort and abort.mode == "bookkeeping", name .. ": its abort '" .. row.abort .. "' is not a bookkeeping entry")
    end
  end
  if row.restart == "operations" then assert(row.abort, name .. ": a loop needs its own abort") end
end
assert(count > 0, "the protocol lists the entry points")

-- Every function of the API is an entry Swift calls (no name Swift types
-- twice, none it lost), but for those only these tests call: `depth`, and
-- `commit` (every operation commits itself; a second commit does nothing).
local TESTS_ONLY = { depth = true, commit = true }
for name, f in next, API do
  if type(f) == "function" and not TESTS_ONLY[name] then
    assert(swift.entries[name], "the kernel defines API." .. name .. ", which Swift's KernelEntry does not name")
  end
end

-- The words: the same groups, each the same set on both sides.
local function set(list)
  local out = {}
  for _, word in ipairs(list) do
    assert(not out[word], "the word '" .. word .. "' is listed twice")
    out[word] = true
  end
  return out
end
for group, words in next, K.WORDS do
  assert(swift.words[group], "the kernel's word group '" .. group .. "' is unknown to Swift")
  assert(same(set(words), set(swift.words[group])), "the words of '" .. group .. "' differ: kernel "
    .. table.concat(words, ",") .. " / Swift " .. table.concat(swift.words[group], ","))
end
for group in next, swift.words do assert(K.WORDS[group], "Swift's word group '" .. group .. "' is unknown to the kernel") end

-- The words are the ones the kernel uses: a program of every op runs (an
-- op the loop does not know would fail the run), and its outcomes' kinds
-- and a finding's property are listed words.
local words = {}
for group, list in next, K.WORDS do words[group] = set(list) end
API.definepack("p", "p", "p/pack.lua", [[return { name = "p", setup = function(g) g.n = 0 end }]])
API.addaction("p", "inc", "p/actions/inc.lua", [[return { apply = function(g) g.n = g.n + 1 end,
  legal = function(g, emit) emit({}) end, checkpoint = true }]])
API.addaction("p", "bad", "p/actions/bad.lua", [[return { apply = function(g) g.n = g.n + 1 end,
  undo = function(g) end }]])
API.finishpack("p", "")
API.newgame("p", "1", K.encode({}))
API.commit()
local program = {
  { op = "do", name = "inc", params = {} }, { op = "any", name = "inc" }, { op = "try", name = "inc", params = {} },
  { op = "undo", n = 1 }, { op = "redo", n = 1 }, { op = "turn" }, { op = "do", name = "nope", params = {} },
}
local request = {}
for word in next, words.request do request[word] = false end
request.program, request.choices, request.depth = program, 7, #program
local reply = K.decode((API.fuzz(K.encode(request))))
assert(reply.finding and words.property[reply.finding.property], "the unknown action is a finding with a listed property")
for _, outcome in ipairs(reply.outcomes) do assert(words.outcome[outcome.kind], tostring(outcome.kind)) end
assert(#reply.outcomes == #program, "every op ran, the unknown action last: " .. #reply.outcomes)
for _, step in ipairs(reply.steps) do assert(words.op[step.op], tostring(step.op)) end
assert(words.cause[reply.finding.failure.cause], tostring(reply.finding.failure.cause))
API.fuzzabort()

-- The kernel's own checks of a word take it from the table: every easing
-- is one a tween accepts, in C (animcore.c) and in Lua (anim.lua's reference
-- builders, which C hands a table with a metatable), and nothing else is.
local function tween(easing, slow)
  local spec = { target = "t", property = "x", to = 1, duration = 1, easing = easing }
  if slow then setmetatable(spec, {}) end
  return pcall(K.anim.tween, spec)
end
for _, slow in ipairs({ false, true }) do
  for _, easing in ipairs(K.WORDS.easing) do
    local ok, plan = tween(easing, slow)
    assert(ok and plan.easing == easing, "a tween refuses the easing '" .. easing .. "': " .. tostring(plan))
  end
  assert(not tween("easeSideways", slow), "a tween accepts an easing the protocol does not list")
end
