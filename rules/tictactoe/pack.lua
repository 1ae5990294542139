-- Tic-tac-toe: x and o take turns marking a cell of a 3 by 3 board; three of
-- a seat's marks in a row, a column or a diagonal win. The options make it
-- any m,n,k-game (`cols` by `rows`, `k` in a row) and start it from a
-- position (`opening`: the cells marked, x first, such as "5,2"). A finished game offers
-- no call (`place` emits nothing once a line is made or the board is full),
-- and `result` says who won. The state is the board and the seat to move,
-- nothing else, so equal boards are one state: `explore --unique` counts
-- positions, `solve --value` transposes.
local lines = require "lines"

---@type rulebench.Pack
local pack = {
  name = "tictactoe",
  version = "1.0",
  description = "Tic-tac-toe for two seats: the smallest game whose value `solve --value` proves (a draw).",
  options = { cols = 3, rows = 3, k = 3, opening = "" },

  seats = { "x", "o" },
  turn = function(game)
    if lines.finished(game) then return nil, "the game is over" end
    return game.next, "it is " .. game.next .. "'s turn"
  end,

  setup = function(game, options)
    assert(options.cols >= 1 and options.rows >= 1 and options.cols * options.rows <= 64, "cols by rows: 1 to 64 cells")
    assert(options.k >= 1, "k, the marks in a row that win: 1 or more")
    game.cols, game.rows, game.k = options.cols, options.rows, options.k
    game.cells = {}
    for i = 1, options.cols * options.rows do game.cells[i] = "." end
    game.next = "x"
    for cell in string.gmatch(options.opening, "%d+") do
      local i = math.tointeger(tonumber(cell))
      assert(game.cells[i] == ".", "opening: cell " .. cell .. " is off the board or taken")
      game.cells[i] = game.next
      game.next = game.next == "x" and "o" or "x"
    end
  end,

  -- nil while play goes on; the seat that made a line; "draw" on a full board.
  result = function(game)
    local winner = lines.winner(game)
    if winner then return winner end
    if lines.full(game) then return "draw" end
    return nil
  end,

  -- How good the position looks for `seat`, from -1 to 1: lines still open
  -- to it less lines still open to the other, over the eight lines. Orders
  -- the moves of `solve --value` and the bots; never decides a value.
  appraise = function(game, seat)
    local all = #lines.lines(game)
    if all == 0 then return 0 end
    return (lines.open(game, seat) - lines.open(game, seat == "x" and "o" or "x")) / all
  end,

  goals = {
    x_wins = function(game) return lines.winner(game) == "x" end,
    o_wins = function(game) return lines.winner(game) == "o" end,
    draw = function(game) return lines.winner(game) == nil and lines.full(game) end,
  },

  invariants = {
    marks_alternate = function(game)
      local x, o = lines.count(game, "x"), lines.count(game, "o")
      if x - o ~= 0 and x - o ~= 1 then return false, x .. " x marks and " .. o .. " o marks" end
      return true
    end,
  },

  render = function(game)
    local rows = {}
    for r = 0, game.rows - 1 do
      rows[#rows + 1] = table.concat(game.cells, "", r * game.cols + 1, (r + 1) * game.cols)
    end
    return table.concat(rows, "\n") .. "\n" .. (lines.finished(game) and "over" or game.next .. " to move")
  end,

  view = {
    background = "#f4efe1",
    grid = { columns = 8, rows = 8, cell = 64, gap = 4, x = 8, y = 8 },
    scene = function(game, add)
      for i = 1, #game.cells do
        local mark = game.cells[i]
        add{ id = "cell:" .. i, col = (i - 1) % game.cols + 1, row = (i - 1) // game.cols + 1, shape = "rect",
             color = "#fffdf6", stroke = "#b5a98c", text = mark == "." and "" or mark,
             textcolor = mark == "x" and "#264653" or "#e76f51", label = "cell " .. i .. ": " .. mark }
      end
    end,
  },
}
return pack
