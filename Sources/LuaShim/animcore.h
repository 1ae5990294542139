// animcore.h: internal to LuaShim. The C half of the kernel's anim.lua.

#ifndef ANIMCORE_H
#define ANIMCORE_H

#include <lua.h>

/* Adds the field `anim` (a table with `bind`, for anim.lua) to the table on
 * top of the stack, the helper table handed to the kernel. */
void rb_open_animcore(lua_State *L);

#endif
