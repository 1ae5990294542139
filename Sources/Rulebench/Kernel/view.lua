-- The view of a pack, in Lua: how the state becomes a scene of nodes (what
-- a board shows), and where a tween's values are on that board.
--
-- A pack declares `view` in pack.lua: a function `scene(game, add)`, or a
-- table of it and declarations (grid, size, background, atlases, sounds,
-- places); `grid` and `size` may be functions of the game and its setup
-- options, so a board sized by options draws from one declaration. All run
-- read-only, under the budget, like `render`. Every node
-- is checked where `add` is called, so a bad one is an error at that line;
-- the scene is the nodes in the order they were added (the view's own loops
-- are ordered: `pairs` is), so it is a pure function of the state. Swift
-- (Kernel/Kernel+View.swift, into Kernel/Scene.swift) reads the reply and turns grid places into pixels.

-- Receives: core, protocol, state, sandbox, packload, engine (KernelSource.swift).
-- Returns its table `M`.
local core, protocol, state, sandbox, packload, engine = ...
local M = {}
local SCENESITES   -- the file:line of each node's add in the last scene built (scenesites())
function M.scenesites() return SCENESITES end
local API = core.API
local type, next, error, ipairs, tostring = type, next, error, ipairs, tostring
local plain = state.plain
local math_type, huge = math.type, math.huge
local utf8len = utf8.len
local kmatch = sandbox.match   -- string.match, charged as the rules' is (sandbox.lua)

local VIEW = { scene = "function", places = "table", grid = "shape", size = "shape", background = "string",
               atlases = "table", sounds = "string" }
local GRID = { columns = "integer", rows = "integer", cell = "number", gap = "number", x = "number", y = "number" }
local ATLAS = { image = "string", width = "number", height = "number", count = "integer", columns = "integer",
                names = "table" }
local NODE = { id = true, col = true, row = true, x = true, y = true, w = true, h = true, shape = true,
               color = true, stroke = true, text = true, textcolor = true, image = true, sprite = true,
               layer = true, opacity = true, rotation = true, scale = true, label = true, aliases = true, names = true,
               movable = true }
local SHAPES = protocol.WORDSET.shape
-- The largest coordinate or size a view may give, in pixels: a board far
-- larger than any screen is a mistake, and a bound keeps sums finite.
local LIMIT = 1e6
-- The whole numbers a view may give (layers, grid columns and rows, atlas
-- frame counts) lie within -COUNTS..COUNTS: the page reads numbers beyond
-- 2^53 as big integers, which do not mix with its other numbers.
local COUNTS = 1000000

---------------------------------------------------------------- the declarations
local function viewof(pack)
  local p = pack
  while p do
    local v = p.manifest and p.manifest.view
    if v ~= nil then return v, p end
    p = p.base
  end
end

-- A problem with the declarations: at the line of `field` in pack.lua.
local function declfail(owner, field, message)
  local line = packload.fieldline(owner.source, field) or packload.fieldline(owner.source, "view")
  core.fail("error", message, { file = owner.file, line = line })
end

local KINDS = { integer = "a whole number from -1000000 to 1000000", number = "a number between -1000000 and 1000000",
                shape = "a table, or a function(game, options) returning one" }

local function typed(v, want)
  if want == "shape" then return type(v) == "table" or type(v) == "function" end
  if want == "integer" then return math_type(v) == "integer" and v >= -COUNTS and v <= COUNTS end
  if want == "number" then return type(v) == "number" and v == v and v > -LIMIT and v < LIMIT end
  return type(v) == want
end

local function fields(owner, t, spec, what, required)
  for k, v in next, t do
    local want = spec[k]
    if not want then
      local names = core.sortedkeys(spec)
      declfail(owner, tostring(k), "unknown field '" .. tostring(k) .. "' in " .. what .. core.suggest(tostring(k), names))
    end
    if not typed(v, want) then declfail(owner, k, what .. "." .. k .. " must be " .. (KINDS[want] or "a " .. want) .. ", not " .. core.show(v)) end
  end
  for _, k in ipairs(required or {}) do
    if t[k] == nil then declfail(owner, what:match("[%w_]+$") or k, what .. " needs '" .. k .. "'") end
  end
end

local function positive(owner, v, field, what)
  if v ~= nil and v <= 0 then declfail(owner, field, what .. "." .. field .. " must be positive") end
end

-- A file named inside the pack folder: relative, no way out of it.
local function packpath(v)
  return type(v) == "string" and v ~= "" and utf8len(v) and v:sub(1, 1) ~= "/" and not v:find("\\", 1, true)
    and not ("/" .. v .. "/"):find("/%.%./")
end

-- A CSS colour the page can use as it is, and that can fetch nothing:
-- #rgb, #rrggbb, #rrggbbaa, a name, or rgb()/rgba() of numbers only.
local function iscolour(v)
  return type(v) == "string" and (kmatch(v, "^#%x%x%x$") or kmatch(v, "^#%x%x%x%x%x%x$") or kmatch(v, "^#%x%x%x%x%x%x%x%x$")
    or kmatch(v, "^%a+$") or kmatch(v, "^rgba?%([%d%s,.%%]+%)$")) ~= nil
end

-- An image file of the pack (a background): a pack path with an image's
-- extension, no empty part and no scheme (`https://...` is not a pack path).
local IMAGES = { png = true, jpg = true, jpeg = true, gif = true, webp = true, svg = true }
local function isimage(v)
  if not packpath(v) or v:find("//", 1, true) or v:find(":", 1, true) then return false end
  local extension = v:match("%.(%w+)$")
  return extension ~= nil and IMAGES[extension:lower()] == true
end

-- view.background: a colour, else an image of the pack; anything else (a
-- url(), a gradient, an outside address) is refused at its line in pack.lua.
local function checkbackground(owner, v, info)
  if v == nil then return end
  if iscolour(v) then info.background = v return end
  if isimage(v) then info.backgroundimage = v return end
  declfail(owner, "background", "view.background must be a colour (\"#1e2a38\", \"white\", \"rgb(30, 42, 56)\") "
    .. "or an image of the pack (\"art/board.png\"), not " .. core.show(v))
end

local function checkatlases(owner, atlases)
  local out = {}
  for name, a in next, atlases do
    local what = "atlases." .. tostring(name)
    if type(name) ~= "string" or type(a) ~= "table" then
      declfail(owner, "atlases", "atlases maps names to { image, width, height, count }")
    end
    fields(owner, a, ATLAS, what, { "image", "width", "height", "count" })
    if not packpath(a.image) then declfail(owner, name, what .. ".image must be a path inside the pack folder") end
    positive(owner, a.width, "width", what); positive(owner, a.height, "height", what)
    if a.count < 1 or (a.columns and a.columns < 1) then declfail(owner, name, what .. ": count and columns must be at least 1") end
    local names = {}
    for i, n in ipairs(a.names or {}) do
      if type(n) ~= "string" then declfail(owner, name, what .. ".names lists frame names (strings)") end
      names[i] = n
    end
    if #names > a.count then declfail(owner, name, what .. " names " .. #names .. " frames but has " .. a.count) end
    out[name] = { image = a.image, width = a.width, height = a.height, count = a.count, columns = a.columns or a.count,
                  names = names }
  end
  return out
end

-- view.grid or view.size as this game has it: the table, or what the
-- function gives for the state and the game's setup options (a board sized
-- by options: `grid = function(game, options) return { columns =
-- options.cols, ... } end`), run read-only like the scene.
local function shapeof(owner, v, field)
  local f = v[field]
  if type(f) ~= "function" then return f end
  engine.rulecover(true)
  local shape = f(state.game(), plain(engine.gameoptions() or {}))
  engine.rulecover(false)
  if type(shape) ~= "table" then
    declfail(owner, field, "view." .. field .. "(game, options) must return a table "
      .. (field == "grid" and "{ columns, rows, cell, gap, x, y }" or "{ width, height }") .. ", not " .. core.show(shape))
  end
  return plain(shape)   -- a plain copy, also of a table of the state (`return game.layout`)
end

-- The view's declarations, checked; `scene` and `places` stay functions.
local function declared(pack)
  local v, owner = viewof(pack)
  if v == nil then return nil end
  if type(v) == "function" then v = { scene = v } end
  fields(owner, v, VIEW, "view", { "scene" })
  local info = { sounds = v.sounds, atlases = {}, places = {} }
  checkbackground(owner, v.background, info)
  local grid = shapeof(owner, v, "grid")
  if grid then
    fields(owner, grid, GRID, "view.grid", { "columns", "rows", "cell" })
    positive(owner, grid.cell, "cell", "view.grid")
    if grid.columns < 1 or grid.rows < 1 then declfail(owner, "grid", "view.grid needs at least one column and row") end
    local g = grid
    local right, bottom = (g.x or 0) + g.columns * (g.cell + (g.gap or 0)), (g.y or 0) + g.rows * (g.cell + (g.gap or 0))
    if right >= LIMIT or bottom >= LIMIT then
      declfail(owner, "grid", "view.grid reaches " .. ("%.14g"):format(math.max(right, bottom))
        .. " pixels: its columns and rows of cells must end within " .. LIMIT)
    end
    info.grid = grid
  end
  local size = shapeof(owner, v, "size")
  if size then
    local w, h = size[1], size[2]
    if not (typed(w, "number") and typed(h, "number") and w > 0 and h > 0) then
      declfail(owner, "size", "view.size is { width, height } in pixels")
    end
    info.width, info.height = w, h
  end
  if v.atlases then info.atlases = checkatlases(owner, v.atlases) end
  if v.sounds and not packpath(v.sounds) then declfail(owner, "sounds", "view.sounds must be a folder inside the pack") end
  for property, f in next, v.places or {} do
    if type(property) ~= "string" or (type(f) ~= "function" and f ~= true) then
      declfail(owner, "places", "view.places maps a tween property to function(game, value, target) or true")
    end
    info.places[#info.places + 1] = property
  end
  table.sort(info.places)
  return v, info, owner
end

---------------------------------------------------------------- nodes
-- core.where skips the kernel's frames: the line is the rule's `add{...}`.
local function fault(message) error(core.where(2) .. message, 0) end

local function number(node, k, low)
  local v = node[k]
  if v == nil then return end
  if type(v) ~= "number" or v ~= v or v <= -LIMIT or v >= LIMIT then
    fault("node " .. node.id .. ": '" .. k .. "' must be a finite number, not " .. core.show(v))
  end
  if low and v < low then fault("node " .. node.id .. ": '" .. k .. "' must be at least " .. low) end
end

local function text(node, k)
  local v = node[k]
  if v ~= nil and (type(v) ~= "string" or not utf8len(v)) then
    fault("node " .. tostring(node.id) .. ": '" .. k .. "' must be UTF-8 text, not " .. core.show(v))
  end
end

-- A node's colour (`iscolour`).
local function colour(node, k)
  local v = node[k]
  if v == nil then return end
  if not iscolour(v) then
    fault("node " .. node.id .. ": '" .. k .. "' must be a colour such as \"#c8a24b\" or \"white\", not " .. core.show(v))
  end
end

local function sprite(node, atlases)
  local s = node.sprite
  if s == nil then return end
  if type(s) ~= "table" or type(s.atlas) ~= "string" then fault("node " .. node.id .. ": sprite is { atlas = name, frame = n or name }") end
  local a = atlases[s.atlas]
  if not a then
    fault("node " .. node.id .. ": no atlas '" .. s.atlas .. "' in view.atlases" .. core.suggest(s.atlas, core.sortedkeys(atlases)))
  end
  local f = s.frame == nil and 1 or s.frame
  if math_type(f) == "integer" then
    if f < 1 or f > a.count then fault("node " .. node.id .. ": frame " .. f .. " is not in atlas " .. s.atlas .. " (1.." .. a.count .. ")") end
    return { atlas = s.atlas, frame = f }
  end
  for i, name in ipairs(a.names) do
    if name == f then return { atlas = s.atlas, frame = i } end
  end
  fault("node " .. node.id .. ": atlas " .. s.atlas .. " has no frame " .. core.show(f) .. core.suggest(tostring(f), a.names))
end

-- One way a call names a node: param name -> the value's text, or nil
-- when `t` is not a table of params (string keys, string or whole-number
-- values, at least one).
local function paramset(t)
  if type(t) ~= "table" or next(t) == nil then return nil end
  local out = {}
  for k, v in next, t do
    if type(k) ~= "string" or not (type(v) == "string" or math_type(v) == "integer") then return nil end
    out[k] = tostring(v)
  end
  return out
end

-- A node's `names`: the calls that name it, by their params. `{ column = 3 }`
-- names it for every call whose param `column` is 3 (each param given
-- must match); a list of such tables, `{ { from = "e2" }, { to = "e2" } }`,
-- for a call that matches any of them. Returned as a list of param sets.
local function callnames(node)
  local names = node.names
  local one = paramset(names)
  if one then return { one } end
  local list, ok, entries = {}, type(names) == "table" and names[1] ~= nil, 0
  for k, v in next, ok and names or {} do
    local set = math_type(k) == "integer" and paramset(v)
    if not set then ok = false break end
    list[k], entries = set, entries + 1
  end
  if not ok or #list ~= entries then
    fault("node " .. node.id .. ": 'names' says which calls name it, by their params: { column = 3 }, or a list of "
      .. "such tables ({ { from = \"e2\" }, { to = \"e2\" } }), each param a string or a whole number, not " .. core.show(names))
  end
  return list
end

-- A node's numeric fields (sizes at least 0), its texts and its colours.
local PLACES, SIZES = { "col", "row", "x", "y", "rotation" }, { "w", "h", "scale" }
local TEXTS, COLOURS = { "text", "label" }, { "color", "stroke", "textcolor" }

-- Checks one node as `add` receives it and returns its plain copy.
local function checknode(node, seen, info)
  if type(node) ~= "table" then fault("add expects a node table, not " .. core.show(node)) end
  if type(node.id) ~= "string" or node.id == "" or not utf8len(node.id) then
    fault("a node needs an 'id' (text such as \"token:p1\"), not " .. core.show(node.id))
  end
  if seen[node.id] then fault("two nodes have the id " .. core.show(node.id) .. " (the first at " .. seen[node.id] .. ")") end
  for k in next, node do
    if not NODE[k] then fault("node " .. node.id .. ": unknown field '" .. tostring(k) .. "'" .. core.suggest(tostring(k), core.sortedkeys(NODE))) end
  end
  local grid, pixels = node.col ~= nil or node.row ~= nil, node.x ~= nil or node.y ~= nil
  if grid == pixels or (grid and (node.col == nil or node.row == nil)) or (pixels and (node.x == nil or node.y == nil)) then
    fault("node " .. node.id .. ": give a place, either col and row (a grid cell) or x and y (pixels)")
  end
  if grid and not info.grid then fault("node " .. node.id .. ": col and row need view.grid") end
  for _, k in ipairs(PLACES) do number(node, k) end
  for _, k in ipairs(SIZES) do number(node, k, 0) end
  number(node, "opacity", 0)
  if node.opacity and node.opacity > 1 then fault("node " .. node.id .. ": 'opacity' is 0..1") end
  if node.layer ~= nil and not typed(node.layer, "integer") then
    fault("node " .. node.id .. ": 'layer' must be " .. KINDS.integer .. ", not " .. core.show(node.layer))
  end
  if node.shape ~= nil and not SHAPES[node.shape] then
    fault("node " .. node.id .. ": unknown shape " .. core.show(node.shape) .. core.suggest(tostring(node.shape), core.sortedkeys(SHAPES)))
  end
  for _, k in ipairs(TEXTS) do text(node, k) end
  for _, k in ipairs(COLOURS) do colour(node, k) end
  if node.aliases ~= nil then
    local ok = type(node.aliases) == "table"
    for k, v in next, ok and node.aliases or {} do
      ok = ok and math_type(k) == "integer" and (type(v) == "string" or math_type(v) == "integer")
    end
    if not ok then fault("node " .. node.id .. ": 'aliases' is a list of strings and whole numbers a call's params name it by") end
  end
  if node.image ~= nil and not packpath(node.image) then fault("node " .. node.id .. ": image must be a path inside the pack folder") end
  if node.movable ~= nil and type(node.movable) ~= "boolean" then
    fault("node " .. node.id .. ": 'movable' is true (a piece the studio lets you drag to a target) or false, not " .. core.show(node.movable))
  end
  local copy = {}
  for k, v in next, node do copy[k] = v end
  if node.aliases then
    copy.aliases = {}
    for i, v in ipairs(node.aliases) do copy.aliases[i] = tostring(v) end
  end
  if node.names ~= nil then copy.names = callnames(node) end
  copy.sprite = sprite(node, info.atlases)
  return copy
end

---------------------------------------------------------------- the kernel's calls
local function readonly(phase)
  engine.ops.nogame()
  state.setwritable(false, phase)
  engine.ops.setcontext("view", phase)
end

local function call(f, ...)
  engine.rulecover(true)
  local a, b = f(...)
  engine.rulecover(false)
  return a, b
end

-- The scene of the current state: the declarations and the nodes, encoded;
-- "" when the pack has no view. `nosites` true (the no-leak probes, from
-- Lua only) leaves out each node's add site (scenesites()), which only a
-- leak's finding reads (seats.lua's sceneline asks again with them).
function API.scene(nosites)
  readonly("view")
  local v, info = declared(engine.ops.pack())
  if not v then return "" end
  local nodes, seen, sites = {}, {}, {}
  local function add(node)
    local copy = checknode(node, seen, info)
    local site = nosites ~= true and core.where(2):match("^(.*): $") or "?"
    seen[copy.id] = site
    local n = #nodes + 1
    nodes[n], sites[n] = copy, site
  end
  SCENESITES = sites   -- the file:line of each node's add, for a leak's finding (seats.lua)
  local result = call(v.scene, state.game(), add)
  if result ~= nil then
    core.fail("error", "view.scene adds nodes with add{...} and returns nothing", { fn = v.scene })
  end
  info.nodes = nodes
  return core.encode(info)
end

-- A place as view.places gives it: { col, row } on the grid or { x, y }.
local function checkplace(place, r, f, info)
  local col, row, x, y = place.col, place.row, place.x, place.y
  local ok = (typed(col, "number") and typed(row, "number") and x == nil and y == nil and info.grid)
    or (typed(x, "number") and typed(y, "number") and col == nil and row == nil)
  if not ok then
    core.fail("error", "view.places." .. r.property .. " gave " .. core.show(place) .. " for " .. core.show(r.value)
      .. ": a place is { col = c, row = r } on view.grid or { x = x, y = y } in pixels", { fn = f })
  end
  return { col = col, row = row, x = x, y = y }
end

-- Where a tween's values are: for each { target, property, value } the
-- place `view.places[property](game, value, target)` gives ({ col, row } or
-- { x, y }), or false when the view maps no such property.
function API.viewplaces(encoded)
  readonly("view places")
  local v, info = declared(engine.ops.pack())
  local out = {}
  for i, r in ipairs(core.decode(encoded)) do
    local f = v and v.places and v.places[r.property]
    local place = false
    if type(f) == "function" then
      place = call(f, state.game(), r.value, r.target)
      if place == nil then
        place = false                              -- no place for this value: the route is cut evenly there
      elseif type(place) ~= "table" then
        core.fail("error", "view.places." .. r.property .. " must return { col = c, row = r }, { x = x, y = y } or nil for "
          .. core.show(r.value) .. ", not " .. core.show(place), { fn = f })
      end
      if place then place = checkplace(place, r, f, info) end
    end
    out[i] = place
  end
  return core.encode(out)
end

return M
