// sizedtable.h: internal to LuaShim. A new table sized for the copy of
// another, for the C copies of plain values (statecore.c's plain and
// textcopy, animcore.c's plan data).
//
// Invariant: only the size changes, never the contents or what a rule can
// see (pairs walks plain tables in a fixed order, identity.lua): a table
// made at its size is never rehashed while the copy fills it, and every
// step copies the params of its actions.

#ifndef RULEBENCH_SIZEDTABLE_H
#define RULEBENCH_SIZEDTABLE_H

#include <lua.h>

/* Pushes a new, empty table with room for the entries of the table at
 * `from` (its border in the array part, the rest in the hash part). */
static inline void rb_sizedtable(lua_State *L, int from) {
    int entries = 0;
    lua_pushnil(L);
    while (lua_next(L, from)) {
        lua_pop(L, 1);
        entries++;
    }
    int border = (int)lua_rawlen(L, from);
    lua_createtable(L, border, entries > border ? entries - border : 0);
}

#endif
