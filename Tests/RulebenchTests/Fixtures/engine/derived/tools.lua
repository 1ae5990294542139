-- A module of the derived pack; the lab pack has its own modules.
return { ok = function(n) return n <= 10 or n % 2 == 0 end }
