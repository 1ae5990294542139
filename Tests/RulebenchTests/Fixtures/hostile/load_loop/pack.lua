-- Hostile corpus: the manifest never finishes loading.
while true do end --!
return { name = "load_loop" }
