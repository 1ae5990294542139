// statecore.h: internal to LuaShim. The C half of the kernel's state.lua.

#ifndef STATECORE_H
#define STATECORE_H

#include <lua.h>

/* Adds the field `state` (a table of C functions for state.lua) to the
 * table on top of the stack, the helper table handed to the kernel. */
void rb_open_statecore(lua_State *L);

/* table.insert (insert 1) or table.remove (insert 0) called with the
 * arguments on the stack, done against the backing table when argument 1
 * is a writable state table and the call is well formed: the same writes,
 * journal entries and hashes as the library function's element-by-element
 * writes through the barrier. Returns its number of results, or -1 (the
 * stack as it was) when the library function must run instead. */
int rb_state_shift(lua_State *L, int insert);

#endif
