// budget.c: the instruction budget of a user call: arming it, the count
// hook, the stop hooks of a watched call, and the charges for C work.
//
// Owns: vm->budget, remaining, spent, exhausted, armed, user, run, hard and
// kernel_spent, and which hook each thread of the VM runs with.
//
// Invariant: a spent budget stays spent for the rest of the call: the hook
// then fires at every instruction and raises each time, so neither pcall
// nor a coroutine can swallow the error and carry on. A call that runs
// watched (no hook) reports only what a counted run would, since a suspect
// one is run again counted (see RB_RUN_WATCHED).

#include "shim_private.h"

#include <lauxlib.h>

/* Pushes "file:line: " of the innermost frame of rule code. The kernel's
 * chunks are named "=rulebench/...": when a budget runs out inside the
 * engine's own work (checking a huge value a rule stored, say), the error
 * still points at the rule's line that asked for that work. */
void rb_push_where(lua_State *L) {
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 &&
            strncmp(ar.source, "=rulebench", 10) != 0) {
            /* The whole file name, as K.chunkname gives it: short_src cuts
             * a long path to "...". */
            int named = ar.source[0] == '@' || ar.source[0] == '=';
            lua_pushfstring(L, "%s:%d: ", named ? ar.source + 1 : "[string]", ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/* Whether a frame (its "S" info read) runs rule code: a Lua function
 * outside the kernel's chunks, which are named "=rulebench...". */
static int rb_is_rule(lua_Debug *ar) {
    return ar->what[0] != 'C' && strncmp(ar->source, "=rulebench", 10) != 0;
}

/* The hook a thread runs with while the call is in its normal state (not
 * stopped, budget not spent): counted, a count hook (and the line hook
 * when covering); otherwise only the line hook, or none. */
void rb_normal_hook(RBVM *vm, lua_State *L) {
    if (atomic_load(&vm->stop_cause)) {
        lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);   /* stopped for good (see rb_stop_locked) */
        return;
    }
    int line = rb_line_mask(vm);
    if (vm->run == RB_RUN_COUNTED) lua_sethook(L, rb_hook, LUA_MASKCOUNT | line, RB_HOOK_PERIOD);
    else if (line) lua_sethook(L, rb_hook, line, 0);
    else if (lua_gethook(L) == rb_hook) lua_sethook(L, NULL, 0, 0);
    /* else: no hook of ours; a development hook (the kernel's instruction
     * profile, with no budget) stays. */
}

/* After a watched call was stopped, every thread that runs gets the hook in
 * one of two modes. Rule frames: count hook at every instruction, which
 * raises, so neither pcall nor a coroutine can carry on. Kernel frames: call
 * and return hooks (near full speed), so the kernel's own bookkeeping (a
 * require that clears its half-loaded module, a journal write) finishes;
 * the first call into rule code or return to it raises again. A slow count
 * hook stays on in kernel mode as a backstop: a chunk that calls itself
 * "=rulebench..." is stopped after a budget's worth of instructions. */
void rb_stop_rules(lua_State *L) {
    lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
}

static void rb_stop_kernel(lua_State *L) {
    lua_sethook(L, rb_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, RB_HOOK_PERIOD);
}

/* The hook of a stopped watched call (see rb_stop_rules). */
static void rb_watch_hook(RBVM *vm, lua_State *L, lua_Debug *ar) {
    if (!atomic_load(&vm->fired)) rb_fire(vm);
    if (vm->hard) goto raise;
    switch (ar->event) {
    case LUA_HOOKCOUNT:
        lua_getinfo(L, "S", ar);
        if (rb_is_rule(ar)) {
            if (lua_gethookmask(L) & LUA_MASKCALL) rb_stop_rules(L);
            goto raise;
        }
        if (!(lua_gethookmask(L) & LUA_MASKCALL)) {
            rb_stop_kernel(L);
        } else if ((vm->kernel_spent += RB_HOOK_PERIOD) > vm->budget) {
            vm->hard = 1;
            rb_stop_rules(L);
            goto raise;
        }
        return;
    case LUA_HOOKCALL:
    case LUA_HOOKTAILCALL:
        lua_getinfo(L, "S", ar);
        if (rb_is_rule(ar)) {
            rb_stop_rules(L);
            goto raise;
        }
        return;
    case LUA_HOOKRET: {
        lua_Debug caller;
        if (lua_getstack(L, 1, &caller) && lua_getinfo(L, "S", &caller) && rb_is_rule(&caller))
            rb_stop_rules(L);
        return;
    }
    default:
        return;
    }
raise:
    lua_pushliteral(L, RB_WATCH_MESSAGE);
    lua_error(L);
}

/* Counted calls: called every RB_HOOK_PERIOD instructions, in whichever
 * thread runs. Once the budget is spent it stays spent: the hook is re-armed
 * to fire on every instruction and raises again each time, so
 * `while true do pcall(f) end` cannot swallow the error and carry on. */
void rb_hook(lua_State *L, lua_Debug *ar) {
    RBVM *vm = rb_vm_of(L);
    if (ar->event == LUA_HOOKLINE) {
        rb_cover_line(vm, L, ar);
        return;
    }
    if (atomic_load(&vm->stop_cause)) {
        rb_raise_stop(vm, L);
        return;
    }
    if (vm->run == RB_RUN_WATCHED) {
        rb_watch_hook(vm, L, ar);
        return;
    }
    if (vm->run != RB_RUN_COUNTED) {
        lua_sethook(L, NULL, 0, 0); /* a thread left hooked by an earlier call */
        return;
    }
    if (!vm->exhausted) {
        vm->spent += RB_HOOK_PERIOD;
        vm->remaining -= RB_HOOK_PERIOD;
        if (vm->remaining > 0) return;
        vm->exhausted = 1;
        lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, 1);
        if (L != vm->L) lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
    }
    rb_raise_budget(L);
}

/* A charge or an allocation overdrew the budget during a watched call:
 * nothing counts the instructions, so where a counted run would have raised
 * is unknown. Stop, and run again counted. */
void rb_overdrawn(RBVM *vm) {
    if (vm->run == RB_RUN_WATCHED && !atomic_load(&vm->fired)) rb_fire(vm);
}

/* charge(n): counts n instructions' worth of work that a C library
 * function is about to do (the pattern matcher, for one) against the budget,
 * since the count hook cannot see inside C. Returns true, and leaves the
 * budget spent (the hook then raises at every instruction), when that
 * overdraws it or it was spent already (charge(0) asks just that); the
 * caller raises the error with the rule's file:line. In a watched call an
 * overdraft stops the call instead (it runs again counted), and charge(0)
 * is true once the call was stopped. */
int rb_spend(lua_State *L, int64_t cost) {
    RBVM *vm = rb_vm_of(L);
    int out = 0;
    if (vm->armed && cost >= 1) {
        vm->remaining -= cost;
        vm->spent += cost;
        if (vm->remaining <= 0) {
            out = 1;
            if (vm->run == RB_RUN_WATCHED) {
                rb_overdrawn(vm);
            } else if (!vm->exhausted) {
                vm->exhausted = 1;
                lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, 1);
                if (L != vm->L) lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
            }
        }
    }
    return out || (vm->armed && (vm->exhausted || atomic_load(&vm->fired)));
}

int rb_raise_budget(lua_State *L) {
    rb_push_where(L);
    lua_pushfstring(L, "instruction budget exceeded (%I instructions)", (lua_Integer)rb_vm_of(L)->budget);
    lua_concat(L, 2);
    return lua_error(L);
}

int rb_charge(lua_State *L) {
    lua_Number n = luaL_checknumber(L, 1);
    int out = rb_spend(L, n >= 4e18 ? INT64_MAX / 2 : n >= 1 ? (int64_t)n : 0);
    lua_pushboolean(L, out);
    lua_pushinteger(L, (lua_Integer)rb_vm_of(L)->budget);
    return 2;
}

/* Arms the budget for a call. */
void rb_arm(RBVM *vm, RBCallMode mode, int watch) {
    vm->memory_hit = 0;
    vm->refusing = 0;
    vm->exhausted = 0;
    vm->hard = 0;
    vm->kernel_spent = 0;
    atomic_store(&vm->fired, 0);
    vm->spent = 0;
    vm->remaining = vm->budget;
    vm->armed = (mode == RB_MODE_USER && vm->budget > 0);
    vm->user = mode == RB_MODE_USER;
    rb_coverage_restart(vm);     /* edges stay within one call */
    vm->limit = mode == RB_MODE_USER ? vm->cap : rb_engine_limit(vm->cap);
    vm->run = !vm->armed ? RB_RUN_FREE : watch ? RB_RUN_WATCHED : RB_RUN_COUNTED;
    atomic_store(&vm->stop_cause, RB_STOP_NONE);
    rb_normal_hook(vm, vm->L);   /* counted: a fresh count */
    if (vm->run == RB_RUN_WATCHED) rb_watch_begin(vm, watch == RB_WATCH_OPERATIONS);   /* after: a stop must not be overwritten */
    if (vm->armed) rb_backstop_begin(vm);
}

/* After a call: lift the budget and the hook, so the next call (and the
 * engine's own rollback) runs at full speed. Returns 1 when a watched call
 * must run again counted. */
int rb_disarm(RBVM *vm) {
    int again = 0;
    if (vm->run == RB_RUN_WATCHED) again = rb_watch_close(vm);   /* the hook below lifts a stop too */
    if (atomic_load(&vm->busy_start) != 0) {
        pthread_mutex_lock(&vm->lock);
        atomic_store(&vm->busy_start, 0);
        vm->running = NULL;
        pthread_mutex_unlock(&vm->lock);
    }
    if (lua_gethook(vm->L) == rb_hook) lua_sethook(vm->L, NULL, 0, 0);
    vm->run = RB_RUN_FREE;
    vm->armed = 0;
    vm->user = 0;
    vm->limit = rb_engine_limit(vm->cap);
    return again;
}

void rb_set_instruction_budget(RBVM *vm, int64_t instructions) {
    vm->budget = instructions > 0 ? instructions : 0;
}

int64_t rb_instructions_used(RBVM *vm) { return vm->spent; }

RBReruns rb_reruns(RBVM *vm) { return vm->reruns; }
