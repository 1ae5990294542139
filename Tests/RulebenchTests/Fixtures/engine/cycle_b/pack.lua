return { name = "cycle_b", extends = "cycle_a" }
