-- press(game, n): toggles light n and its orthogonal neighbours.
return function(game, n)
  local size, on = game.size, game.on
  local r, c = (n - 1) // size, (n - 1) % size
  on[n] = not on[n]
  if r > 0 then on[n - size] = not on[n - size] end
  if r < size - 1 then on[n + size] = not on[n + size] end
  if c > 0 then on[n - 1] = not on[n - 1] end
  if c < size - 1 then on[n + 1] = not on[n + 1] end
end
