return { name = "badreturn" }
