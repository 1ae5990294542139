-- Its `legal` misbehaves in the legal_* modes.
return {
  legal = function(game, emit)
    local mode = game.mode
    if mode == "legal_error" then error("legal broke") end --! legal_error
    if mode == "legal_yield" then coroutine.yield(emit) end --! legal_yield
    if mode == "legal_emit_bad" then emit(42) end --! legal_emit_bad
    if mode == "legal_emit_cycle" then local t = {}; t.t = t; emit(t) end --! legal_emit_cycle
    if mode == "legal_emit_bytes" then emit({ note = "caf\xe9" }) end --! legal_emit_bytes
    if mode == "legal_emit_byte_key" then emit({ list = { { ["\xff"] = 1 } } }) end --! legal_emit_byte_key
    if mode == "legal_write" then game.counter = 7 end --! legal_write
    if mode == "legal_loop" then while true do emit({}) end end --! legal_loop
    emit({})
  end,
  apply = function() end,
}
