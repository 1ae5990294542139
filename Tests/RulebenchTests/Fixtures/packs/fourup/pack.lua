-- A fixture pack: Connect Four on a board sized by options (`cols`, `rows`).
-- Its view is one declaration for every size: the grid is a function of
-- the options, and each cell names the column a drop there plays, so the
-- disc "disc:3:1" (column 3, row 1) is named by `drop column=3`, never by
-- `drop column=1` (the last part of its id).
---@type rulebench.Pack
local pack = {
  name = "fourup",
  version = "1.0",
  description = "Discs dropped into columns; a board of any size from one view.",
  options = { cols = 7, rows = 6 },

  setup = function(game, options)
    game.cols, game.rows = options.cols, options.rows
    game.columns = {}
    for c = 1, options.cols do game.columns[c] = {} end
    game.next = "red"
  end,

  invariants = {
    columns_fit = function(game)
      for c = 1, game.cols do
        if #game.columns[c] > game.rows then return false, "column " .. c .. " overflows" end
      end
      return true
    end,
  },

  view = {
    grid = function(game, options)
      return { columns = options.cols, rows = options.rows, cell = 40, gap = 4, x = 4, y = 4 }
    end,
    scene = function(game, add)
      for c = 1, game.cols do
        local column = game.columns[c]
        for r = 1, game.rows do
          local row = game.rows + 1 - r          -- row 1 is the bottom one
          add{ id = "cell:" .. c .. ":" .. r, col = c, row = row, shape = "round", color = "#1d3557",
               names = { column = c } }
          if column[r] then
            add{ id = "disc:" .. c .. ":" .. r, col = c, row = row, w = 32, h = 32, shape = "circle", layer = 1,
                 color = column[r] == "red" and "#e63946" or "#f1c453", label = column[r] .. " disc, column " .. c
                 .. ", row " .. r, names = { column = c } }
          end
        end
      end
    end,
  },
}
return pack
