-- Planted leak: a call is offered only when the hidden top card is c3.
return { name = "offered-call", extends = "base" }
