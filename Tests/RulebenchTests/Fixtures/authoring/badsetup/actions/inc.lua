-- inc: count up by one; only twice queues it.
return {
  params = {},
  check = function(game, a)
    if game.count >= game.limit then return "at the limit" end
  end,
  apply = function(game, a) game.count = game.count + 1 end,
}
