-- press: toggles light `n` and its orthogonal neighbours.
local function toggle(game, n)
  local r, c = (n - 1) // 3, (n - 1) % 3
  game.on[n] = not game.on[n]
  if r > 0 then game.on[n - 3] = not game.on[n - 3] end
  if r < 2 then game.on[n + 3] = not game.on[n + 3] end
  if c > 0 then game.on[n - 1] = not game.on[n - 1] end
  if c < 2 then game.on[n + 1] = not game.on[n + 1] end
end

return {
  params = { n = "integer" },
  legal = function(game, emit)
    for n = 1, 9 do emit { n = n } end
  end,
  check = function(game, a)
    if a.n < 1 or a.n > 9 then return "no light " .. a.n end
  end,
  apply = function(game, a) toggle(game, a.n) end,
  undo = function(game, a)
    toggle(game, a.n)
    if game.bug == "undo" and a.n == 5 then game.on[5] = not game.on[5] end
    -- "late": the same, only where lights 1 and 9 are both off (two presses deep at least).
    if game.bug == "late" and a.n == 5 and not game.on[1] and not game.on[9] then game.on[5] = not game.on[5] end
  end,
}
