-- Nesting past the limit one level at a time: each write is small, the
-- state grows deeper than any value may be.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local t = game.vars
    for _ = 1, 300 do
      t.next = {} --!
      t = t.next
    end
  end,
}
