// The Lua 5.4 C API as installed by Debian's liblua5.4-dev (found via pkg-config lua5.4).
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
