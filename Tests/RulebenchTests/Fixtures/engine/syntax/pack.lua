return { name = "syntax" }
