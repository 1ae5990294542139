// statecore.h: internal to LuaShim. The C half of the kernel's state.lua.

#ifndef STATECORE_H
#define STATECORE_H

#include <lua.h>

/* Adds the field `state` (a table of C functions for state.lua) to the
 * table on top of the stack, the helper table handed to the kernel. */
void rb_open_statecore(lua_State *L);

#endif
