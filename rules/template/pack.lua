-- The template pack: tokens racing along a track of squares.
-- `rulebench new NAME` starts a pack from this folder, named NAME; change it
-- into your own game.
local track = require "track"

---@type rulebench.Pack
local pack = {
  name = "template",
  version = "1.0",
  description = "Tokens race along a track; the smallest pack that shows every part of a rule pack.",
  options = { players = 2, length = 10 },

  -- Writes the initial state. Runs once, as an action, before any move.
  setup = function(game, options)
    game.length = options.length
    game.tokens = {}
    for i = 1, options.players do
      game.tokens["p" .. i] = { square = 1 }
    end
    game.moves = 0
  end,

  -- Checked after every action by scenarios, `check` and the fuzzer.
  invariants = {
    tokens_stay_on_the_track = function(game)
      for name, token in pairs(game.tokens) do
        if not track.on_track(game, token.square) then
          return false, name .. " left the track at square " .. token.square
        end
      end
      return true
    end,
  },

  -- The board as text, for `rulebench play`.
  render = function(game)
    local lines = {}
    for name, token in pairs(game.tokens) do
      local row = {}
      for square = 1, game.length do row[square] = square == token.square and "@" or "." end
      lines[#lines + 1] = name .. " " .. table.concat(row)
    end
    return table.concat(lines, "\n")
  end,

  -- The board as a scene of nodes, for `rulebench studio` and host apps:
  -- each token on its own row of squares. `add` takes one node; its `id`
  -- is what animation plans target ("token:p1").
  view = {
    background = "#f4efe1",
    grid = { columns = 10, rows = 2, cell = 48, gap = 4, x = 8, y = 8 },
    scene = function(game, add)
      local rows = 0
      for name, token in pairs(game.tokens) do
        rows = math.max(rows, track.row(name))
        local row = track.row(name)
        for square = 1, game.length do
          add{ id = "square:" .. name .. ":" .. square, col = square, row = row, shape = "round",
               color = square == game.length and "#e9c46a" or "#fffdf6", stroke = "#b5a98c", text = tostring(square),
               textcolor = "#b5a98c" }
        end
        add{ id = "token:" .. name, col = token.square, row = row, w = 34, h = 34, shape = "circle",
             color = track.colour(name), stroke = "#333333", text = name, textcolor = "#ffffff", layer = 1,
             label = name .. " on square " .. token.square }
      end
      add{ id = "moves", x = 68, y = 8 + rows * 52 + 14, w = 120, h = 24, shape = "none", text = "moves: " .. game.moves }
    end,
    -- Where a tween's `square` values are, so a dash hops square by square.
    places = {
      square = function(game, square, target)
        return { col = square, row = track.row(target:match("^token:(.*)$")) }
      end,
    },
  },
}
return pack
