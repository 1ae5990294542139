-- desert.lua: the board geometry, the fixed components and the shared rule
-- predicates of the desert pack. Loaded with `require "desert"`.
--
-- Everything at module level here is a constant built once at load time;
-- nothing in this module is ever changed while a game runs (undo could not
-- restore it). All game data lives in `game`.
--
-- Coordinates: a cell is named by its column letter a..e (west to east) and
-- its row number 1..5 (north to south): "a1" is the north-west corner, "c3"
-- the centre. "North" means towards row 1.
local M = {}

M.COLUMNS = { "a", "b", "c", "d", "e" }
M.CELLS = {}          -- the 25 cells in reading order
M.POS = {}            -- cell -> { col = 1..5, row = 1..5 }

function M.name(col, row)
  if col < 1 or col > 5 or row < 1 or row > 5 then return nil end
  return M.COLUMNS[col] .. row
end

for row = 1, 5 do
  for col = 1, 5 do
    local cell = M.COLUMNS[col] .. row
    M.CELLS[#M.CELLS + 1] = cell
    M.POS[cell] = { col = col, row = row }
  end
end

-- The storm moves in the direction printed on a wind card.
M.DIRECTIONS = { north = { 0, -1 }, east = { 1, 0 }, south = { 0, 1 }, west = { -1, 0 } }
M.DIRECTION_ORDER = { "north", "east", "south", "west" }

M.ORTHO, M.DIAG = {}, {}
for _, cell in ipairs(M.CELLS) do
  local p = M.POS[cell]
  local o, d = {}, {}
  for _, v in ipairs { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } } do
    local n = M.name(p.col + v[1], p.row + v[2])
    if n then o[#o + 1] = n end
  end
  for _, v in ipairs { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } } do
    local n = M.name(p.col + v[1], p.row + v[2])
    if n then d[#d + 1] = n end
  end
  M.ORTHO[cell], M.DIAG[cell] = o, d
end

-- The cell one step from `cell` in `direction`, or nil at the edge.
function M.toward(cell, direction)
  local p, v = M.POS[cell], M.DIRECTIONS[direction]
  return M.name(p.col + v[1], p.row + v[2])
end

function M.orthogonal(a, b)
  local p, q = M.POS[a], M.POS[b]
  if not p or not q then return false end
  return math.abs(p.col - q.col) + math.abs(p.row - q.row) == 1
end

function M.diagonal(a, b)
  local p, q = M.POS[a], M.POS[b]
  if not p or not q then return false end
  return math.abs(p.col - q.col) == 1 and math.abs(p.row - q.row) == 1
end

---------------------------------------------------------------- components
M.TOTAL_SAND = 48
M.DIAMOND = { "c1", "b2", "d2", "a3", "e3", "b4", "d4", "c5" }
M.START_STORM = "c3"

M.PARTS = { "propeller", "engine", "crystal", "compass" }
M.PART_LETTER = { propeller = "P", engine = "E", crystal = "C", compass = "N" }

-- The 24 tile faces in their fixed order (the layout when the `shuffle`
-- option is false). A tile's back is the same for every face but two kinds:
-- the crash site's back shows the wreck, and the three water tiles' backs
-- (two wells, one mirage) show a water drop, as on the printed tiles.
---@class desert.Face
---@field id string the face's name (what `game.faces` holds)
---@field kind string crash, well, mirage, pad, tunnel, gear or clue
---@field back? string what its back shows (wreck, water), if not sand
---@field part? string a clue's part
---@field axis? string a clue's axis, row or col

---@type desert.Face[]
M.TILES = {
  { id = "crash", kind = "crash", back = "wreck" },
  { id = "well1", kind = "well", back = "water" }, { id = "well2", kind = "well", back = "water" },
  { id = "mirage", kind = "mirage", back = "water" },
  { id = "pad", kind = "pad" },
  { id = "tunnel1", kind = "tunnel" }, { id = "tunnel2", kind = "tunnel" }, { id = "tunnel3", kind = "tunnel" },
}
for i = 1, 8 do M.TILES[#M.TILES + 1] = { id = "gear" .. i, kind = "gear" } end
for _, part in ipairs(M.PARTS) do
  M.TILES[#M.TILES + 1] = { id = part .. "_row", kind = "clue", part = part, axis = "row" }
  M.TILES[#M.TILES + 1] = { id = part .. "_col", kind = "clue", part = part, axis = "col" }
end

---@type table<string, desert.Face>
M.FACE = {}           -- face id -> its record in M.TILES
for _, t in ipairs(M.TILES) do M.FACE[t.id] = t end

-- The physical tiles' names: tile tN is the one dealt to the Nth cell
-- (reading order, the storm's cell skipped). The name says nothing of the
-- face, which game.faces keeps (secret until the tile is excavated).
M.TILE_IDS = {}
for i = 1, #M.TILES do M.TILE_IDS[i] = "t" .. i end

-- Tiles whose excavation draws an equipment card.
M.GEAR_KINDS = { gear = true, tunnel = true, crash = true }

M.EQUIPMENT = { "dune_blaster", "dune_blaster", "dune_blaster", "jetpack", "jetpack", "jetpack",
                "solar_shield", "solar_shield", "terrascope", "terrascope", "water_reserve", "time_throttle" }

M.STORM_CARDS = {}
for _, dir in ipairs(M.DIRECTION_ORDER) do
  for strength, copies in ipairs { 3, 2, 1 } do
    for _ = 1, copies do M.STORM_CARDS[#M.STORM_CARDS + 1] = "wind_" .. dir .. "_" .. strength end
  end
end
for _ = 1, 4 do M.STORM_CARDS[#M.STORM_CARDS + 1] = "sun_beats_down" end
for _ = 1, 3 do M.STORM_CARDS[#M.STORM_CARDS + 1] = "storm_picks_up" end

-- A wind card's direction and strength; nil for the other cards.
function M.wind(card)
  local dir, strength = string.match(card, "^wind_(%a+)_(%d)$")
  if dir then return dir, math.tointeger(tonumber(strength)) end
end

M.TRACKS = {
  [2] = { 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6 },
  [3] = { 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6 },
  [4] = { 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6 },
  [5] = { 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6 },
}
M.DIFFICULTY = { novice = 1, normal = 2, elite = 3, legendary = 4 }

M.ROLES = {
  archeologist = { canteen = 3 }, climber = { canteen = 3 }, explorer = { canteen = 4 },
  meteorologist = { canteen = 4 }, navigator = { canteen = 4 }, water_carrier = { canteen = 5 },
}
M.ROLE_ORDER = { "archeologist", "climber", "explorer", "meteorologist", "navigator", "water_carrier" }

M.ACTIONS_PER_TURN = 4

---------------------------------------------------------------- reading the state
function M.tile_at(game, cell)
  local id = cell and game.board[cell]
  if id then return game.tiles[id], id end
end

-- The face of tile `id` (its record in M.TILES). A face-down tile's face
-- is secret: rules read it only to turn the tile over or look under it.
function M.face(game, id) return M.FACE[game.faces[id]] end

-- The face of tile `id` when it is face up, else nil: what every seat sees.
function M.shown_face(game, id)
  local tile = game.tiles[id]
  if tile and tile.excavated then return M.FACE[game.faces[id]] end
end

-- The face-up tile showing face `face_id` and its id, or nil while that
-- face is still face down (where it lies is secret until then).
function M.face_up(game, face_id)
  local tiles, faces, ids = game.tiles, game.faces, M.TILE_IDS
  for i = 1, #ids do
    local id = ids[i]
    if tiles[id].excavated and faces[id] == face_id then return tiles[id], id end
  end
end

function M.blocked(tile) return tile.sand >= 2 end

-- The players standing on a cell, in turn order.
function M.players_at(game, cell)
  local out = {}
  for _, name in ipairs(game.order) do
    if game.players[name].cell == cell then out[#out + 1] = name end
  end
  return out
end

function M.climber_at(game, cell)
  for _, name in ipairs(game.order) do
    local p = game.players[name]
    if p.role == "climber" and p.cell == cell then return true end
  end
  return false
end

-- A buried player stands on a blocked tile with no climber beside them, and
-- cannot leave it by any means until the sand is below 2.
function M.buried(game, name)
  local p = game.players[name]
  local tile = M.tile_at(game, p.cell)
  if not tile or tile.sand < 2 then return false end
  return not M.climber_at(game, p.cell)
end

-- The cells next to `cell` for a player: orthogonal, and diagonal for the explorer.
function M.around(game, name, cell)
  local p = game.players[name]
  if p.role ~= "explorer" then return M.ORTHO[cell] end
  local out = {}
  for _, n in ipairs(M.ORTHO[cell]) do out[#out + 1] = n end
  for _, n in ipairs(M.DIAG[cell]) do out[#out + 1] = n end
  return out
end

function M.beside(game, name, from, to)
  if M.orthogonal(from, to) then return true end
  return game.players[name].role == "explorer" and M.diagonal(from, to)
end

-- Whether a player may stand on a cell: there is a tile, and it is unblocked
-- (the climber may enter blocked tiles).
function M.enterable(game, name, cell)
  local tile = M.tile_at(game, cell)
  if not tile then return false end
  return tile.sand < 2 or game.players[name].role == "climber"
end

-- Whether the tile at `cell` is an excavated tunnel.
local function excavated_tunnel(game, cell)
  local id = cell and game.board[cell]
  local face = id and M.shown_face(game, id)
  return face ~= nil and face.kind == "tunnel"
end
M.excavated_tunnel = excavated_tunnel

-- Whether one move takes player `name` from `from` to `to`: a neighbouring
-- enterable tile, or tunnel to tunnel (both excavated).
function M.one_step(game, name, from, to)
  if from == to or not M.enterable(game, name, to) then return false end
  if M.beside(game, name, from, to) then return true end
  return excavated_tunnel(game, from) and excavated_tunnel(game, to)
end

-- Every cell one move away from `from`, in a fixed order.
function M.steps(game, name, from)
  local out, seen = {}, {}
  for _, n in ipairs(M.around(game, name, from)) do
    if M.enterable(game, name, n) then out[#out + 1] = n; seen[n] = true end
  end
  if excavated_tunnel(game, from) then
    for _, face in ipairs { "tunnel1", "tunnel2", "tunnel3" } do
      local tile = M.face_up(game, face)
      local cell = tile and tile.cell
      if cell and cell ~= from and not seen[cell] and M.enterable(game, name, cell) then
        out[#out + 1] = cell; seen[cell] = true
      end
    end
  end
  return out
end

-- Cells a player can reach in 1..limit moves (the navigator's power), as a set
-- and as a list in breadth-first order.
function M.reach(game, name, limit)
  local start = game.players[name].cell
  local seen, list = { [start] = true }, {}
  local frontier = { start }
  for _ = 1, limit do
    local nextf = {}
    for _, cell in ipairs(frontier) do
      for _, n in ipairs(M.steps(game, name, cell)) do
        if not seen[n] then
          seen[n] = true
          list[#list + 1] = n
          nextf[#nextf + 1] = n
        end
      end
    end
    frontier = nextf
  end
  seen[start] = nil
  return seen, list
end

function M.has_card(game, name, card)
  local p = game.players[name]
  if not p then return false end
  for _, c in ipairs(p.gear) do if c == card then return true end end
  return false
end

-- How many storm cards end_turn draws now.
function M.storm_cards(game)
  local n = game.meter.track[game.meter.level] or 0
  return n
end

---------------------------------------------------------------- common checks
function M.over(game) return game.result ~= nil end

local function over_reason(game)
  return "the game is over (" .. game.result .. ": " .. (game.reason or "") .. ")"
end

-- An action of the current player's turn that costs `cost` actions.
function M.turn_check(game, player, cost)
  if game.result then return over_reason(game) end
  if type(player) ~= "string" or not game.players[player] then return "no player " .. tostring(player) end
  if game.turn.player ~= player then
    return "it is " .. game.turn.player .. "'s turn, not " .. player .. "'s"
  end
  if cost and cost > 0 and game.turn.actions < cost then return "no actions left this turn" end
end

-- A free action any player may take at any time while the game runs.
function M.free_check(game, player)
  if game.result then return over_reason(game) end
  if type(player) ~= "string" or not game.players[player] then return "no player " .. tostring(player) end
end

-- Using an equipment card: a free action of its holder.
function M.gear_check(game, player, card)
  local why = M.free_check(game, player)
  if why then return why end
  if not M.has_card(game, player, card) then return player .. " holds no " .. card end
end

function M.role_check(game, player, role)
  if game.players[player].role ~= role then return "only the " .. role .. " can do this" end
end

-- Emits every candidate that passes check: legal and check agree by construction.
function M.emit_checked(game, emit, check, candidates)
  for _, a in ipairs(candidates) do
    if check(game, a) == nil then emit(a) end
  end
end

-- Spending actions of the turn; `a.left` keeps the count before, for undo and animation.
function M.spend(game, a, n)
  a.left = game.turn.actions
  game.turn.actions = a.left - (n or 1)
end

function M.refund(game, a) game.turn.actions = a.left end

function M.spend_plan(anim, a, n)
  return anim.tween { target = "turn", property = "actions", from = a.left, to = a.left - (n or 1), duration = 0.15 }
end

-- Adds water to a player, up to the canteen; returns what was added.
function M.fill(player, amount)
  local gain = math.min(amount, player.canteen - player.water)
  if gain > 0 then player.water = player.water + gain end
  return gain
end

return M
