-- mark: go one level deeper, remembering which of three marks was chosen.
-- With the bug "plan", its animation counts in a module-level local, so a
-- redo plays a different plan than the first time.
local animated = 0

return {
  params = { n = "integer" },
  legal = function(game, emit)
    if game.depth < 4 then for n = 1, 3 do emit{ n = n } end end
  end,
  apply = function(game, a)
    if game.bug == "slow" then for _ = 1, game.spin do end end
    if game.bug == "error" and game.depth == 1 and a.n == 2 then error("mark failed here") end
    if game.bug == "nap" and game.depth == 0 and a.n == 1 then print("nap") end
    game.depth = game.depth + 1
    game.trail[#game.trail + 1] = a.n
  end,
  undo = function(game, a)
    if not (game.bug == "undo" and game.depth == 2 and a.n == 3) then game.depth = game.depth - 1 end
    game.trail[#game.trail] = nil
  end,
  animate = function(anim, game, a)
    if game.bug ~= "plan" then return nil end
    animated = animated + 1
    return anim.tween{ target = "mark", property = "n", from = 0, to = animated, duration = 0.25 }
  end,
}
