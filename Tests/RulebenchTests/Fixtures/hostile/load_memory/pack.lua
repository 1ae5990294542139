-- Hostile corpus: a memory bomb while the manifest loads.
local keep = {}
for i = 1, 1e6 do keep[i] = string.rep(string.rep("p", 1024), 1024) .. i end --!
return { name = "load_memory" }
