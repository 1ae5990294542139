-- `string.pack` with a huge fixed size pads byte by byte: charged by its result.
return {
  apply = function(game)
    game.counter = game.counter + 1
    for _ = 1, 100 do string.pack("c1000000", "") end
  end,
}
