-- Coverage of the pack's own Lua: which lines of rule code ran and how
-- often while coverage is on (the C line hook counts them: coverage.c),
-- and which lines the pack has at all, so that a report can name the lines
-- and files a fuzz session never reached.

-- Receives: core, engine, fuzz (KernelSource.swift).
-- Returns its table `M`.
local core, engine, fuzz = ...
local M = {}
local API = core.API
local C = core.C
local debug = core.debug
local type, next, ipairs = type, next, ipairs

-- coverage("1"|"0"|"all"): starts or stops collecting ("all": with the
-- line hook on in kernel code too, for a test that the bracketing of rule
-- calls in engine.lua misses none). Collected counts stay until the Lua
-- state closes.
function API.coverage(on)
  engine.covering(C.coverage(on ~= "0", on == "all"))
  return ""
end

-- The lines of rule code reachable from `roots`: every Lua function of a
-- pack file found through tables and upvalues, with its active lines.
-- Kernel and C functions are not entered (their upvalues lead to the
-- kernel itself). A closure that a function creates only when it runs has
-- no value to find before then; its lines appear once it has run.
local function definedlines(roots)
  local files, seen = {}, {}
  local function visit(v)
    local t = type(v)
    if (t ~= "function" and t ~= "table") or seen[v] then return end
    seen[v] = true
    if t == "table" then
      for k, value in next, v do
        visit(k)
        visit(value)
      end
      return
    end
    local info = debug.getinfo(v, "SL")
    if info.source:sub(1, 1) ~= "@" then return end
    local file = info.source:sub(2)
    local lines = files[file] or {}
    files[file] = lines
    for line in next, info.activelines or {} do lines[line] = true end
    for i = 1, 255 do
      local name, value = debug.getupvalue(v, i)
      if not name then break end
      visit(value)
    end
  end
  for _, root in ipairs(roots) do visit(root) end
  return files
end

-- The roots of a pack and its bases: its compiled files and modules, what
-- they returned, and its globals.
local function roots(pack)
  local list = {}
  while pack do
    list[#list + 1] = pack.manifestchunk
    for _, f in ipairs(pack.actionfiles) do list[#list + 1] = f.chunk end
    list[#list + 1] = pack.compiled
    list[#list + 1] = pack.manifest
    list[#list + 1] = pack.own
    list[#list + 1] = pack.modules
    list[#list + 1] = pack.env
    pack = pack.base
  end
  return list
end

-- coveragereport(): { lines = { [file] = { [line] = count } } (lines run),
-- defined = { [file] = { line, ... } } (lines the pack has), actions =
-- { [name] = { performed, undone, redone } } (the fuzzer's counts).
function API.coveragereport()
  local pack = engine.ops.pack()
  local defined = {}
  if pack then
    for file, lines in next, definedlines(roots(pack)) do
      local list = {}
      for line in next, lines do list[#list + 1] = line end
      table.sort(list)
      defined[file] = list
    end
  end
  return core.encode({ lines = C.coverlines(), defined = defined, actions = fuzz.fuzzcounts() or {} })
end

return M
