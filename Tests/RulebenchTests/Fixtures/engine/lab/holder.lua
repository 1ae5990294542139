-- Keeps a reference to the game, so a late-loaded module can try to write it.
local M = {}
function M.keep(game) M.game = game end
return M
