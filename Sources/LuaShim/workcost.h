// workcost.h: internal to LuaShim. The instruction budget's charge for the
// work that library functions do in C (see workcost.c).

#ifndef RULEBENCH_WORKCOST_H
#define RULEBENCH_WORKCOST_H

#include <lua.h>
#include <stdint.h>

/// Adds C.chargework(library, name) to the helpers table on top of the
/// stack (see workcost.c).
void rb_open_workcost(lua_State *L);

/// Charges `instructions` of C work to the running call's budget
/// (budget.c). Returns 1 when that overdrew it or it was spent already:
/// the caller then raises with rb_raise_budget.
int rb_spend(lua_State *L, int64_t instructions);

/// Raises "file:line: instruction budget exceeded (N instructions)" at the
/// innermost line of rule code, as the count hook does (budget.c).
int rb_raise_budget(lua_State *L);

#endif
