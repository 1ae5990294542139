-- inc (internal): count up by one; only twice queues it.
return {
  internal = true,   -- runs only as a subaction of twice
  params = {},
  check = function(game, a)
    if game.count >= game.limit then return "at the limit" end
  end,
  apply = function(game, a) game.count = game.count + 1 end,
}
