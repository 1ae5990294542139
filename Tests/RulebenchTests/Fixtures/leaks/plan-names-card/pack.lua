-- Planted leak: the draw's plan names the drawn card in words every seat sees.
return { name = "plan-names-card", extends = "base" }
