-- `table.concat` of a huge range: refused before it runs.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local blanks = setmetatable({}, { __index = function()
      return ""
    end })
    game.note = table.concat(blanks, "", 1, 1 << 40) --!
  end,
}
