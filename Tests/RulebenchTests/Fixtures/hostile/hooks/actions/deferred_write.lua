-- apply leaves a coroutine behind; the next check resumes it, and the
-- write it then makes happens in check, where the state is read-only.
local pending
return {
  check = function(game)
    if pending then
      local co = pending
      pending = nil
      local ok, err = coroutine.resume(co)
      if not ok then error(err, 0) end
    end
  end,
  apply = function(game)
    game.counter = game.counter + 1
    pending = coroutine.create(function()
      coroutine.yield()
      game.counter = 1000 --!
    end)
    coroutine.resume(pending)
  end,
}
