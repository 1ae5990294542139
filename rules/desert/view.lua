-- view.lua: how the desert looks, for `rulebench studio` and host apps.
-- Loaded by pack.lua as its `view`. Node ids are the targets the actions'
-- animation plans name: tile:ID, pawn:P, part:NAME, shield:ID, storm,
-- hand:P (a player's line in the panel), turn, supply, airship.
-- A face-down tile is drawn from what every seat sees of it (its back, its
-- sand): nothing here reads the face of a tile that is not excavated.
-- The art in art/ is the pack's own (SVG drawn for it). Pawns are `movable`:
-- the studio lets a person drag one onto a tile; nothing else is dragged.
local D = require "desert"

local CELL, GAP, EDGE = 96, 6, 16
local PANEL = EDGE + 5 * CELL + 4 * GAP + 24    -- the left edge of the panel
local ROLE_COLOUR = { archeologist = "#b5542c", climber = "#4a7b3a", explorer = "#2f6fa3",
                      meteorologist = "#7a4fa0", navigator = "#c9a227", water_carrier = "#2a9d8f" }
local KIND_IMAGE = { crash = "crash", well = "well", mirage = "mirage", pad = "pad", tunnel = "tunnel",
                     gear = "gear", clue = "clue" }
local PART_COLOUR = { propeller = "#d1495b", engine = "#edae49", crystal = "#66a182", compass = "#00798c" }

local function cell_place(cell)
  local p = D.POS[cell]
  return { col = p.col, row = p.row }
end

-- A player's line in the panel, and where a part they carry sits on it.
local function hand_y(game, name)
  for i, other in ipairs(game.order) do
    if other == name then return 150 + (i - 1) * 64 end
  end
  return 150
end

-- What a face-down tile's back shows.
local BACK_TEXT = { wreck = "crash site", water = "water drop" }

local function tile_node(game, id, add)
  local tile = game.tiles[id]
  local p = D.POS[tile.cell]
  local image, text = "art/tile-back.svg", BACK_TEXT[tile.back]
  local face = D.shown_face(game, id)
  if face then
    image = "art/tile-" .. KIND_IMAGE[face.kind] .. ".svg"
    text = face.kind == "clue" and (face.part .. (face.axis == "row" and " row" or " column")) or face.kind
  end
  if tile.sand >= 2 then image, text = "art/tile-blocked.svg", "blocked" end
  if tile.sand > 0 then text = (text and text .. " · " or "") .. "sand " .. tile.sand end
  add { id = "tile:" .. id, col = p.col, row = p.row, shape = "round", color = "#d9b77a", image = image,
        text = text, textcolor = "#3b2a14", aliases = { tile.cell }, label = id .. " at " .. tile.cell .. (tile.sand > 0 and (", sand " .. tile.sand) or "") }
  -- Sand as depth: a dune over the tile, one ridge a layer (three or more: the deepest).
  if tile.sand > 0 then
    add { id = "sand:" .. id, col = p.col, row = p.row, shape = "none", image = "art/sand-" .. math.min(tile.sand, 3) .. ".svg",
          layer = 1, opacity = 0.8, label = "sand " .. tile.sand .. " on " .. tile.cell }
  end
  -- A clue shows its part (its colour and letter) and the axis it points along.
  if face and face.kind == "clue" and tile.sand < 2 then
    local x = EDGE + (p.col - 1) * (CELL + GAP) + 20
    local y = EDGE + (p.row - 1) * (CELL + GAP) + 20
    add { id = "clue:" .. id, x = x, y = y, w = 26, h = 26, shape = "diamond", color = PART_COLOUR[face.part], stroke = "#3b2a14",
          text = D.PART_LETTER[face.part] .. (face.axis == "row" and "↔" or "↕"), textcolor = "#ffffff", layer = 1,
          label = face.part .. " clue, its " .. face.axis }
  end
  if game.shields[id] then
    add { id = "shield:" .. id, col = p.col, row = p.row, w = 88, h = 88, shape = "circle", color = "#8fd3ff44",
          stroke = "#3a9bd5", layer = 1, label = "solar shield of " .. game.shields[id] }
  end
end

local function pawns(game, add)
  local at = {}
  for _, name in ipairs(game.order) do
    local cell = game.players[name].cell
    at[cell] = at[cell] or {}
    table.insert(at[cell], name)
  end
  for _, name in ipairs(game.order) do
    local p = game.players[name]
    local here = at[p.cell]
    local k = 0
    for i, other in ipairs(here) do if other == name then k = i end end
    local pos = D.POS[p.cell]
    local centre_x = EDGE + (pos.col - 1) * (CELL + GAP) + CELL / 2
    local centre_y = EDGE + (pos.row - 1) * (CELL + GAP) + CELL / 2
    add { id = "pawn:" .. name, x = centre_x + (k - (#here + 1) / 2) * 24, y = centre_y + 14, w = 28, h = 36,
          shape = "circle", color = ROLE_COLOUR[p.role], sprite = { atlas = "pawn", frame = "stand" }, layer = 3,
          movable = true,   -- drag a pawn onto a tile: the move (or the choice of calls) naming both
          label = name .. " (" .. p.role .. ") at " .. p.cell .. ", water " .. p.water }
  end
end

local function parts(game, add)
  for i, part in ipairs(D.PARTS) do
    local where = game.parts[part]
    local x, y
    if where.cell then
      local pos = D.POS[where.cell]
      x = EDGE + (pos.col - 1) * (CELL + GAP) + CELL - 16
      y = EDGE + (pos.row - 1) * (CELL + GAP) + 16
    elseif where.holder then
      x, y = PANEL + 200 + i * 22, hand_y(game, where.holder) + 30
    end
    if x then
      add { id = "part:" .. part, x = x, y = y, w = 24, h = 24, shape = "diamond", color = PART_COLOUR[part],
            stroke = "#3b2a14", text = D.PART_LETTER[part], textcolor = "#ffffff", layer = 2,
            label = part .. (where.cell and (" at " .. where.cell) or (" carried by " .. tostring(where.holder))) }
    end
  end
end

local function panel(game, add)
  local turn = game.turn
  local head = game.result and (string.upper(game.result) .. ": " .. (game.reason or ""))
    or ("Turn " .. turn.number .. " · " .. turn.player .. " · " .. turn.actions .. " actions left")
  add { id = "turn", x = PANEL + 140, y = 30, w = 280, h = 28, shape = "none", text = head, textcolor = "#3b2a14" }
  local level, track = game.meter.level, game.meter.track
  add { id = "meter", x = PANEL + 140, y = 66, w = 280, h = 28, shape = "round", color = "#f3e4c4",
        text = "storm " .. level .. "/" .. #track .. (track[level] and (" · draws " .. track[level]) or " · deadly"),
        textcolor = "#7a2e12" }
  add { id = "supply", x = PANEL + 140, y = 102, w = 280, h = 28, shape = "none",
        text = "sand supply " .. game.sand .. " · storm deck " .. #game.storm_deck, textcolor = "#3b2a14" }
  for _, name in ipairs(game.order) do
    local p = game.players[name]
    local cards = {}
    for i, card in ipairs(p.gear) do cards[i] = card end
    local gear = #cards > 0 and table.concat(cards, ", ") or "no gear"
    add { id = "hand:" .. name, x = PANEL + 140, y = hand_y(game, name), w = 280, h = 52, shape = "round",
          color = "#fbf3e0", stroke = ROLE_COLOUR[p.role], textcolor = "#3b2a14",
          text = name .. " " .. p.role .. " · water " .. p.water .. "/" .. p.canteen .. " · " .. gear }
  end
end

---@type rulebench.View
local view = {
  background = "#e9d3a4",
  grid = { columns = 5, rows = 5, cell = CELL, gap = GAP, x = EDGE, y = EDGE },
  size = { PANEL + 300, EDGE * 2 + 5 * CELL + 4 * GAP },
  atlases = {
    -- A pawn standing, then three frames of its jetpack's flame (jetpack.lua plays them).
    pawn = { image = "art/pawn.svg", width = 28, height = 36, count = 4, names = { "stand", "flame1", "flame2", "flame3" } },
  },
  sounds = "sounds",

  scene = function(game, add)
    for _, cell in ipairs(D.CELLS) do
      local id = game.board[cell]
      if id then
        tile_node(game, id, add)
      else
        local p = D.POS[cell]
        add { id = "storm", col = p.col, row = p.row, image = "art/storm.svg", shape = "none", label = "the storm at " .. cell }
      end
    end
    -- The airship waits on the launch pad once it is found, beside the
    -- panel before (where the pad lies is secret until it is excavated).
    local pad_tile = D.face_up(game, "pad")
    local flown = game.result == "won"
    local x, y = PANEL + 140, EDGE + 5 * CELL + 4 * GAP - 20
    if pad_tile then
      local pad = D.POS[pad_tile.cell]
      x = EDGE + (pad.col - 1) * (CELL + GAP) + CELL / 2
      y = EDGE + (pad.row - 1) * (CELL + GAP) + (flown and -40 or CELL / 2)
    end
    add { id = "airship", x = x, y = y, w = 64, h = 40,
          image = "art/airship.svg", shape = "none", layer = 4, opacity = flown and 1 or 0.35,
          label = flown and "the airship, flying" or pad_tile and "the airship, waiting for its parts"
            or "the airship, its launch pad not found yet" }
    parts(game, add)
    pawns(game, add)
    panel(game, add)
  end,

  -- Where tween values are: a cell (pawns, tiles, the storm), or a cell or
  -- a player (a part's or a card's holder).
  places = {
    cell = function(game, cell) return D.POS[cell] and cell_place(cell) end,
    holder = function(game, holder)
      if D.POS[holder] then return cell_place(holder) end
      if not game.players[holder] then return nil end
      return { x = PANEL + 200, y = hand_y(game, holder) }
    end,
  },
}
return view
