-- Hostile corpus: the manifest yields, as if it were a coroutine.
local answer = coroutine.yield("name?") --!
return { name = answer }
