-- The collector's answers are fixed.
return {
  apply = function(game)
    local v = game.vars
    v.collect = collectgarbage()
    v.full = collectgarbage("collect")
    v.step = collectgarbage("step")
    v.running = collectgarbage("isrunning")
    game.counter = game.counter + 1
  end,
}
