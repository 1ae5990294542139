// alloc.c: the counting allocator behind the memory cap, and the byte
// buffers Swift answers through.
//
// Owns: vm->used, vm->cap, vm->limit, vm->memory_hit and the last refusal
// (a request Lua asks again after its emergency collection); what the engine
// may use above the cap (RB_ENGINE_RESERVE, RB_ENGINE_COPIES).
//
// Invariant: vm->used is the exact sum of the live blocks' sizes; growth
// past vm->limit is refused (a NULL, which Lua turns into "not enough
// memory"), shrinking never is, and during a user call every byte of
// growth is also charged to the instruction budget.

#include "shim_private.h"

#include <stdlib.h>

/* Headroom above the cap that only the engine may use, so a game that hit its
 * memory cap can still be rolled back. */
#define RB_ENGINE_RESERVE ((size_t)64 << 20)

/* Copies of the state the engine may hold on top of it, in units of the cap:
 * handing a state near the cap to the host (`get`: `state`, and `run`
 * before every step) makes its encoding as a Lua string, which can be a bit
 * larger than the state's own memory (an integer takes 16 bytes in a table,
 * up to 22 encoded). With only the reserve, a setup holding half the cap
 * could be played by every command but exported by none. No rule code runs
 * in engine mode, so this only bounds the engine's own copies. */
#define RB_ENGINE_COPIES 2

/* What the allocator allows the engine (not rule code): the cap, room for
 * its copies of the state, and the reserve. */
size_t rb_engine_limit(size_t cap) { return cap * (1 + RB_ENGINE_COPIES) + RB_ENGINE_RESERVE; }

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

/* Bytes of allocation that cost one instruction of the budget. C library
 * functions (string.rep, table.concat, `..`) run as a single VM instruction
 * however much they copy, so `while true do local s = string.rep("x", 1e8) end`
 * would otherwise run for hours under a 10M-instruction budget. */
#define RB_BYTES_PER_INSTRUCTION 256

/* Notes a refused growth (memory_hit, and what was asked, see rb_rescued). */
static void *rb_refuse(RBVM *vm, void *ptr, size_t nsize) {
    if (!vm->refusing) vm->hit_before = vm->memory_hit;
    vm->refusing = 1;
    vm->refused_ptr = ptr;
    vm->refused_size = nsize;
    vm->memory_hit = 1;
    return NULL;
}

/* A growth succeeded: if it is the request last refused, asked again after
 * Lua's emergency collection (luaM_realloc_'s second try), that refusal
 * raised nothing, so it no longer marks the call's error as a memory error. */
static void rb_rescued(RBVM *vm, void *ptr, size_t nsize) {
    if (ptr == vm->refused_ptr && nsize == vm->refused_size) vm->memory_hit = vm->hit_before;
    vm->refusing = 0;
}

/* Counts every byte and refuses growth past the current limit. Lua turns a
 * NULL from a growing request into an ordinary "not enough memory" error;
 * shrinking must never fail, so it is never refused. During a user call,
 * growth is also charged to the instruction budget; the count hook notices
 * the overdraft at its next call (the allocator itself must not raise); a
 * watched call is stopped at once (rb_overdrawn). */
void *rb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    RBVM *vm = (RBVM *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        rb_pool_free(&vm->pool, ptr, old);
        vm->used -= old;
        return NULL;
    }
    if (nsize > old && vm->used - old + nsize > vm->limit) return rb_refuse(vm, ptr, nsize);
    void *block = ptr ? rb_pool_resize(&vm->pool, ptr, old, nsize) : rb_pool_alloc(&vm->pool, nsize);
    if (block == NULL) return nsize > old ? rb_refuse(vm, ptr, nsize) : NULL;
    if (vm->refusing && nsize > old) rb_rescued(vm, ptr, nsize);
    vm->used = vm->used - old + nsize;
    if (vm->armed && nsize > old) {
        int64_t cost = (int64_t)((nsize - old) / RB_BYTES_PER_INSTRUCTION);
        vm->remaining -= cost;
        vm->spent += cost;
        if (vm->remaining <= 0) rb_overdrawn(vm);
    }
    return block;
}

void rb_set_memory_cap(RBVM *vm, size_t bytes) {
    vm->cap = bytes;
    vm->limit = rb_engine_limit(bytes);
}

size_t rb_memory_used(RBVM *vm) { return vm->used; }
