// hash.c: hashing that must be the same in every process: a chunk's file
// name, and plain values (valuehash, with same() its deep equality).
//
// Owns: nothing of the VM's; pure functions of their input.
//
// Invariant: no address, seed or allocator state reaches a hash: strings
// by their bytes (FNV-1a), numbers by subtype and exact value, tables by a
// sum over their pairs (so key order cannot matter), and a file by its
// name after the last '/'. The mixing step is splitmix.h's, shared with
// statecore.c. A table's hash may be taken from notes (animcore.c's, of
// the leaves it built): they are found by the table's identity, which only
// picks the note; the bits are the walk's.

#include "shim_private.h"
#include "splitmix.h"

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
 * fifth of a checked step; these two walk the values once, without sorting
 * or copying. Both read tables raw (plans and trees are plain tables). */

/* A 128-bit hash of a plain value that equal values share: two 64-bit
 * lanes with different constants, strings by their bytes (FNV-1a), numbers
 * by subtype and exact value, tables by the wrapping sum of one term per
 * pair (so key order cannot matter). 128 bits, so that a plan can be known
 * by its hash alone: keeping the plans themselves to tell them apart made
 * the collector walk thousands of old tables. */
static RBHash rb_leafhash(uint64_t x, uint64_t tag) {
    RBHash h = {rb_mix(x ^ tag), rb_mix((x + RB_SPLITMIX_GAMMA) ^ (tag << 17))};
    return h;
}

/* A string's two lanes, eight bytes at a time (the last word zero-padded,
 * the length folded in, so "ab" and "ab\0" differ): a plan's keys and
 * texts are most of what valuehash reads, and a byte at a time was a
 * twentieth of a checked step. Little-endian words: the hash is kept in
 * one process only (plan ids, the choice of params), never saved. */
RBHash rb_hash_text(const char *text, size_t length) {
    const unsigned char *s = (const unsigned char *)text;
    uint64_t h = 14695981039346656037ULL, g = 0x84222325cbf29ce4ULL;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
        g = (g + w) * 0xff51afd7ed558ccdULL;
        g ^= g >> 31;
    }
    unsigned char tail[8] = {0};             /* the last word: bytes copied one by one, then the word */
    for (size_t j = 0; i + j < length; j++) tail[j] = s[i + j];   /* (memcpy of a varying size is a call) */
    uint64_t w;
    memcpy(&w, tail, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    g = (g + w) * 0xff51afd7ed558ccdULL;
    RBHash out = {rb_mix(h ^ 5 ^ ((uint64_t)length << 32)), rb_mix(g ^ ((uint64_t)length << 8))};
    return out;
}

/* One pair's term of a table's sum, and the table's hash from the sum: a
 * table's hash is rb_hash_close of RB_HASH_EMPTY with every pair added. */
void rb_hash_pair(RBHash *sum, RBHash k, RBHash v) {
    sum->a += rb_mix(k.a * 31 + v.a);
    sum->b += rb_mix((k.b ^ 0x5bd1e995) * 37 + (v.b << 1));
}

RBHash rb_hash_close(RBHash sum) {
    RBHash out = {rb_mix(sum.a), rb_mix(sum.b ^ 0xabcdef)};
    return out;
}

RBHash rb_hash_integer(lua_Integer i) { return rb_leafhash((uint64_t)i, 3); }

RBHash rb_hash_float(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return rb_leafhash(bits, 4);
}

RBHash rb_hash_boolean(int b) { return rb_leafhash((uint64_t)(b != 0), 2); }

/* Whether the table at index t is noted; then *out is its hash. */
static int rb_noted(lua_State *L, int t, const RBNotes *notes, RBHash *out) {
    const void *table = lua_topointer(L, t);
    for (int i = 0; i < RB_NOTES; i++)
        if (notes->table[i] == table) {
            *out = notes->hash[i];
            return 1;
        }
    return 0;
}

/* `notes`: NULL, or tables whose hashes are known, taken instead of a
 * walk; the caller vouches that each noted hash is its table's. */
static RBHash rb_valuehash(lua_State *L, int index, int depth, const RBNotes *notes) {
    switch (lua_type(L, index)) {
    case LUA_TNIL: return rb_leafhash(0, 1);
    case LUA_TBOOLEAN: return rb_hash_boolean(lua_toboolean(L, index));
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) return rb_hash_integer(lua_tointeger(L, index));
        return rb_hash_float((double)lua_tonumber(L, index));
    case LUA_TSTRING: {
        size_t length;
        const char *s = lua_tolstring(L, index, &length);
        return rb_hash_text(s, length);
    }
    case LUA_TTABLE: {
        if (depth > 200) luaL_error(L, "cannot hash a table nested more than 200 levels (or a cycle)");
        luaL_checkstack(L, 4, "value nested too deeply");
        int t = lua_absindex(L, index);
        RBHash noted;
        if (notes != NULL && rb_noted(L, t, notes, &noted)) return noted;   /* a leaf noted as built (animcore.c) */
        RBHash sum = RB_HASH_EMPTY;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            RBHash k;
            if (lua_type(L, -2) == LUA_TSTRING) {  /* most keys: the string case, without the call */
                size_t length;
                const char *s = lua_tolstring(L, -2, &length);
                k = rb_hash_text(s, length);
            } else {
                k = rb_valuehash(L, -2, depth + 1, notes);
            }
            RBHash v = rb_valuehash(L, -1, depth + 1, notes);
            rb_hash_pair(&sum, k, v);
            lua_pop(L, 1);
        }
        return rb_hash_close(sum);
    }
    default:
        luaL_error(L, "cannot hash a %s value", luaL_typename(L, index));
        return rb_leafhash(0, 0);
    }
}

RBHash rb_hash_value(lua_State *L, int index, const RBNotes *notes) { return rb_valuehash(L, index, 0, notes); }

/* Pushes h as valuehash gives it: a 16-byte string (a table key). */
void rb_push_hash(lua_State *L, RBHash h) {
    char bytes[16];
    memcpy(bytes, &h.a, 8);
    memcpy(bytes + 8, &h.b, 8);
    lua_pushlstring(L, bytes, sizeof bytes);
}

/* valuehash(v): that hash, as a 16-byte string (a table key). */
int rb_valuehash_call(lua_State *L) {
    luaL_checkany(L, 1);
    rb_push_hash(L, rb_valuehash(L, 1, 0, NULL));
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
