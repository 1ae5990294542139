// blockpool.c: the small blocks of a Lua state's allocator.
//
// Owns: a free list per size class (16, 32, ... 256 bytes) and the chunks
// the blocks are cut from. Larger blocks go to malloc.
//
// Why: a checked step creates and drops many small objects (records,
// plans, subaction trees, parameter copies), and glibc's malloc and free
// were about 15% of its time. Lua always tells the allocator the size of
// the block it frees or resizes (lua_Alloc's osize), so a block needs no
// header: its class is its size rounded up to the grain. Freed blocks are
// reused, never returned to the system before the state closes; the memory
// cap counts what Lua asked for, as before.
//
// Under AddressSanitizer every block goes to malloc, so that a use after
// free is still caught.

#include "blockpool.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RB_POOL_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RB_POOL_OFF 1
#endif

#define RB_POOL_CHUNK (64 * 1024)

static size_t rb_pool_class(size_t size) { return (size - 1) / RB_POOL_GRAIN; }

static int rb_pool_small(size_t size) {
#ifdef RB_POOL_OFF
    (void)size;
    return 0;
#else
    return size <= RB_POOL_LARGEST;
#endif
}

/* A new chunk to cut blocks from; what was left of the last one is
 * dropped (less than one largest block). */
static int rb_pool_grow(RBPool *pool) {
    char *chunk = malloc(RB_POOL_CHUNK);
    if (chunk == NULL) return 0;
    *(void **)chunk = pool->chunks;
    pool->chunks = chunk;
    pool->next = chunk + RB_POOL_GRAIN;    /* the link keeps blocks aligned */
    pool->end = chunk + RB_POOL_CHUNK;
    return 1;
}

void *rb_pool_alloc(RBPool *pool, size_t size) {
    if (!rb_pool_small(size)) return malloc(size);
    size_t class = rb_pool_class(size);
    void *block = pool->free[class];
    if (block != NULL) {
        pool->free[class] = *(void **)block;
        return block;
    }
    size_t bytes = (class + 1) * RB_POOL_GRAIN;
    if ((size_t)(pool->end - pool->next) < bytes && !rb_pool_grow(pool)) return NULL;
    block = pool->next;
    pool->next += bytes;
    return block;
}

void rb_pool_free(RBPool *pool, void *block, size_t size) {
    if (block == NULL) return;
    if (!rb_pool_small(size)) {
        free(block);
        return;
    }
    size_t class = rb_pool_class(size);
    *(void **)block = pool->free[class];
    pool->free[class] = block;
}

void *rb_pool_resize(RBPool *pool, void *block, size_t old, size_t size) {
    int was_small = rb_pool_small(old), is_small = rb_pool_small(size);
    if (!was_small && !is_small) return realloc(block, size);
    if (was_small && is_small && rb_pool_class(old) == rb_pool_class(size)) return block;
    void *moved = rb_pool_alloc(pool, size);
    if (moved == NULL) return NULL;
    memcpy(moved, block, old < size ? old : size);
    rb_pool_free(pool, block, old);
    return moved;
}

void rb_pool_release(RBPool *pool) {
    void *chunk = pool->chunks;
    while (chunk != NULL) {
        void *next = *(void **)chunk;
        free(chunk);
        chunk = next;
    }
    memset(pool, 0, sizeof *pool);
}
