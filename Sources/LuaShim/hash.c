// hash.c: hashing that must be the same in every process: a chunk's file
// name, and plain values (valuehash, with same() its deep equality).
//
// Owns: nothing of the VM's; pure functions of their input.
//
// Invariant: no address, seed or allocator state reaches a hash: strings
// by their bytes (FNV-1a), numbers by subtype and exact value, tables by a
// sum over their pairs (so key order cannot matter), and a file by its
// name after the last '/'. The mixing step is splitmix.h's, shared with
// statecore.c.

#include "shim_private.h"
#include "splitmix.h"
#include "valuehash.h"

#include <lauxlib.h>

/* `h` with `length` bytes folded in: FNV-1a, the one text hash of the
 * bridge (files here, the kinds the rules name at emit through C.fnv). */
static uint64_t rb_fnv(uint64_t h, const unsigned char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) h = (h ^ bytes[i]) * 1099511628211ULL;
    return h;
}

/* `h` with a chunk's file folded in, the same in every process and
 * wherever the pack is: the text of its name after the last '/' (chunks
 * are named by their path from the working directory), never its address. */
uint64_t rb_hash_file(uint64_t h, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return rb_fnv(h, (const unsigned char *)base, strlen(base));
}

/* fnv(text): text's FNV-1a hash, shifted to a non-negative integer as
 * emitsite's sites are (engine.lua: the site of a kind the rules named). */
int rb_fnv_text(lua_State *L) {
    size_t length;
    const char *text = luaL_checklstring(L, 1, &length);
    lua_pushinteger(L, (lua_Integer)(rb_fnv(RB_FNV_BASIS, (const unsigned char *)text, length) >> 1));
    return 1;
}

/* The fuzzer's step loop keeps each action's subaction tree and plan as Lua
 * tables, compares a redo's with the original's, and names each distinct
 * plan by an id (its hash). Encoding both for every perform (to compare bytes) cost a
 * fifth of a checked step; these walk the values once, without sorting
 * or copying. They read tables raw (plans and trees are plain tables).
 *
 * valuehash: a 128-bit hash of a plain value that equal values share
 * (valuehash.h's terms: strings by their bytes, numbers by subtype and
 * exact value, tables by a sum over their pairs, so key order cannot
 * matter). 128 bits, so that a plan can be known by its hash alone:
 * keeping the plans themselves to tell them apart made the collector walk
 * thousands of old tables. */

/* Why a value cannot be hashed: a table nested too deep (or a cycle), or a
 * value of type `type`. */
typedef struct RBHashWalk {
    int known;               /* stack index of a table whose hash is `key` (0: none) */
    RBHash key;
    const char *type;        /* set when a value of this type was refused */
    int deep;                /* set when a table was nested too deep */
} RBHashWalk;

static int rb_hashvalue(lua_State *L, int index, int depth, RBHashWalk *w, RBHash *out) {
    if (lua_type(L, index) != LUA_TTABLE) {
        if (rb_hash_scalar(L, index, out)) return 1;
        w->type = luaL_typename(L, index);
        return 0;
    }
    if (w->known && lua_rawequal(L, index, w->known)) {
        *out = w->key;
        return 1;
    }
    if (depth > RB_HASH_DEPTH) {
        w->deep = 1;
        return 0;
    }
    luaL_checkstack(L, 4, "value nested too deeply");
    int t = lua_absindex(L, index);
    RBHash sum = RB_HASH_START;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        RBHash k, v;
        if (!rb_hashvalue(L, -2, depth + 1, w, &k) || !rb_hashvalue(L, -1, depth + 1, w, &v)) {
            lua_pop(L, 2);
            return 0;
        }
        rb_hash_fold(&sum, k, v);
        lua_pop(L, 1);
    }
    *out = rb_hash_finish(sum);
    return 1;
}

/* valuehash(v): that hash, as a 16-byte string (a table key). */
int rb_valuehash_call(lua_State *L) {
    luaL_checkany(L, 1);
    RBHashWalk walk = {0};
    RBHash h;
    if (!rb_hashvalue(L, 1, 0, &walk, &h)) {
        if (walk.deep) return luaL_error(L, "cannot hash a table nested more than 200 levels (or a cycle)");
        return luaL_error(L, "cannot hash a %s value", walk.type);
    }
    rb_hash_push(L, h);
    return 1;
}

/* plankey(v, known, key): valuehash(v), where the table `known` (when it is
 * one) is taken to hash to `key` without walking it: the key animcore.c's
 * `valid` gave a plan it checked, when nothing could have changed the plan
 * since. Nil where valuehash would raise, so that the caller's valuehash
 * raises it where it always did. */
int rb_plankey_call(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 3);
    RBHashWalk walk = {0};
    size_t length = 0;
    const char *key = lua_type(L, 3) == LUA_TSTRING ? lua_tolstring(L, 3, &length) : NULL;
    if (lua_type(L, 2) == LUA_TTABLE && length == 16) {
        walk.known = 2;
        memcpy(&walk.key.a, key, 8);
        memcpy(&walk.key.b, key + 8, 8);
    }
    RBHash h;
    if (!rb_hashvalue(L, 1, 0, &walk, &h)) {
        lua_pushnil(L);
        return 1;
    }
    rb_hash_push(L, h);
    return 1;
}

/* Deep equality of plain values; numbers must agree in subtype (1 is not 1.0). */
static int rb_same(lua_State *L, int a, int b, int depth) {
    int type = lua_type(L, a);
    if (type != lua_type(L, b)) return 0;
    if (type == LUA_TNUMBER && lua_isinteger(L, a) != lua_isinteger(L, b)) return 0;
    if (type != LUA_TTABLE) return lua_rawequal(L, a, b);
    if (lua_rawequal(L, a, b)) return 1;
    if (depth > 200) luaL_error(L, "cannot compare tables nested more than 200 levels (or a cycle)");
    luaL_checkstack(L, 4, "value nested too deeply");
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, a)) {
        count++;
        lua_pushvalue(L, -2);
        lua_rawget(L, b);                       /* b[k] */
        int equal = rb_same(L, -2, -1, depth + 1);
        lua_pop(L, 2);
        if (!equal) {
            lua_pop(L, 1);
            return 0;
        }
    }
    lua_pushnil(L);
    while (lua_next(L, b)) {
        lua_pop(L, 1);
        if (count-- == 0) {
            lua_pop(L, 1);
            return 0;                           /* b has a key a lacks */
        }
    }
    return count == 0;
}

/* same(a, b): true when the plain values are deeply equal. */
int rb_same_call(lua_State *L) {
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    lua_pushboolean(L, rb_same(L, 1, 2, 0));
    return 1;
}
