-- load(..., nil) runs in the pack's globals, not in the kernel's.
return {
  apply = function(game)
    game.counter = game.counter + 1
    local f = load("return io.open('/etc/passwd')") --!
    return f()
  end,
}
