// valuehash.h: internal to LuaShim. The terms of hash.c's valuehash, the
// 128-bit hash of a plain value that equal values share, in one place:
// hash.c walks a value with them (valuehash, plankey) and animcore.c
// folds them in while it checks a plan (valid), so a plan is hashed in the
// walk that checks it and the two give the very same bits.
//
// Invariant: a table's hash is rb_hash_finish of the rb_hash_fold of each
// of its pairs from RB_HASH_START, so it depends on its pairs' hashes only
// (not their order): whoever folds the same pairs gets the same hash.
// Kept in one process only (plan ids, the choice of params), never saved.

#ifndef RULEBENCH_VALUEHASH_H
#define RULEBENCH_VALUEHASH_H

#include "splitmix.h"

#include <lua.h>
#include <stdint.h>
#include <string.h>

typedef struct RBHash {
    uint64_t a, b;
} RBHash;

static inline RBHash rb_hash_leaf(uint64_t x, uint64_t tag) {
    RBHash h = {rb_mix(x ^ tag), rb_mix((x + RB_SPLITMIX_GAMMA) ^ (tag << 17))};
    return h;
}

/* A string's two lanes, eight bytes at a time (the last word zero-padded,
 * the length folded in, so "ab" and "ab\0" differ). Little-endian words:
 * the hash never leaves the process. */
static inline RBHash rb_hash_string(const unsigned char *s, size_t length) {
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
    uint64_t w = 0;
    memcpy(&w, s + i, length - i);
    h = (h ^ w) * 0x100000001b3ULL;
    g = (g + w) * 0xff51afd7ed558ccdULL;
    RBHash out = {rb_mix(h ^ 5 ^ ((uint64_t)length << 32)), rb_mix(g ^ ((uint64_t)length << 8))};
    return out;
}

/* The hash of the value at `index` when it is no table: 1, or 0 when it is
 * a function, userdata or thread, which valuehash refuses. */
static inline int rb_hash_scalar(lua_State *L, int index, RBHash *out) {
    switch (lua_type(L, index)) {
    case LUA_TNIL: *out = rb_hash_leaf(0, 1); return 1;
    case LUA_TBOOLEAN: *out = rb_hash_leaf((uint64_t)lua_toboolean(L, index), 2); return 1;
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            *out = rb_hash_leaf((uint64_t)lua_tointeger(L, index), 3);
        } else {
            double x = (double)lua_tonumber(L, index);
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            *out = rb_hash_leaf(bits, 4);
        }
        return 1;
    case LUA_TSTRING: {
        size_t length;
        const char *s = lua_tolstring(L, index, &length);
        *out = rb_hash_string((const unsigned char *)s, length);
        return 1;
    }
    default: return 0;
    }
}

/* A table's running sum starts here; each pair is folded in; the sum is
 * finished into the table's hash. */
#define RB_HASH_START ((RBHash){6, 7})

static inline void rb_hash_fold(RBHash *sum, RBHash k, RBHash v) {
    sum->a += rb_mix(k.a * 31 + v.a);
    sum->b += rb_mix((k.b ^ 0x5bd1e995) * 37 + (v.b << 1));
}

static inline RBHash rb_hash_finish(RBHash sum) {
    RBHash out = {rb_mix(sum.a), rb_mix(sum.b ^ 0xabcdef)};
    return out;
}

/* A hash as valuehash gives it: 16 bytes, a Lua string (a table key). */
static inline void rb_hash_push(lua_State *L, RBHash h) {
    char bytes[16];
    memcpy(bytes, &h.a, 8);
    memcpy(bytes + 8, &h.b, 8);
    lua_pushlstring(L, bytes, sizeof bytes);
}

/* The deepest table valuehash takes (a table at depth 201 is refused). */
#define RB_HASH_DEPTH 200

#endif
