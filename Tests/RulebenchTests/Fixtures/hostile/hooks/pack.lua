-- Hostile corpus: errors and yields inside every hook. Pack-level hooks
-- (legal, render, invariants) misbehave when `arm` set game.mode to their
-- case's name; each marked line "--! case" is where that case fails.
return {
  name = "hooks",
  version = "1.0",
  setup = function(game) game.counter = 0; game.mode = "" end,
  invariants = {
    hostile = function(game) --! invariant_bad_return
      local mode = game.mode
      if mode == "invariant_error" then error("the invariant broke") end --! invariant_error
      if mode == "invariant_yield" then coroutine.yield() end --! invariant_yield
      if mode == "invariant_error_nil" then error(nil) end --! invariant_error_nil
      if mode == "invariant_loop" then while true do end end --! invariant_loop
      if mode == "invariant_write" then game.counter = 0 end --! invariant_write
      if mode == "invariant_bad_return" then return "yes" end
      return true
    end,
  },
  render = function(game) --! render_nonstring
    local mode = game.mode
    if mode == "render_error" then error({ "not a string" }) end --! render_error
    if mode == "render_yield" then coroutine.yield("frame") end --! render_yield
    if mode == "render_write" then game.counter = -1 end --! render_write
    if mode == "render_nonstring" then return 42 end
    return "counter=" .. game.counter
  end,
}
