-- Hostile corpus: the manifest raises a table, not a message.
error({ reason = "no manifest today" }) --!
return { name = "load_error_table" }
