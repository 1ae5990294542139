// blockpool.h: small blocks for a Lua state's allocator (see blockpool.c).

#ifndef RULEBENCH_BLOCKPOOL_H
#define RULEBENCH_BLOCKPOOL_H

#include <stddef.h>

/// Blocks up to this size come from the pool; larger ones from malloc.
#define RB_POOL_LARGEST 256
#define RB_POOL_GRAIN 16

/// One Lua state's pool: a free list per size class, and the chunks the
/// blocks are cut from (kept until the state closes).
typedef struct RBPool {
    void *free[RB_POOL_LARGEST / RB_POOL_GRAIN];
    char *next, *end;        /* the current chunk's part not yet cut */
    void *chunks;            /* every chunk, linked through its first word */
} RBPool;

/// A block of `size` bytes (not 0), or NULL when memory is out.
void *rb_pool_alloc(RBPool *pool, size_t size);

/// Gives back a block of `size` bytes that rb_pool_alloc or
/// rb_pool_resize returned for that size.
void rb_pool_free(RBPool *pool, void *block, size_t size);

/// lua_Alloc's realloc for a block of `old` bytes (not NULL) to `size`
/// bytes (not 0); NULL when memory is out (the block is then unchanged).
void *rb_pool_resize(RBPool *pool, void *block, size_t old, size_t size);

/// Frees every chunk: the state that used the pool is closed.
void rb_pool_release(RBPool *pool);

#endif
