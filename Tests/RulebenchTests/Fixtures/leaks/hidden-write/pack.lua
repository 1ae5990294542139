-- Planted leak: a step changes the face-down deck only when its hidden top
-- card is c3, so the step's changes tell every seat what that card is.
return { name = "hidden-write", extends = "base" }
