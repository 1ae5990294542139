-- mark: go one level deeper, remembering which of three marks was chosen.
return {
  params = { n = "integer" },
  legal = function(game, emit)
    if game.depth < 4 then for n = 1, 3 do emit{ n = n } end end
  end,
  apply = function(game, a)
    if game.bug == "slow" then for _ = 1, game.spin do end end
    if game.bug == "error" and game.depth == 1 and a.n == 2 then error("mark failed here") end
    game.depth = game.depth + 1
    game.trail[#game.trail + 1] = a.n
  end,
  undo = function(game, a)
    if not (game.bug == "undo" and game.depth == 2 and a.n == 3) then game.depth = game.depth - 1 end
    game.trail[#game.trail] = nil
  end,
}
