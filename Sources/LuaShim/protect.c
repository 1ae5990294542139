// protect.c: the kernel's step loops, one operation at a time: operation(),
// protect(), countedprotect() and release(), the C helpers that let one
// call from Swift (fuzz, replay, explore) run many operations each as if
// Swift had made a user call for it.
//
// Owns: the start and end of an operation inside a call: its fresh budget,
// its watched stretch, and the verdict handed back to the kernel ("budget",
// "memory", "error", or "again" for one that must run again counted).
//
// Invariant: in a watched call only the operations are watched, never the
// kernel's own work between them; an operation found suspect has its
// coverage taken back and is run once more counted, so its verdict and
// messages are the counted run's.

#include "shim_private.h"

#include <lauxlib.h>

/* operation(): a kernel loop that runs many operations in one call (explore)
 * starts each with this, so each has a whole budget, as if Swift had made a
 * call per operation. Counted: a fresh count. Watched: the operation that
 * ends now is checked as rb_watch_close checks a call (past its allowance, or
 * overdrawn: stop, and the whole call runs again counted, where each
 * operation is counted from its start), and the next one gets its own
 * allowance, its own id and so its own sample (one monotonic clock read
 * per operation on the fast path). Free (no budget): nothing. */
int rb_operation(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    rb_coverage_restart(vm);     /* edges stay within one operation */
    if (!vm->armed) return 0;
    rb_busy_restart(vm);
    if (vm->run == RB_RUN_COUNTED) {
        if (vm->exhausted) return 0;   /* the hook raises at the next instruction */
        vm->remaining = vm->budget;
        vm->spent = 0;
        rb_normal_hook(vm, vm->L);
        return 0;
    }
    if (vm->run == RB_RUN_WATCHED) {
        if (atomic_load(&vm->fired)) return 0;
        int64_t now = rb_now();
        if (rb_watch_overran(vm, atomic_load(&vm->watch_id), atomic_load(&vm->watch_start), now)) {
            rb_fire(vm);
            return 0;
        }
        vm->remaining = vm->budget;
        vm->spent = 0;
        rb_watch_next(vm, now);
    }
    return 0;
}

/* Ends the budget state of an operation that failed or finished inside
 * protect(): in a counted call, a spent budget no longer traps every
 * instruction, so the kernel can record what happened and go on. */
static void rb_operation_settle(RBVM *vm) {
    if (vm->run != RB_RUN_COUNTED) return;
    vm->exhausted = 0;
    vm->remaining = vm->budget;
    vm->spent = 0;
    rb_normal_hook(vm, vm->L);
}

/* Ends the watched operation of protect(); returns rb_watch_close's verdict.
 * A stop is lifted here, since the kernel loop goes on (and reruns only
 * this operation). */
static int rb_watch_operation_end(RBVM *vm) {
    int again = rb_watch_close(vm);
    if (atomic_load(&vm->fired)) {
        atomic_store(&vm->fired, 0);   /* no watchdog looks any more: the id is gone */
        rb_normal_hook(vm, vm->L);
    }
    return again;
}

/* release(): a kernel loop has run its last operation; what is left of the
 * call is the kernel's own work (encoding its reply), which runs no rule
 * code and so needs no budget: the call runs free from here, neither
 * watched nor counted. Returns whether the call is being stopped (it will
 * raise, or run again counted): then nothing it does from here on may be
 * kept, and the kernel leaves its operation pending for abort (engine.lua,
 * commitcall). */
int rb_release(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    if (!vm->armed) return lua_pushboolean(L, 0), 1;
    if (vm->exhausted || atomic_load(&vm->fired) || atomic_load(&vm->stop_cause)) return lua_pushboolean(L, 1), 1;
    if (vm->run == RB_RUN_WATCHED && rb_watch_close(vm)) {
        rb_fire(vm);                   /* an operation() of explore's kind ran long: the call runs again */
        return lua_pushboolean(L, 1), 1;
    }
    vm->run = RB_RUN_FREE;
    rb_normal_hook(vm, vm->L);
    return lua_pushboolean(L, 0), 1;
}

/* Runs the function at index 1 with the arguments above it, under the
 * bridge's message handler; returns lua_pcall's status. */
static int rb_protect_call(lua_State *L, RBVM *vm) {
    vm->memory_hit = 0;
    vm->refusing = 0;
    int n = lua_gettop(L);
    lua_pushcfunction(L, rb_msgh);
    lua_insert(L, 1);
    return lua_pcall(L, n - 1, LUA_MULTRET, 1);
}

/* protect()'s results for a call that returned `status` (see protect). */
static int rb_protect_results(lua_State *L, RBVM *vm, int status) {
    if (status != LUA_OK && atomic_load(&vm->stop_cause)) return rb_raise_stop(vm, L);  /* not the operation's verdict */
    if (status == LUA_OK) {
        rb_operation_settle(vm);
        lua_pushboolean(L, 1);
        lua_replace(L, 1);
        return lua_gettop(L);
    }
    const char *cause = vm->exhausted ? "budget"
                      : (status == LUA_ERRMEM || vm->memory_hit) ? "memory" : "error";
    rb_operation_settle(vm);
    vm->memory_hit = 0;
    vm->refusing = 0;
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    lua_pushstring(L, cause);
    return 3;
}

/* protect(f, ...): runs f(...) as one operation of a kernel loop, as if
 * Swift had made a user call for it: a fresh budget, a protected call with
 * the bridge's message handler (a traceback for a string error; kernel
 * error objects pass untouched), and afterwards a budget that lets the
 * kernel carry on. Returns true and f's results, or false, the error value
 * and its cause: "budget", "memory" or "error". The fuzzer's step loop
 * uses it, so that a rejected or failing step is recorded in the kernel
 * rather than unwinding to Swift.
 *
 * In a watched call only the operations are watched: the kernel's own
 * work between them (and before the first: decoding a request) runs no
 * rule code, and long work in C there (decoding, encoding) must not look
 * like an operation that ran long. An operation that may have overrun its
 * budget (the watchdog stopped it, or it ended past its allowance) returns
 * "again" instead of its results: the caller rolls its effects back and
 * runs it once more with countedprotect(), whose verdict is the exact one.
 * So only that operation runs twice, not the whole loop. */
int rb_protect(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int watched = vm->armed && vm->run == RB_RUN_WATCHED;
    if (!watched) {
        lua_pushcfunction(L, rb_operation);    /* counted: a fresh count */
        lua_call(L, 0, 0);
        return rb_protect_results(L, vm, rb_protect_call(L, vm));
    }
    if (atomic_load(&vm->fired)) {             /* stopped outside any operation */
        lua_pushliteral(L, RB_WATCH_MESSAGE);
        return lua_error(L);
    }
    rb_coverage_restart(vm);
    int64_t now = rb_now();
    if (atomic_load(&vm->busy_start) != 0) atomic_store(&vm->busy_start, now);   /* rb_busy_restart */
    rb_answer_interrupt(vm);
    vm->remaining = vm->budget;
    vm->spent = 0;
    rb_watch_next(vm, now);
    rb_watch_wake_up();                        /* it sleeps after a long stretch unwatched */
    size_t coverage_mark = vm->coverage.undone;
    uint64_t coverage_fresh = vm->coverage.fresh;
    int status = rb_protect_call(L, vm);
    if (!rb_watch_operation_end(vm)) return rb_protect_results(L, vm, status);
    rb_coverage_rollback_to(vm, coverage_mark, coverage_fresh);  /* the counted run covers it */
    vm->reruns.operations++;
    lua_settop(L, 0);
    lua_pushliteral(L, "again");
    return 1;
}

/* countedprotect(f, ...): protect() for an operation that must run under
 * the count hook: the one a watched loop found suspect. In a call that is
 * not watched it is protect(). */
int rb_counted_protect(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (!(vm->armed && vm->run == RB_RUN_WATCHED)) return rb_protect(L);
    vm->run = RB_RUN_COUNTED;
    vm->hard = 0;
    vm->kernel_spent = 0;
    rb_coverage_restart(vm);
    rb_busy_restart(vm);
    rb_operation_settle(vm);                   /* a fresh count */
    int results = rb_protect_results(L, vm, rb_protect_call(L, vm));   /* settled again */
    vm->run = RB_RUN_WATCHED;                  /* unwatched until the next operation */
    rb_normal_hook(vm, vm->L);                 /* so without the count hook */
    return results;
}
