-- Reading a file through io.lines.
return {
  apply = function(game)
    game.counter = game.counter + 1
    for line in io.lines("/etc/hostname") do game.host = line end --!
  end,
}
