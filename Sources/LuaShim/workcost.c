// workcost.c: the instruction budget's charge for the work that library
// functions do in C.
//
// The count hook sees Lua VM instructions only; a C library function is one
// instruction however long it works, so `s:lower()` on 100 MB or
// `table.concat` of a million empty strings in a loop ran for hours under a
// 10M budget. Each library function of the sandbox whose work grows with
// its arguments is wrapped here in a C closure that reads the arguments,
// works out the elements or bytes the call will touch, charges them
// (rb_spend) and only then runs the library function itself, in the same
// frame (so its argument errors and its name in messages are unchanged).
//
// Invariant: the charge depends on the arguments alone, never on a clock,
// so the same pack gives the same error at the same step on every machine;
// a call too big for what is left of the budget is refused before it runs
// (string.pack alone is charged after it returns: its size hides in its
// format, and one call is bounded by the memory cap). Small calls (under
// RB_WORK_FREE instructions) are free, like the instructions around them.
//
// Rates: one instruction per element moved or produced (a table slot, a
// value returned or passed), one per RB_WORK_BYTES bytes scanned or
// rewritten byte by byte. Measured (2026-11-26, the 2-core test machine,
// Lua 5.4.4): a plain VM instruction 1.4 ns; lower, utf8.len, tonumber(s, 2),
// format("%q"), string.pack's padding 0.9-1.6 ns a byte; table.concat
// 13.5 ns an element. So a 10M budget spent on such C work ends within
// about 0.3 s (16 bytes or one element: 10-25 ns), not in 14 ms as plain
// instructions would, but bounded, and ordinary calls (under 256 bytes)
// stay free.

#include "workcost.h"
#include "statecore.h"

#include <lauxlib.h>
#include <string.h>

#define RB_WORK_BYTES 16
#define RB_WORK_FREE 16

/* What a wrapped function's work grows with. */
typedef enum {
    RB_WORK_ARGS,        /* its arguments: select, math.max, string.char, ... */
    RB_WORK_SUBJECT,     /* the bytes of argument 1: lower, upper, reverse, utf8.len, ... */
    RB_WORK_NUMBER,      /* tonumber: the bytes of a string argument */
    RB_WORK_FORMAT,      /* string.format: the format and every string argument */
    RB_WORK_BYTE,        /* string.byte(s, i, j): the values returned */
    RB_WORK_CODEPOINT,   /* utf8.codepoint(s, i, j): the bytes decoded */
    RB_WORK_PACK,        /* string.pack: the bytes of its result (after the call) */
    RB_WORK_LIST,        /* table.concat / table.unpack(list, [sep,] i, j): the elements */
    RB_WORK_SHIFT,       /* table.insert(t, pos, v) / table.remove(t, pos): the elements moved */
} RBWork;

static const struct { const char *library, *name; RBWork work; } rb_work_table[] = {
    {"base", "select", RB_WORK_ARGS},       {"base", "assert", RB_WORK_ARGS},
    {"base", "tonumber", RB_WORK_NUMBER},
    {"string", "char", RB_WORK_ARGS},       {"string", "byte", RB_WORK_BYTE},
    {"string", "lower", RB_WORK_SUBJECT},   {"string", "upper", RB_WORK_SUBJECT},
    {"string", "reverse", RB_WORK_SUBJECT}, {"string", "format", RB_WORK_FORMAT},
    {"string", "pack", RB_WORK_PACK},       {"string", "unpack", RB_WORK_SUBJECT},
    {"string", "packsize", RB_WORK_SUBJECT},
    {"utf8", "len", RB_WORK_SUBJECT},       {"utf8", "offset", RB_WORK_SUBJECT},
    {"utf8", "codepoint", RB_WORK_CODEPOINT}, {"utf8", "char", RB_WORK_ARGS},
    {"table", "concat", RB_WORK_LIST},      {"table", "unpack", RB_WORK_LIST},
    {"table", "insert", RB_WORK_SHIFT},     {"table", "remove", RB_WORK_SHIFT},
    {"table", "pack", RB_WORK_ARGS},
    {"math", "max", RB_WORK_ARGS},          {"math", "min", RB_WORK_ARGS},
    {NULL, NULL, 0}};

static int64_t rb_bytes_at(lua_State *L, int index) {
    return lua_type(L, index) == LUA_TSTRING ? (int64_t)lua_rawlen(L, index) : 0;
}

/* An integer argument, or `otherwise` when it is absent; 0 in *ok when it
 * is there but no integer (the library function then raises its error). */
static int64_t rb_int_at(lua_State *L, int index, int64_t otherwise, int *ok) {
    if (lua_isnoneornil(L, index)) return otherwise;
    int isint = 0;
    lua_Integer n = lua_tointegerx(L, index, &isint);
    if (!isint) *ok = 0;
    return (int64_t)n;
}

/* A position from 1 as string.byte reads it: negative from the end. */
static int64_t rb_position(int64_t pos, int64_t length) {
    if (pos >= 0) return pos;
    return -pos > length ? 0 : length + pos + 1;
}

/* Elements from i to j, or 0; in floats, so no range wraps. */
static int64_t rb_span(int64_t i, int64_t j) {
    double n = (double)j - (double)i + 1;
    return n <= 0 ? 0 : n >= 4e18 ? INT64_MAX / 2 : (int64_t)n;
}

/* The length the library function will use for the table at `index`
 * (its __len if it has one, as table.insert reads it). */
static int64_t rb_length(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return (int64_t)lua_rawlen(L, index);
    lua_pop(L, 1);
    return (int64_t)luaL_len(L, index);
}

/* table.concat(list, sep, i, j) and table.unpack(list, i, j): the elements
 * from i to j. A missing j is read here and passed on, so table.unpack
 * runs a __len metamethod once, as without the charge (table.concat reads
 * the length even when j is given: a __len of its list runs twice). */
static int64_t rb_list_cost(lua_State *L, int concat) {
    if (lua_type(L, 1) != LUA_TTABLE) return 0;
    int first = concat ? 3 : 2, ok = 1;
    int64_t i = rb_int_at(L, first, 1, &ok);
    if (!ok) return 0;
    if (lua_isnoneornil(L, first + 1)) {
        int64_t j = rb_length(L, 1);
        lua_settop(L, first + 1);
        lua_pushinteger(L, (lua_Integer)i);
        lua_replace(L, first);
        lua_pushinteger(L, (lua_Integer)j);
        lua_replace(L, first + 1);
    }
    int64_t j = rb_int_at(L, first + 1, 0, &ok);
    return ok ? rb_span(i, j) : 0;
}

/* table.insert(t, pos, v) shifts the elements from pos up; table.remove(t,
 * pos) those above pos down. Without pos they work at the end: nothing. */
static int64_t rb_shift_cost(lua_State *L, int insert) {
    int top = lua_gettop(L), ok = 1;
    if (lua_type(L, 1) != LUA_TTABLE || (insert ? top != 3 : top < 2)) return 0;
    int64_t pos = rb_int_at(L, 2, 0, &ok);
    if (!ok || pos < 1) return 0;   /* out of bounds: the library function says so */
    return rb_span(pos, rb_length(L, 1));
}

/* What the call will cost before it runs (RB_WORK_PACK: nothing yet). */
static int64_t rb_work_cost(lua_State *L, RBWork work, int insert_or_concat) {
    int top = lua_gettop(L), ok = 1;
    switch (work) {
    case RB_WORK_ARGS:
        return top;
    case RB_WORK_SUBJECT:
        return top + rb_bytes_at(L, 1) / RB_WORK_BYTES;
    case RB_WORK_NUMBER:
        return rb_bytes_at(L, 1) / RB_WORK_BYTES;
    case RB_WORK_FORMAT: {
        int64_t bytes = 0;
        for (int i = 1; i <= top; i++) bytes += rb_bytes_at(L, i);
        return top + bytes / RB_WORK_BYTES;
    }
    case RB_WORK_BYTE:
    case RB_WORK_CODEPOINT: {
        if (lua_type(L, 1) != LUA_TSTRING) return 0;
        int64_t length = (int64_t)lua_rawlen(L, 1);
        int64_t i = rb_position(rb_int_at(L, 2, 1, &ok), length);
        int64_t j = rb_position(rb_int_at(L, 3, i, &ok), length);
        if (!ok) return 0;
        if (i < 1) i = 1;
        if (j > length) j = length;
        return rb_span(i, j);
    }
    case RB_WORK_LIST:
        return rb_list_cost(L, insert_or_concat);
    case RB_WORK_SHIFT:
        return rb_shift_cost(L, insert_or_concat);
    case RB_WORK_PACK:
        return top;
    }
    return 0;
}

static void rb_work_charge(lua_State *L, int64_t cost) {
    if (cost >= RB_WORK_FREE && rb_spend(L, cost)) rb_raise_budget(L);
}

/* The wrapper: upvalue 1 the library function, 2 its RBWork, 3 whether it
 * is table.insert / table.concat (their argument layouts). */
static int rb_work_call(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
    RBWork work = (RBWork)lua_tointeger(L, lua_upvalueindex(2));
    int variant = lua_toboolean(L, lua_upvalueindex(3));
    rb_work_charge(L, rb_work_cost(L, work, variant));
    if (work == RB_WORK_SHIFT) {   /* on a state table: the elements moved in statecore.c, charged as here */
        int results = rb_state_shift(L, variant);
        if (results >= 0) return results;
    }
    if (work != RB_WORK_PACK) return f(L);
    int results = f(L);
    rb_work_charge(L, rb_bytes_at(L, -1) / RB_WORK_BYTES);
    return results;
}

/* chargework(library, name): wraps the functions of `library` (a table of
 * the sandbox) that rb_work_table lists under `name`. Entries that are not
 * C functions (the sandbox's own Lua wrappers) are left alone. */
static int rb_chargework(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *library = luaL_checkstring(L, 2);
    for (int k = 0; rb_work_table[k].library; k++) {
        if (strcmp(rb_work_table[k].library, library) != 0) continue;
        const char *name = rb_work_table[k].name;
        if (lua_getfield(L, 1, name) != LUA_TFUNCTION || !lua_iscfunction(L, -1) ||
            lua_tocfunction(L, -1) == rb_work_call) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushinteger(L, rb_work_table[k].work);
        lua_pushboolean(L, strcmp(name, "insert") == 0 || strcmp(name, "concat") == 0);
        lua_pushcclosure(L, rb_work_call, 3);
        lua_setfield(L, 1, name);
    }
    return 0;
}

void rb_open_workcost(lua_State *L) {
    lua_pushcfunction(L, rb_chargework);
    lua_setfield(L, -2, "chargework");
}
