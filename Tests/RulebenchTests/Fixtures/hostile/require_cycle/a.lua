local b = require "b"
return { value = b.value }
