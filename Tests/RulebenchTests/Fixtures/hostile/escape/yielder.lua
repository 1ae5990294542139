-- A module whose top level yields (see actions/require_yield.lua).
local M = {}
coroutine.yield()
return M
