local a = require "a" --!
return { value = a and 1 }
