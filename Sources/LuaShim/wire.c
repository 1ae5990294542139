// wire.c: the wire format values cross the bridge in, both ways:
// decode() for what Swift sends, encode() for what Lua answers.
//
// Owns: vm->encoded, the encoder's buffer kept between calls.
//
// Invariant: equal values give equal strings (keys in one canonical
// order, floats by their IEEE bits; the encoder writes only the `{` form
// of a table), and neither side runs Lua code: a
// hostile table's metamethods are never called, and Swift never pushes
// anything that could raise.

#include "shim_private.h"

#include <lauxlib.h>
#include <stdlib.h>

/* Values cross from Swift as one string, decoded here inside a protected
 * call so that Swift never pushes anything that could raise:
 *   n  t  f            nil, true, false
 *   i<digits>;         integer
 *   d<16 hex>          float, by its IEEE bits
 *   s<length>:<bytes>  string
 *   { key value ... }  table
 *   a<n>; value ...    a list of n values (keys 1..n), made at its size
 *   h<n>; key value .. a table of n pairs, made at its size
 * Only Swift writes the counted forms (a fuzz run's request: a table grown
 * one key at a time was rehashed at each power of two); the encoder
 * below writes `{`, so equal values still give equal strings.         */
typedef struct RBReader {
    const char *p, *end;
    int depth;
} RBReader;

static void rb_decode_value(lua_State *L, RBReader *r);

static long long rb_read_decimal(lua_State *L, RBReader *r, char terminator) {
    int negative = 0;
    unsigned long long value = 0;
    if (r->p < r->end && *r->p == '-') { negative = 1; r->p++; }
    const char *start = r->p;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
        value = value * 10 + (unsigned long long)(*r->p++ - '0');
    if (r->p == start || r->p >= r->end || *r->p != terminator)
        luaL_error(L, "malformed value from host");
    r->p++;
    return negative ? -(long long)value : (long long)value;
}

static void rb_decode_table(lua_State *L, RBReader *r) {
    if (++r->depth > 200) luaL_error(L, "value from host nested too deeply");
    luaL_checkstack(L, 4, "value from host nested too deeply");
    lua_newtable(L);
    while (r->p < r->end && *r->p != '}') {
        rb_decode_value(L, r);
        rb_decode_value(L, r);
        if (lua_isnil(L, -2)) luaL_error(L, "malformed value from host: nil key");
        lua_rawset(L, -3);
    }
    if (r->p >= r->end) luaL_error(L, "malformed value from host: unterminated table");
    r->p++;
    r->depth--;
}

/* A counted table: `n` values at keys 1..n (`list`), or `n` pairs. The
 * count is checked against the bytes left (every value takes one at
 * least) before any table is made at that size. */
static void rb_decode_counted(lua_State *L, RBReader *r, int list) {
    long long n = rb_read_decimal(L, r, ';');
    if (n < 0 || n > (r->end - r->p) / (list ? 1 : 2)) luaL_error(L, "malformed value from host: count");
    if (++r->depth > 200) luaL_error(L, "value from host nested too deeply");
    luaL_checkstack(L, 4, "value from host nested too deeply");
    lua_createtable(L, list ? (int)n : 0, list ? 0 : (int)n);
    for (long long i = 1; i <= n; i++) {
        if (list) {
            rb_decode_value(L, r);
            lua_rawseti(L, -2, (lua_Integer)i);
        } else {
            rb_decode_value(L, r);
            rb_decode_value(L, r);
            if (lua_isnil(L, -2)) luaL_error(L, "malformed value from host: nil key");
            lua_rawset(L, -3);
        }
    }
    r->depth--;
}

static void rb_decode_value(lua_State *L, RBReader *r) {
    if (r->p >= r->end) luaL_error(L, "malformed value from host: truncated");
    char tag = *r->p++;
    switch (tag) {
    case 'n': lua_pushnil(L); break;
    case 't': lua_pushboolean(L, 1); break;
    case 'f': lua_pushboolean(L, 0); break;
    case 'i': lua_pushinteger(L, (lua_Integer)rb_read_decimal(L, r, ';')); break;
    case 'd': {
        if (r->end - r->p < 16) luaL_error(L, "malformed value from host: float");
        uint64_t bits = 0;
        for (int i = 0; i < 16; i++) {
            char c = *r->p++;
            int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
            if (digit < 0) luaL_error(L, "malformed value from host: float");
            bits = (bits << 4) | (uint64_t)digit;
        }
        double x;
        memcpy(&x, &bits, sizeof x);
        lua_pushnumber(L, (lua_Number)x);
        break;
    }
    case 's': {
        long long length = rb_read_decimal(L, r, ':');
        if (length < 0 || length > r->end - r->p) luaL_error(L, "malformed value from host: string");
        lua_pushlstring(L, r->p, (size_t)length);
        r->p += length;
        break;
    }
    case '{': rb_decode_table(L, r); break;
    case 'a': rb_decode_counted(L, r, 1); break;
    case 'h': rb_decode_counted(L, r, 0); break;
    default: luaL_error(L, "malformed value from host: tag '%c'", tag);
    }
}

int rb_decode(lua_State *L) {
    size_t length;
    const char *s = luaL_checklstring(L, 1, &length);
    RBReader reader = {s, s + length, 0};
    rb_decode_value(L, &reader);
    if (reader.p != reader.end) return luaL_error(L, "malformed value from host: trailing bytes");
    return 1;
}

/* The wire format to Swift. */

/* The encoder mirrors rb_decode: tables are written with their keys in the
 * canonical order (numbers ascending, then strings by bytes), so equal values
 * give equal strings. A state table is read through its backing table (the
 * field `b` of its metatable). Written in C because encoding plans and
 * subaction trees in Lua cost more than running the action itself. */
typedef struct RBKey {
    int type;          /* LUA_TNUMBER or LUA_TSTRING */
    lua_Number number; /* for ordering numbers */
    const char *s;
    size_t len;
    int index;         /* position of the key on the stack */
} RBKey;

static int rb_key_compare(const void *a, const void *b) {
    const RBKey *x = a, *y = b;
    if (x->type != y->type) return x->type == LUA_TNUMBER ? -1 : 1;
    if (x->type == LUA_TNUMBER) return x->number < y->number ? -1 : x->number > y->number;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    if (c != 0) return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

/* Output of the encoder: one buffer per VM (vm->encoded), kept between
 * calls (a perform encodes a tree and a plan: allocating a buffer for each
 * was a tenth of a checked step). It only grows while a value is encoded,
 * and a buffer past RB_ENCODE_KEEP bytes is freed afterwards. It is host
 * memory, outside the Lua heap: a state near the memory cap is encoded
 * without its growing buffers (and their garbage) crowding the heap. The
 * encoder never runs Lua code, so it is not re-entered while the buffer is
 * in use; an error while encoding leaves the buffer with the VM. */
#define RB_ENCODE_KEEP (1 << 20)

typedef RBBuffer RBOut;

static void rb_out_grow(lua_State *L, RBOut *out, size_t needed) {
    size_t capacity = out->capacity ? out->capacity * 2 : 4096;
    while (capacity < needed) capacity *= 2;
    char *bigger = realloc(out->data, capacity);
    if (bigger == NULL) {
        rb_vm_of(L)->memory_hit = 1;
        luaL_error(L, "not enough memory to encode a value of %zu bytes", needed);
    }
    out->data = bigger;
    out->capacity = capacity;
}

static inline void rb_out_add(lua_State *L, RBOut *out, const char *bytes, size_t length) {
    if (out->length + length > out->capacity) rb_out_grow(L, out, out->length + length);
    memcpy(out->data + out->length, bytes, length);
    out->length += length;
}

static void rb_encode_value(lua_State *L, RBOut *out, int index, int depth);

/* Replaces the table at `index` by its backing table when it is a state table. */
/* The __metatable of every state proxy (state.lua's PROTECTED). */
#define RB_STATE_PROTECTED "rulebench state table"

static int rb_backing(lua_State *L, int index) {
    if (lua_getmetatable(L, index)) {
        /* A state proxy's metatable is its node record (state.lua): raw
         * reads only, so a table of a rule's with a metatable of its own
         * neither runs code here nor passes for state. */
        lua_pushliteral(L, "__metatable");
        int protected = lua_rawget(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -1), RB_STATE_PROTECTED) == 0;
        lua_pop(L, 1);
        lua_pushliteral(L, "b");
        if (protected && lua_rawget(L, -2) == LUA_TTABLE) {
            lua_remove(L, -2);
            return lua_gettop(L);
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, index);
    return lua_gettop(L);
}

/* Sorts the keys of one table: insertion sort for the few keys of a plan
 * node or params (no call per comparison through qsort), qsort beyond,
 * unless they came in order already (a list's array part: lua_next walks
 * it from 1 up), which one pass finds. */
static void rb_sort_keys(RBKey *keys, size_t n) {
    if (n > 12) {
        size_t i = 1;
        while (i < n && rb_key_compare(&keys[i - 1], &keys[i]) < 0) i++;
        if (i == n) return;
        qsort(keys, n, sizeof *keys, rb_key_compare);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        RBKey k = keys[i];
        size_t j = i;
        while (j > 0 && rb_key_compare(&keys[j - 1], &k) > 0) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = k;
    }
}

/* Pushes every key and value of the table on the stack (the table is not
 * changed meanwhile, so key strings stay valid), sorts an index of the keys,
 * and encodes the pairs in that order. */
static void rb_encode_table(lua_State *L, RBOut *out, int index, int depth) {
    if (depth > 200) luaL_error(L, "cannot encode a table nested more than 200 levels (or a cycle)");
    int t = rb_backing(L, index);
    RBKey small[32];
    RBKey *keys = small;
    size_t n = 0, room = 32;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int kt = lua_type(L, -2);
        if (kt != LUA_TNUMBER && kt != LUA_TSTRING) luaL_error(L, "cannot encode a key of type %s", luaL_typename(L, -2));
        if (n == room) {
            /* Many keys: an index that grows in a userdata below the pairs. */
            RBKey *more = lua_newuserdatauv(L, 4 * room * sizeof *keys, 0);
            memcpy(more, keys, n * sizeof *keys);
            lua_insert(L, t + 1);
            for (size_t i = 0; i < n; i++) more[i].index++;
            keys = more;
            room *= 4;
        }
        luaL_checkstack(L, 8, "table too large to encode");
        RBKey *k = &keys[n++];
        k->type = kt;
        k->index = lua_gettop(L) - 1;          /* the key; its value is just above */
        if (kt == LUA_TNUMBER) k->number = lua_tonumber(L, -2);
        else k->s = lua_tolstring(L, -2, &k->len);
        lua_pushvalue(L, -2);                  /* a copy of the key for lua_next */
    }
    rb_sort_keys(keys, n);
    rb_out_add(L, out, "{", 1);
    for (size_t i = 0; i < n; i++) {
        rb_encode_value(L, out, keys[i].index, depth + 1);
        rb_encode_value(L, out, keys[i].index + 1, depth + 1);
    }
    rb_out_add(L, out, "}", 1);
    lua_settop(L, t - 1);
}

/* Number formatting for the encoder (snprintf was half its cost); each
 * returns the length written. */
static size_t rb_format_integer(char *out, char tag, long long value, char terminator) {
    char digits[24];
    int n = 0;
    char *start = out;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do { digits[n++] = (char)('0' + magnitude % 10); magnitude /= 10; } while (magnitude > 0);
    *out++ = tag;
    if (value < 0) *out++ = '-';
    while (n > 0) *out++ = digits[--n];
    *out++ = terminator;
    return (size_t)(out - start);
}

static size_t rb_format_bits(char *out, uint64_t bits) {
    static const char hex[] = "0123456789abcdef";
    *out++ = 'd';
    for (int shift = 60; shift >= 0; shift -= 4) *out++ = hex[(bits >> shift) & 15];
    return 17;
}

/* Encodes the value at `index`. Everything pushed here is popped before
 * returning. */
static void rb_encode_value(lua_State *L, RBOut *out, int index, int depth) {
    char scratch[64];
    size_t n;
    switch (lua_type(L, index)) {
    case LUA_TNIL: rb_out_add(L, out, "n", 1); break;
    case LUA_TBOOLEAN: rb_out_add(L, out, lua_toboolean(L, index) ? "t" : "f", 1); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            n = rb_format_integer(scratch, 'i', (long long)lua_tointeger(L, index), ';');
        } else {
            double x = (double)lua_tonumber(L, index);
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            n = rb_format_bits(scratch, bits);
        }
        rb_out_add(L, out, scratch, n);
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, index, &len);
        n = rb_format_integer(scratch, 's', (long long)len, ':');
        rb_out_add(L, out, scratch, n);
        rb_out_add(L, out, s, len);
        break;
    }
    case LUA_TTABLE:
        luaL_checkstack(L, 8, "value nested too deeply");
        rb_encode_table(L, out, index, depth);
        break;
    default: luaL_error(L, "cannot encode a %s value", luaL_typename(L, index));
    }
}

int rb_encode(lua_State *L) {
    lua_settop(L, 1);
    RBOut *out = &rb_vm_of(L)->encoded;
    out->length = 0;
    rb_encode_value(L, out, 1, 0);
    lua_pushlstring(L, out->data ? out->data : "", out->length);
    if (out->capacity > RB_ENCODE_KEEP) {
        free(out->data);
        *out = (RBOut){NULL, 0, 0};
    }
    return 1;
}
