-- A fixture pack: a one-row sliding puzzle. The start is a string option of
-- digits (`--option start=102345678` must stay text, leading zeros and all);
-- every move is a checkpoint (a move is a whole turn, as in draughts).
return {
  name = "slide",
  version = "1.0",
  options = { start = "102345678" },
  setup = function(game, options)
    game.row = {}
    for i = 1, #options.start do game.row[i] = options.start:sub(i, i) end
    game.moves = 0
  end,
  goals = {
    solved = function(game)
      return table.concat(game.row) == "012345678"
    end,
  },
  invariants = {
    one_blank = function(game)
      local blanks = 0
      for i = 1, #game.row do if game.row[i] == "0" then blanks = blanks + 1 end end
      return blanks == 1, "there are " .. blanks .. " blanks"
    end,
  },
}
