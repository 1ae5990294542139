-- The desert pack: a cooperative survival game in a sandstorm. The crew of a
-- crashed flying machine digs through a shifting desert to find the four
-- parts of an old airship and fly away before thirst, sand or the storm wins.
--
-- State layout (top-level keys of `game`):
--   board    cell ("a1".."e5") -> tile id ("t1".."t24"); the storm cell has
--            no entry. Tile tN is the one dealt to the Nth cell at setup: the
--            id says where a tile started, never what it is.
--   storm    the storm's cell
--   tiles    tile id -> { cell, sand, excavated, back }; back is what its
--            face-down side shows: "wreck" (the crash site), "water" (a well or
--            the mirage) or "sand" (any other)
--   faces    tile id -> the face under it (desert.lua's M.TILES ids: crash,
--            well1, well2, mirage, pad, tunnel1..3, gear1..8, propeller_row,
--            propeller_col, ...); secret while the tile is face down, to
--            every seat but those in peeked[id]; public once excavated
--   peeked   tile id -> the players who looked under it with a terrascope
--   sand     sand markers left in the supply (board + supply = 48)
--   players  "p1".. -> { role, cell, water, canteen, gear = { card, ... } }
--   order    the players in turn order
--   turn     { player, actions (left this turn), calm (cards the meteorologist
--            took off this turn's draw), number }
--   meter    { level, track = { cards to draw at each mark } }; level past the
--            end of the track is the deadly mark
--   storm_deck, storm_discard   card names, index 1 is the top
--   gear_deck, gear_discard     equipment card names, index 1 is the top
--   parts    part -> {} hidden | { cell = c } on the board | { holder = p } carried
--   shields  tile id -> the player whose solar shield covers that tile
--   scouted  nil, or what the meteorologist's scout showed that seat:
--            { player, top = top storm cards it knows, bottom = true when it
--            put one at the bottom } (until drawn or reshuffled)
--   result   nil while playing, "won" or "lost"; reason says why
--
-- Options: players (2..5), roles (a list of role names, one per player;
-- default: the first `players` of archeologist, climber, explorer,
-- meteorologist, navigator, water_carrier), difficulty (novice, normal,
-- elite, legendary, or the start mark 1..4), shuffle (false: tiles and decks
-- keep their fixed order, for scenarios).
--
-- The fixed layout (shuffle = false), by cell: tile id, face.
--   a1 t1 crash    b1 t2 well1    c1 t3 well2    d1 t4 mirage   e1 t5 pad
--   a2 t6 tunnel1  b2 t7 tunnel2  c2 t8 tunnel3  d2 t9 gear1    e2 t10 gear2
--   a3 t11 gear3   b3 t12 gear4   c3 STORM       d3 t13 gear5   e3 t14 gear6
--   a4 t15 gear7   b4 t16 gear8   c4 t17 propeller_row  d4 t18 propeller_col
--   e4 t19 engine_row  a5 t20 engine_col  b5 t21 crystal_row  c5 t22 crystal_col
--   d5 t23 compass_row  e5 t24 compass_col
local D = require "desert"
local rulebench = require "rulebench"
local view = require "view"

local function fail(message) error("desert setup: " .. message, 0) end

local function list_of(t)
  local out = {}
  for i, v in ipairs(t) do out[i] = v end
  return out
end

local KIND_CODE = { crash = "crash", well = "well", mirage = "mirag", pad = "pad", tunnel = "tunnl", gear = "gear" }
local PART_CODE = { propeller = "prop", engine = "engn", crystal = "crys", compass = "comp" }

local function tile_code(tile)
  if tile.kind == "clue" then return PART_CODE[tile.part] .. (tile.axis == "row" and "=" or "|") end
  return KIND_CODE[tile.kind]
end

local function pad(text, width)
  if #text >= width then return text:sub(1, width) end
  return text .. string.rep(" ", width - #text)
end

---@type rulebench.Pack
local pack = {
  name = "desert",
  version = "2.0",   -- 2.0: tiles named t1..t24, their faces in `faces` (saved 1.0 games are refused by name and version)
  description = "A cooperative desert-survival game: dig, find four airship parts, fly away before the storm wins.",
  options = {
    players = 2,
    difficulty = { type = "any", default = "normal", description = "novice, normal, elite, legendary, or the start mark 1..4" },
    shuffle = true,
    roles = { type = "table", description = "one role name per player (default: the first `players` roles)" },
  },

  -- Seats: one per player, p1..pN. Every seat may act at any time (free
  -- actions: equipment, passing equipment, giving water on another's
  -- turn); a call naming a player (`player`) is that seat's to make, and
  -- each action's check says when it is out of turn. The storm and gear
  -- decks are face down to every seat, and so is each tile's face until it
  -- is excavated.
  seats = function(options)
    local seats = {}
    for i = 1, math.tointeger(options.players) or 0 do seats[i] = "p" .. i end
    return seats
  end,
  turn = function(game)
    if game.result then return nil, "the game is over" end
    return game.order
  end,
  -- The meteorologist's scout shows the top storm cards to that seat alone
  -- (game.scouted: the top cards it saw, and the one it put at the bottom),
  -- until they are drawn or the deck is reshuffled. A face-down tile's face
  -- is shown to the players who looked under it with a terrascope alone.
  secrets = function(game, secret)
    secret(game.storm_deck)
    secret(game.gear_deck)
    local tiles, faces, peeked, ids = game.tiles, game.faces, game.peeked, D.TILE_IDS
    for i = 1, #ids do
      local id = ids[i]
      if not tiles[id].excavated then secret(faces, id, peeked[id]) end
    end
    local scouted = game.scouted
    if scouted then
      for i = 1, math.min(scouted.top, #game.storm_deck) do secret(game.storm_deck, i, scouted.player) end
      if scouted.bottom and #game.storm_deck > 0 then secret(game.storm_deck, #game.storm_deck, scouted.player) end
    end
  end,

  setup = function(game, options)
    local n = math.tointeger(options.players)
    if not n or n < 2 or n > 5 then fail("players must be 2..5, not " .. tostring(options.players)) end
    local roles = options.roles
    if roles == nil then
      roles = {}
      for i = 1, n do roles[i] = D.ROLE_ORDER[i] end
    end
    if type(roles) ~= "table" or #roles ~= n then fail("roles must list one role for each of the " .. n .. " players") end
    local taken = {}
    for _, role in ipairs(roles) do
      if not D.ROLES[role] then
        fail("unknown role " .. tostring(role) .. " (archeologist, climber, explorer, meteorologist, navigator, water_carrier)")
      end
      if taken[role] then fail("role " .. role .. " is taken twice") end
      taken[role] = true
    end
    local level = D.DIFFICULTY[options.difficulty] or math.tointeger(options.difficulty)
    if not level or level < 1 or level > 4 then
      fail("difficulty must be novice, normal, elite, legendary or 1..4, not " .. tostring(options.difficulty))
    end
    local shuffle = options.shuffle ~= false

    -- Tiles: 24 face down around the storm in the centre; tile tN on the
    -- Nth cell, its face dealt from the shuffled faces.
    local order = {}
    for i, t in ipairs(D.TILES) do order[i] = t.id end
    if shuffle then rulebench.shuffle(game, order) end
    game.board, game.tiles, game.faces, game.peeked = {}, {}, {}, {}
    local i = 0
    for _, cell in ipairs(D.CELLS) do
      if cell ~= D.START_STORM then
        i = i + 1
        local id, face = D.TILE_IDS[i], D.FACE[order[i]]
        game.board[cell] = id
        game.faces[id] = face.id
        game.tiles[id] = { cell = cell, sand = 0, excavated = false, back = face.back or "sand" }
      end
    end
    game.storm = D.START_STORM
    for _, cell in ipairs(D.DIAMOND) do game.tiles[game.board[cell]].sand = 1 end
    game.sand = D.TOTAL_SAND - #D.DIAMOND

    -- Decks.
    local storm, gear = list_of(D.STORM_CARDS), list_of(D.EQUIPMENT)
    if shuffle then
      rulebench.shuffle(game, storm)
      rulebench.shuffle(game, gear)
    end
    game.storm_deck, game.storm_discard = storm, {}
    game.gear_deck, game.gear_discard = gear, {}
    game.meter = { level = level, track = list_of(D.TRACKS[n]) }

    -- Crew: everyone starts on the crash site with a full canteen.
    local crash
    for _, id in ipairs(D.TILE_IDS) do
      if game.faces[id] == "crash" then crash = game.tiles[id].cell end
    end
    game.players, game.order = {}, {}
    for k = 1, n do
      local name = "p" .. k
      local canteen = D.ROLES[roles[k]].canteen
      game.players[name] = { role = roles[k], cell = crash, water = canteen, canteen = canteen, gear = {} }
      game.order[k] = name
    end
    game.player_count = n
    game.parts = {}
    for _, part in ipairs(D.PARTS) do game.parts[part] = {} end
    game.shields = {}
    game.turn = { player = "p1", actions = D.ACTIONS_PER_TURN, calm = 0, number = 1 }
  end,

  invariants = {
    sand_is_conserved = function(game)
      local total = game.sand
      if game.sand < 0 then return false, "the sand supply is negative" end
      for id, tile in pairs(game.tiles) do
        if tile.sand < 0 then return false, id .. " has negative sand" end
        total = total + tile.sand
      end
      if total ~= D.TOTAL_SAND then return false, "sand on board + supply is " .. total .. ", not 48" end
      return true
    end,

    one_storm_cell = function(game)
      local empty, count = nil, 0
      for _, cell in ipairs(D.CELLS) do
        local id = game.board[cell]
        if id == nil then
          if empty then return false, "two cells without a tile: " .. empty .. " and " .. cell end
          empty = cell
        else
          count = count + 1
          local tile = game.tiles[id]
          if not tile then return false, cell .. " holds unknown tile " .. tostring(id) end
          if tile.cell ~= cell then return false, "tile " .. id .. " is at " .. cell .. " but says " .. tostring(tile.cell) end
        end
      end
      if empty ~= game.storm then return false, "the storm is at " .. tostring(game.storm) .. " but the empty cell is " .. tostring(empty) end
      if count ~= 24 then return false, count .. " tiles on the board, not 24" end
      return true
    end,

    water_in_canteens = function(game)
      for name, p in pairs(game.players) do
        if p.water < 0 or p.water > p.canteen then
          return false, name .. " has " .. p.water .. " water in a canteen of " .. p.canteen
        end
      end
      return true
    end,

    each_part_in_one_place = function(game)
      for _, part in ipairs(D.PARTS) do
        local where = game.parts[part]
        if not where then return false, "part " .. part .. " is missing" end
        if where.cell and where.holder then return false, part .. " is both on the board and carried" end
        if where.holder and not game.players[where.holder] then return false, part .. " is carried by unknown " .. where.holder end
        if where.cell and not D.POS[where.cell] then return false, part .. " is at unknown cell " .. where.cell end
      end
      return true
    end,

    player_count_is_constant = function(game)
      local count = 0
      for _ in pairs(game.players) do count = count + 1 end
      if count ~= game.player_count or #game.order ~= game.player_count then
        return false, "there are " .. count .. " players, not " .. game.player_count
      end
      for _, name in ipairs(game.order) do
        local p = game.players[name]
        if not p then return false, "turn order names unknown " .. name end
        if not game.board[p.cell] then return false, name .. " stands at " .. tostring(p.cell) .. ", which has no tile" end
      end
      return true
    end,

    each_face_once = function(game)
      local seen = {}
      for _, id in ipairs(D.TILE_IDS) do
        local face = game.faces[id]
        if not D.FACE[face] then return false, id .. " has no face (" .. tostring(face) .. ")" end
        if seen[face] then return false, "face " .. face .. " lies under " .. seen[face] .. " and " .. id end
        seen[face] = id
      end
      return true
    end,

    cards_are_conserved = function(game)
      local storm = #game.storm_deck + #game.storm_discard
      if storm ~= #D.STORM_CARDS then return false, storm .. " storm cards, not " .. #D.STORM_CARDS end
      local gear = #game.gear_deck + #game.gear_discard
      for _, p in pairs(game.players) do gear = gear + #p.gear end
      if gear ~= #D.EQUIPMENT then return false, gear .. " equipment cards, not " .. #D.EQUIPMENT end
      return true
    end,
  },

  -- What `rulebench solve`, `play` (goal NAME) and scenarios (expect: { goal: NAME }) can ask about.
  goals = {
    won = function(game) return game.result == "won" end,
  },

  render = function(game)
    local lines = {}
    local track = game.meter.track
    local level = game.meter.level
    local head
    if game.result then
      head = string.format("desert: %s (%s)", string.upper(game.result), game.reason or "")
    else
      local p = game.players[game.turn.player]
      head = string.format("desert: turn %d, %s (%s) to play, %d action%s left", game.turn.number,
        game.turn.player, p.role, game.turn.actions, game.turn.actions == 1 and "" or "s")
    end
    lines[#lines + 1] = head
    lines[#lines + 1] = string.format("storm meter %s (draws %s)%s | sand supply %d | storm deck %d, discard %d",
      level .. "/" .. #track, track[level] and tostring(track[level]) or "-",
      level > #track and " DEADLY" or "", game.sand, #game.storm_deck, #game.storm_discard)
    local header = "   "
    for _, col in ipairs(D.COLUMNS) do header = header .. pad("     " .. col, 12) end
    lines[#lines + 1] = header
    for row = 1, 5 do
      local top, bottom = pad(tostring(row), 3), "   "
      for col = 1, 5 do
        local cell = D.name(col, row)
        local id = game.board[cell]
        local a, b
        if not id then
          a, b = "~~STORM~~", "~~~~~~~~~"
        else
          local tile = game.tiles[id]
          a = tile_code(D.face(game, id)) .. (tile.excavated and "*" or ".") .. (tile.sand > 0 and (" s" .. tile.sand) or "")
          if tile.sand >= 2 then a = a .. "!" end
          b = ""
          for _, name in ipairs(game.order) do
            if game.players[name].cell == cell then b = b .. name:sub(2) end
          end
          if b ~= "" then b = "@" .. b end
          if game.shields[id] then b = b .. " S" end
        end
        for _, part in ipairs(D.PARTS) do
          if game.parts[part].cell == cell then b = b .. " " .. D.PART_LETTER[part] end
        end
        top = top .. "[" .. pad(a, 10) .. "]"
        bottom = bottom .. " " .. pad(b, 10) .. " "
      end
      lines[#lines + 1] = top
      lines[#lines + 1] = bottom
    end
    for _, name in ipairs(game.order) do
      local p = game.players[name]
      lines[#lines + 1] = string.format("%s %-13s water %d/%d  at %s  gear: %s", name, p.role, p.water, p.canteen,
        p.cell, #p.gear > 0 and table.concat(list_of(p.gear), ", ") or "-")
    end
    local parts = {}
    for _, part in ipairs(D.PARTS) do
      local w = game.parts[part]
      parts[#parts + 1] = part .. " " .. (w.holder and ("held by " .. w.holder) or w.cell and ("at " .. w.cell) or "hidden")
    end
    lines[#lines + 1] = "parts: " .. table.concat(parts, "; ")
    lines[#lines + 1] = "legend: name* excavated, name. face down, sN sand (! blocked), @12 pawns, S solar shield, P E C N parts"
    return table.concat(lines, "\n")
  end,

  -- The board as a scene of nodes, for `rulebench studio` (view.lua).
  view = view,
}
return pack
