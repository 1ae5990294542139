-- A module whose top level never ends (see actions/require_spin.lua).
local M = {}
while true do end
return M
