// kernelcache.c: the kernel's chunks compiled once per process. The first
// load of a chunk parses its text (in a scratch state of its own) and keeps
// the compiled function as lua_dump wrote it; every game's state then loads
// that dump, the first game's as every later one's: a game's load undumps
// instead of parsing 360 KB of text (about 7M machine instructions instead
// of 42M), and every game's state sees the very same allocations, whether
// its load compiled the chunk or found it compiled (no parser garbage in
// the first game's heap that later ones lack).
//
// Owns: the process-wide table of compiled kernel chunks (name, a copy of
// the source, the dump), the lock that guards it, the count of loads it
// answered, and the tests' switch of how chunks load (RBKernelLoadWay).
//
// Invariant: the only binary chunks any Lua state of the process loads
// ("b") are dumps made here, each by this process, by lua_dump of the
// function the chunk's own text compiled to, not stripped: the line info,
// local and upvalue names and the chunk name stay, so errors and
// tracebacks read byte for byte as from the text, and no address, time or
// seed is in a dump. A dump is served only for the name and bytes it was
// made from (compared in full). Rule packs and everything else load as text
// only ("t", sandbox.lua's load); nothing reaches this file but
// rb_load_kernel's chunks, the kernel's own text embedded in the library.
// Entries are made under the lock and never changed or freed; the table is
// bounded: once it is full, a further chunk is compiled afresh at each load.

#include "shim_private.h"

#include <lauxlib.h>
#include <stdlib.h>

/* The kernel has 22 chunks; room for them and for the few small kernels a
 * test loads through LuaVM. */
#define RB_KERNEL_CACHE_ENTRIES 64

typedef struct RBCompiledChunk {
    char *name;
    char *source;     /* a copy: the key is the bytes, not where they lie */
    size_t length;
    char *dump;
    size_t dump_length;
} RBCompiledChunk;

static pthread_mutex_t rb_kernel_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static RBCompiledChunk rb_kernel_cache[RB_KERNEL_CACHE_ENTRIES];
static int rb_kernel_cache_used;               /* entries made (under the lock) */
static atomic_llong rb_kernel_cache_answered;   /* loads served from the table */
static atomic_int rb_kernel_load_way;           /* RBKernelLoadWay; tests change it */

/* The entry made from this name and text, or NULL. Under the lock. */
static const RBCompiledChunk *rb_kernel_cache_find(const char *name, const char *source, size_t length) {
    for (int i = 0; i < rb_kernel_cache_used; i++) {
        const RBCompiledChunk *entry = &rb_kernel_cache[i];
        if (entry->length == length && strcmp(entry->name, name) == 0 && memcmp(entry->source, source, length) == 0)
            return entry;
    }
    return NULL;
}

typedef struct RBDumpBuffer {
    char *data;
    size_t length, capacity;
    int failed;
} RBDumpBuffer;

/* lua_dump's writer: appends to a malloc'd buffer (the dump is the
 * process's, outside any game's allocator and cap). */
static int rb_dump_writer(lua_State *L, const void *bytes, size_t size, void *ud) {
    (void)L;
    RBDumpBuffer *buffer = (RBDumpBuffer *)ud;
    if (buffer->length + size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + size) capacity *= 2;
        char *data = realloc(buffer->data, capacity);
        if (data == NULL) {
            buffer->failed = 1;
            return 1;
        }
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, size);
    buffer->length += size;
    return 0;
}

/* The scratch state's allocator: the games' small-block pool (a parse
 * makes many small blocks; malloc's own took a fifth of the first load),
 * released whole when the state closes. No cap: the text is the kernel's. */
static void *rb_scratch_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    RBPool *pool = (RBPool *)ud;
    if (nsize == 0) {
        if (ptr != NULL) rb_pool_free(pool, ptr, osize);
        return NULL;
    }
    return ptr ? rb_pool_resize(pool, ptr, osize, nsize) : rb_pool_alloc(pool, nsize);
}

/* The chunk's text compiled in a scratch state and dumped, not stripped,
 * into `dump`; 0 when that failed (a syntax error, or no memory): then the
 * caller parses the text in the game's state, whose error it reports. */
static int rb_compile(const char *source, size_t length, const char *name, RBDumpBuffer *dump) {
    RBPool pool = {0};
    lua_State *scratch = lua_newstate(rb_scratch_alloc, &pool);
    if (scratch == NULL) {
        rb_pool_release(&pool);
        return 0;
    }
    int compiled = luaL_loadbufferx(scratch, source, length, name, "t") == LUA_OK
                   && lua_dump(scratch, rb_dump_writer, dump, 0) == 0 && !dump->failed && dump->length > 0;
    lua_close(scratch);
    rb_pool_release(&pool);
    if (!compiled) {
        free(dump->data);
        *dump = (RBDumpBuffer){NULL, 0, 0, 0};
    }
    return compiled;
}

/* Keeps `dump` (its owner from now on) under the chunk's name and text;
 * returns 0 when it was not kept (the table is full, or another thread's
 * first load of the chunk kept an equal one meanwhile). */
static int rb_kernel_cache_keep(const char *name, const char *source, size_t length, RBDumpBuffer dump) {
    char *name_copy = strdup(name);
    char *source_copy = malloc(length ? length : 1);
    int kept = 0;
    if (name_copy != NULL && source_copy != NULL) {
        memcpy(source_copy, source, length);
        pthread_mutex_lock(&rb_kernel_cache_lock);
        if (rb_kernel_cache_used < RB_KERNEL_CACHE_ENTRIES && rb_kernel_cache_find(name, source, length) == NULL) {
            rb_kernel_cache[rb_kernel_cache_used++] =
                (RBCompiledChunk){name_copy, source_copy, length, dump.data, dump.length};
            kept = 1;
        }
        pthread_mutex_unlock(&rb_kernel_cache_lock);
    }
    if (!kept) {
        free(name_copy);
        free(source_copy);
    }
    return kept;
}

/* Pushes the function a kernel chunk compiles to, or the error message,
 * and returns lua_load's status. The function is undumped from the table's
 * entry for this name and text, or else from a dump of the text compiled
 * now (kept for the next load). A text that does not compile is parsed in
 * `L`, as before the table, so its error reads as Lua writes it. */
int rb_load_kernel_chunk(lua_State *L, const char *source, size_t length, const char *name) {
    int way = atomic_load(&rb_kernel_load_way);
    if (way == RB_KERNEL_PARSED) return luaL_loadbufferx(L, source, length, name, "t");
    if (way == RB_KERNEL_CACHED) {
        pthread_mutex_lock(&rb_kernel_cache_lock);
        const RBCompiledChunk *entry = rb_kernel_cache_find(name, source, length);
        pthread_mutex_unlock(&rb_kernel_cache_lock);
        if (entry != NULL) {
            /* An entry is never changed or freed once made: no lock to read it. */
            atomic_fetch_add(&rb_kernel_cache_answered, 1);
            return luaL_loadbufferx(L, entry->dump, entry->dump_length, name, "b");
        }
    }
    RBDumpBuffer dump = {NULL, 0, 0, 0};
    if (!rb_compile(source, length, name, &dump)) return luaL_loadbufferx(L, source, length, name, "t");
    int kept = way == RB_KERNEL_CACHED && rb_kernel_cache_keep(name, source, length, dump);
    int status = luaL_loadbufferx(L, dump.data, dump.length, name, "b");
    if (!kept) free(dump.data);
    return status;
}

int64_t rb_kernel_cache_hits(void) { return (int64_t)atomic_load(&rb_kernel_cache_answered); }

void rb_kernel_load(RBKernelLoadWay way) { atomic_store(&rb_kernel_load_way, (int)way); }
