return { name = "cycle_a", extends = "cycle_b" }
