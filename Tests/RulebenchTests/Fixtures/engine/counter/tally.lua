-- tally: a module whose local changes as actions run (a bug in a real pack).
local M = { seen = 0 }
function M.bump() M.seen = M.seen + 1; return M.seen end
return M
