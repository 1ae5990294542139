// luashim.c: the protected boundary between Swift and Lua.
//
// Everything here is small on purpose. Each function does one thing, and the
// comments say why it is needed rather than what the API call does.

#include "luashim.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Instructions between two hook calls. The hook itself is cheap; what costs
 * is that any count hook makes the VM trap on every instruction. */
#define RB_HOOK_PERIOD 1000

/* Headroom above the cap that only the engine may use, so a game that hit its
 * memory cap can still be rolled back. */
#define RB_ENGINE_RESERVE ((size_t)64 << 20)

/* Registry keys (their addresses are unique). */
static const char RB_KERNEL_KEY = 'k';
static const char RB_ERRMETA_KEY = 'e';

struct RBVM {
    lua_State *L;
    size_t used;             /* bytes allocated now */
    size_t cap;              /* the game's memory cap */
    size_t limit;            /* what the allocator enforces at this moment */
    int memory_hit;          /* the allocator refused during this call */
    int64_t budget;          /* instructions per user call; 0 = no hook */
    int64_t remaining;
    int64_t spent;
    int armed;               /* a user call is running */
    int exhausted;           /* the budget ran out during this call */
    void *host_context;
    RBHostFunction host;
    RBBuffer reply;
};

/* ---------- buffers ---------- */

int rb_buffer_set(RBBuffer *buffer, const char *bytes, size_t length) {
    if (length + 1 > buffer->capacity) {
        size_t capacity = length + 1 < 256 ? 256 : length + 1;
        char *data = realloc(buffer->data, capacity);
        if (data == NULL) return 0;
        buffer->data = data;
        buffer->capacity = capacity;
    }
    if (length > 0) memcpy(buffer->data, bytes, length);
    buffer->data[length] = '\0';
    buffer->length = length;
    return 1;
}

/* ---------- memory ---------- */

/* Bytes of allocation that cost one instruction of the budget. C library
 * functions (string.rep, table.concat, `..`) run as a single VM instruction
 * however much they copy, so `while true do local s = string.rep("x", 1e8) end`
 * would otherwise run for hours under a 10M-instruction budget. */
#define RB_BYTES_PER_INSTRUCTION 256

/* Counts every byte and refuses growth past the current limit. Lua turns a
 * NULL from a growing request into an ordinary "not enough memory" error;
 * shrinking must never fail, so it is never refused. During a user call,
 * growth is also charged to the instruction budget; the count hook notices
 * the overdraft at its next call (the allocator itself must not raise). */
static void *rb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    RBVM *vm = (RBVM *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        vm->used -= old;
        return NULL;
    }
    if (nsize > old && vm->used - old + nsize > vm->limit) {
        vm->memory_hit = 1;
        return NULL;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) {
        if (nsize > old) vm->memory_hit = 1;
        return NULL;
    }
    vm->used = vm->used - old + nsize;
    if (vm->armed && nsize > old) {
        int64_t cost = (int64_t)((nsize - old) / RB_BYTES_PER_INSTRUCTION);
        vm->remaining -= cost;
        vm->spent += cost;
    }
    return block;
}

/* ---------- instruction budget ---------- */

static RBVM *rb_vm_of(lua_State *L) {
    return *(RBVM **)lua_getextraspace(L);
}

/* Pushes "file:line: " of the innermost frame of rule code. The kernel's
 * chunks are named "=rulebench/...": when a budget runs out inside the
 * engine's own work (checking a huge value a rule stored, say), the error
 * still points at the rule's line that asked for that work. */
static void rb_push_where(lua_State *L) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 &&
            strncmp(ar.source, "=rulebench", 10) != 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/* Called every RB_HOOK_PERIOD instructions, in whichever thread runs. Once the
 * budget is spent it stays spent: the hook is re-armed to fire on every
 * instruction and raises again each time, so `while true do pcall(f) end`
 * cannot swallow the error and carry on. */
static void rb_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    RBVM *vm = rb_vm_of(L);
    if (!vm->armed) return;
    if (!vm->exhausted) {
        vm->spent += RB_HOOK_PERIOD;
        vm->remaining -= RB_HOOK_PERIOD;
        if (vm->remaining > 0) return;
        vm->exhausted = 1;
        lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, 1);
        if (L != vm->L) lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
    }
    rb_push_where(L);
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (lua_Integer)vm->budget);
    lua_concat(L, 2);
    lua_error(L);
}

static void rb_install_hook(RBVM *vm) {
    if (vm->budget > 0)
        lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, RB_HOOK_PERIOD);
    else
        lua_sethook(vm->L, NULL, 0, 0);
}

/* charge(n): counts n instructions' worth of work that a C library
 * function is about to do (the pattern matcher, for one) against the budget,
 * since the count hook cannot see inside C. Returns true, and leaves the
 * budget spent (the hook then raises at every instruction), when that
 * overdraws it or it was spent already (charge(0) asks just that); the
 * caller raises the error with the rule's file:line. */
static int rb_charge(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    lua_Number n = luaL_checknumber(L, 1);
    int out = 0;
    if (vm->armed && n >= 1) {
        int64_t cost = n >= 4e18 ? INT64_MAX / 2 : (int64_t)n;
        vm->remaining -= cost;
        vm->spent += cost;
        if (vm->remaining <= 0) {
            out = 1;
            if (!vm->exhausted) {
                vm->exhausted = 1;
                lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, 1);
                if (L != vm->L) lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
            }
        }
    }
    lua_pushboolean(L, out || (vm->armed && vm->exhausted));
    lua_pushinteger(L, (lua_Integer)vm->budget);
    return 2;
}

void rb_set_instruction_budget(RBVM *vm, int64_t instructions) {
    vm->budget = instructions > 0 ? instructions : 0;
    rb_install_hook(vm);
}

void rb_set_memory_cap(RBVM *vm, size_t bytes) {
    vm->cap = bytes;
    vm->limit = bytes + RB_ENGINE_RESERVE;
}

size_t rb_memory_used(RBVM *vm) { return vm->used; }

int64_t rb_instructions_used(RBVM *vm) { return vm->spent; }

static void rb_arm(RBVM *vm, RBCallMode mode) {
    vm->memory_hit = 0;
    vm->exhausted = 0;
    vm->spent = 0;
    vm->remaining = vm->budget;
    vm->armed = (mode == RB_MODE_USER && vm->budget > 0);
    vm->limit = mode == RB_MODE_USER ? vm->cap : vm->cap + RB_ENGINE_RESERVE;
}

/* After a call: lift the budget and restore the normal hook period, so the
 * next call (and the engine's own rollback) runs at full speed. */
static void rb_disarm(RBVM *vm) {
    vm->armed = 0;
    vm->limit = vm->cap + RB_ENGINE_RESERVE;
    if (vm->exhausted) rb_install_hook(vm);
}

/* ---------- error handling ---------- */

/* Message handler for every protected call: turns the error into a string
 * with a traceback. Kernel error objects (tables with the kernel's error
 * metatable) already carry structured fields and pass through untouched.
 * It never calls __tostring: a hostile object must not run code here. */
static int rb_msgh(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && lua_getmetatable(L, 1)) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &RB_ERRMETA_KEY);
        int ours = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (ours) return 1;
    }
    const char *message;
    int type = lua_type(L, 1);
    if (type == LUA_TSTRING || type == LUA_TNUMBER)
        message = lua_tostring(L, 1);
    else
        message = lua_pushfstring(L, "error object is a %s value", luaL_typename(L, 1));
    luaL_traceback(L, L, message, 1);
    return 1;
}

/* ---------- Swift functions, raised from C ---------- */

/* host(operation, argument): calls the Swift host function. Swift answers
 * through a C buffer and a status; only this C frame raises. */
static int rb_host_call(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    const char *operation = luaL_checkstring(L, 1);
    size_t length = 0;
    const char *argument = luaL_optlstring(L, 2, "", &length);
    if (vm->host == NULL) return luaL_error(L, "no host functions are available");
    int failed = vm->host(vm->host_context, operation, argument, length, &vm->reply);
    lua_pushlstring(L, vm->reply.data ? vm->reply.data : "", vm->reply.length);
    if (failed) return lua_error(L);
    return 1;
}

/* ---------- hashing helpers for the kernel ---------- */

/* FNV-1a over the bytes: stable across machines and runs, unlike Lua's
 * internal string hash, which is seeded per state. */
static int rb_strhash(lua_State *L) {
    size_t length;
    const char *s = luaL_checklstring(L, 1, &length);
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < length; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    lua_pushinteger(L, (lua_Integer)h);
    return 1;
}

/* The IEEE-754 bits of a float, so the hash encodes numbers exactly. */
static int rb_floatbits(lua_State *L) {
    double x = (double)luaL_checknumber(L, 1);
    int64_t bits;
    memcpy(&bits, &x, sizeof bits);
    lua_pushinteger(L, (lua_Integer)bits);
    return 1;
}

/* ---------- the wire format from Swift ---------- */

/* Values cross from Swift as one string, decoded here inside a protected
 * call so that Swift never pushes anything that could raise:
 *   n  t  f            nil, true, false
 *   i<digits>;         integer
 *   d<16 hex>          float, by its IEEE bits
 *   s<length>:<bytes>  string
 *   { key value ... }  table                                          */
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
    default: luaL_error(L, "malformed value from host: tag '%c'", tag);
    }
}

static int rb_decode(lua_State *L) {
    size_t length;
    const char *s = luaL_checklstring(L, 1, &length);
    RBReader reader = {s, s + length, 0};
    rb_decode_value(L, &reader);
    if (reader.p != reader.end) return luaL_error(L, "malformed value from host: trailing bytes");
    return 1;
}

/* ---------- the wire format to Swift ---------- */

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

/* Output of the encoder: a userdata at a fixed stack slot, so that the
 * encoder may push and pop freely above it (luaL_Buffer may not). */
typedef struct RBOut {
    char *data;
    size_t length, capacity;
    int slot;
} RBOut;

static void rb_out_add(lua_State *L, RBOut *out, const char *bytes, size_t length) {
    if (out->length + length > out->capacity) {
        size_t capacity = out->capacity * 2;
        while (capacity < out->length + length) capacity *= 2;
        char *bigger = lua_newuserdatauv(L, capacity, 0);
        memcpy(bigger, out->data, out->length);
        lua_replace(L, out->slot);
        out->data = bigger;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, bytes, length);
    out->length += length;
}

static void rb_encode_value(lua_State *L, RBOut *out, int index, int depth);

/* Replaces the table at `index` by its backing table when it is a state table. */
static int rb_backing(lua_State *L, int index) {
    if (lua_getmetatable(L, index)) {
        if (lua_getfield(L, -1, "b") == LUA_TTABLE) {
            lua_remove(L, -2);
            return lua_gettop(L);
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, index);
    return lua_gettop(L);
}

/* Pushes every key and value of the table on the stack (the table is not
 * changed meanwhile, so key strings stay valid), sorts an index of the keys,
 * and encodes the pairs in that order. */
static void rb_encode_table(lua_State *L, RBOut *out, int index, int depth) {
    if (depth > 200) luaL_error(L, "cannot encode a table nested more than 200 levels (or a cycle)");
    int t = rb_backing(L, index);
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) { lua_pop(L, 1); count++; }
    RBKey small[32];
    RBKey *keys = count <= 32 ? small : lua_newuserdatauv(L, count * sizeof *keys, 0);
    luaL_checkstack(L, (int)(2 * count + 8), "table too large to encode");
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int kt = lua_type(L, -2);
        if (kt != LUA_TNUMBER && kt != LUA_TSTRING) luaL_error(L, "cannot encode a key of type %s", luaL_typename(L, -2));
        if (n == count) luaL_error(L, "table changed while being encoded");
        RBKey *k = &keys[n++];
        k->type = kt;
        k->index = lua_gettop(L) - 1;          /* the key; its value is just above */
        if (kt == LUA_TNUMBER) k->number = lua_tonumber(L, -2);
        else k->s = lua_tolstring(L, -2, &k->len);
        lua_pushvalue(L, -2);                  /* a copy of the key for lua_next */
    }
    qsort(keys, n, sizeof *keys, rb_key_compare);
    rb_out_add(L, out, "{", 1);
    for (size_t i = 0; i < n; i++) {
        rb_encode_value(L, out, keys[i].index, depth + 1);
        rb_encode_value(L, out, keys[i].index + 1, depth + 1);
    }
    rb_out_add(L, out, "}", 1);
    lua_settop(L, t - 1);
}

/* Number formatting for the encoder: snprintf was half its cost. */
static void rb_format_integer(char *out, char tag, long long value, char terminator) {
    char digits[24];
    int n = 0;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do { digits[n++] = (char)('0' + magnitude % 10); magnitude /= 10; } while (magnitude > 0);
    *out++ = tag;
    if (value < 0) *out++ = '-';
    while (n > 0) *out++ = digits[--n];
    *out++ = terminator;
    *out = '\0';
}

static void rb_format_bits(char *out, uint64_t bits) {
    static const char hex[] = "0123456789abcdef";
    *out++ = 'd';
    for (int shift = 60; shift >= 0; shift -= 4) *out++ = hex[(bits >> shift) & 15];
    *out = '\0';
}

/* Encodes the value at `index`. The buffer lives on the stack below, so
 * everything pushed here is popped before adding to it. */
static void rb_encode_value(lua_State *L, RBOut *out, int index, int depth) {
    char scratch[64];
    luaL_checkstack(L, 8, "value nested too deeply");
    switch (lua_type(L, index)) {
    case LUA_TNIL: rb_out_add(L, out, "n", 1); break;
    case LUA_TBOOLEAN: rb_out_add(L, out, lua_toboolean(L, index) ? "t" : "f", 1); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            rb_format_integer(scratch, 'i', (long long)lua_tointeger(L, index), ';');
        } else {
            double x = (double)lua_tonumber(L, index);
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            rb_format_bits(scratch, bits);
        }
        rb_out_add(L, out, scratch, strlen(scratch));
        break;
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, index, &len);
        rb_format_integer(scratch, 's', (long long)len, ':');
        rb_out_add(L, out, scratch, strlen(scratch));
        rb_out_add(L, out, s, len);
        break;
    }
    case LUA_TTABLE: rb_encode_table(L, out, index, depth); break;
    default: luaL_error(L, "cannot encode a %s value", luaL_typename(L, index));
    }
}

static int rb_encode(lua_State *L) {
    lua_settop(L, 1);
    RBOut out = {lua_newuserdatauv(L, 256, 0), 0, 256, 2};
    rb_encode_value(L, &out, 1, 0);
    lua_pushlstring(L, out.data, out.length);
    return 1;
}

/* ---------- the VM ---------- */

RBVM *rb_open(size_t memory_cap, void *host_context, RBHostFunction host) {
    RBVM *vm = calloc(1, sizeof *vm);
    if (vm == NULL) return NULL;
    vm->cap = memory_cap;
    vm->limit = memory_cap + RB_ENGINE_RESERVE;
    vm->host_context = host_context;
    vm->host = host;
    vm->L = lua_newstate(rb_alloc, vm);
    if (vm->L == NULL) {
        free(vm);
        return NULL;
    }
    *(RBVM **)lua_getextraspace(vm->L) = vm;
    return vm;
}

void rb_close(RBVM *vm) {
    if (vm == NULL) return;
    lua_close(vm->L);
    free(vm->reply.data);
    free(vm);
}

lua_State *rb_state(RBVM *vm) { return vm->L; }

void rb_clear(RBVM *vm) { lua_settop(vm->L, 0); }

/* The libraries the kernel starts from. io and package are never opened;
 * the kernel keeps what it needs of os and debug and removes them from
 * the globals before any rule is loaded. */
static int rb_open_libraries(lua_State *L) {
    static const luaL_Reg libraries[] = {
        {LUA_GNAME, luaopen_base},        {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine},
        {LUA_DBLIBNAME, luaopen_debug},   {LUA_OSLIBNAME, luaopen_os},
        {NULL, NULL}};
    for (const luaL_Reg *lib = libraries; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    return 0;
}

/* The C functions handed to the kernel chunk as its argument. */
static void rb_push_helpers(lua_State *L) {
    static const luaL_Reg helpers[] = {
        {"host", rb_host_call}, {"strhash", rb_strhash},
        {"floatbits", rb_floatbits}, {"decode", rb_decode}, {"encode", rb_encode},
        {"charge", rb_charge},
        {NULL, NULL}};
    luaL_newlib(L, helpers);
    lua_newtable(L); /* the metatable that marks kernel error objects */
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RB_ERRMETA_KEY);
    lua_setfield(L, -2, "errormeta");
}

typedef struct RBKernelLoad {
    int count;
    const char *const *sources;
    const size_t *lengths;
    const char *const *chunknames;
} RBKernelLoad;

/* The kernel is a list of chunks. The first is called with the C helpers;
 * every later one with what the first returned (the kernel's shared table).
 * What the last returns is the table of functions rb_call reaches. */
static int rb_load_kernel_protected(lua_State *L) {
    RBKernelLoad *load = (RBKernelLoad *)lua_touserdata(L, 1);
    rb_open_libraries(L);
    for (int i = 0; i < load->count; i++) {
        if (luaL_loadbufferx(L, load->sources[i], load->lengths[i], load->chunknames[i], "t") != LUA_OK)
            return lua_error(L);
        if (i == 0) rb_push_helpers(L); else lua_pushvalue(L, 2);
        lua_call(L, 1, 1);
        if (i == 0 && !lua_istable(L, 2))  /* slot 2 keeps the shared table */
            return luaL_error(L, "the kernel's first chunk did not return a table");
        if (i > 0 && i < load->count - 1) lua_settop(L, 2);
    }
    if (!lua_istable(L, -1)) return luaL_error(L, "the kernel's last chunk did not return a table");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RB_KERNEL_KEY);
    return 0;
}

static RBStatus rb_status(RBVM *vm, int status) {
    if (status == LUA_OK) return RB_OK;
    if (vm->exhausted) return RB_BUDGET;
    if (status == LUA_ERRMEM || vm->memory_hit) return RB_MEMORY;
    if (status == LUA_ERRERR) return RB_HANDLER;
    return RB_ERROR;
}

RBStatus rb_load_kernel(RBVM *vm, int count, const char *const *sources, const size_t *lengths,
                        const char *const *chunknames) {
    lua_State *L = vm->L;
    lua_settop(L, 0);
    RBKernelLoad load = {count, sources, lengths, chunknames};
    lua_pushcfunction(L, rb_msgh);
    lua_pushcfunction(L, rb_load_kernel_protected);
    lua_pushlightuserdata(L, &load);
    rb_arm(vm, RB_MODE_ENGINE);
    int status = lua_pcall(L, 1, 0, 1);
    rb_disarm(vm);
    if (status == LUA_OK) rb_install_hook(vm);
    return rb_status(vm, status);
}

typedef struct RBCall {
    const char *function;
    int argc;
    const char *const *argv;
    const size_t *lengths;
} RBCall;

/* Runs inside lua_pcall: everything that can raise (pushing strings,
 * looking up the function, the call itself) happens here, not in Swift. */
static int rb_trampoline(lua_State *L) {
    RBCall *call = (RBCall *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    luaL_checkstack(L, call->argc + 2, "too many arguments");
    lua_rawgetp(L, LUA_REGISTRYINDEX, &RB_KERNEL_KEY);
    if (lua_getfield(L, -1, call->function) != LUA_TFUNCTION)
        return luaL_error(L, "kernel has no function '%s'", call->function);
    lua_remove(L, 1);
    for (int i = 0; i < call->argc; i++)
        lua_pushlstring(L, call->argv[i], call->lengths[i]);
    lua_call(L, call->argc, LUA_MULTRET);
    return lua_gettop(L);
}

RBStatus rb_call(RBVM *vm, RBCallMode mode, const char *function,
                 int argc, const char *const *argv, const size_t *lengths) {
    lua_State *L = vm->L;
    lua_settop(L, 0);
    if (!lua_checkstack(L, 8)) return RB_MEMORY;
    RBCall call = {function, argc, argv, lengths};
    lua_pushcfunction(L, rb_msgh);
    lua_pushcfunction(L, rb_trampoline);
    lua_pushlightuserdata(L, &call);
    rb_arm(vm, mode);
    int status = lua_pcall(L, 1, LUA_MULTRET, 1);
    rb_disarm(vm);
    return rb_status(vm, status);
}
