return { name = "typo" }
