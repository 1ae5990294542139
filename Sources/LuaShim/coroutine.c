// coroutine.c: the coroutine functions rule code gets (resume, wrap,
// close), and callnoyield() for a module's top level.
//
// Owns: the switch from one Lua thread of the VM to another.
//
// Invariant: the thread about to run always carries the hook of the call
// (a stopped call's stop hook included), and a call that is armed always
// knows which thread runs (vm->running, under vm->lock), so the budget and
// the watchdog reach a loop inside a coroutine as they reach any other.

#include "shim_private.h"

#include <lauxlib.h>

/* coroutine.resume, coroutine.wrap and coroutine.close as Lua 5.4's
 * lcorolib.c has them (same messages), plus two things around every switch
 * of thread: the thread about to run gets the hook of the call (a count
 * hook is per thread, and a thread kept from an earlier call may carry
 * another), and a watched call records which thread runs, so the watchdog
 * can stop a loop inside a coroutine. The sandbox installs them in the
 * coroutine library, so `package.loaded` names them as before. */
static void rb_thread_hook(RBVM *vm, lua_State *co) {
    lua_Hook hook = NULL;
    int line = rb_line_mask(vm);
    int mask = 0, count = 0;
    if (atomic_load(&vm->stop_cause)) {
        hook = rb_hook, mask = LUA_MASKCOUNT, count = 1;
    } else if (vm->run == RB_RUN_COUNTED) {
        if (vm->exhausted) return; /* as before: it raises within RB_HOOK_PERIOD */
        hook = rb_hook, mask = LUA_MASKCOUNT | line, count = RB_HOOK_PERIOD;
    } else if (vm->run == RB_RUN_WATCHED && atomic_load(&vm->fired)) {
        hook = rb_hook, mask = LUA_MASKCOUNT, count = 1;
    } else if (line) {
        hook = rb_hook, mask = line;
    }
    if (lua_gethook(co) != hook || lua_gethookmask(co) != mask || (mask && lua_gethookcount(co) != count))
        lua_sethook(co, hook, mask, count);
}

/* Brackets a switch to `co` (enter) and back to `L` (leave). */
static void rb_thread_enter(RBVM *vm, lua_State *co) {
    if (vm->run == RB_RUN_FREE) {
        rb_thread_hook(vm, co);
        return;
    }
    pthread_mutex_lock(&vm->lock);
    vm->running = co;
    rb_thread_hook(vm, co);
    pthread_mutex_unlock(&vm->lock);
}

static void rb_thread_leave(RBVM *vm, lua_State *L) {
    if (vm->run == RB_RUN_FREE) return;
    pthread_mutex_lock(&vm->lock);
    vm->running = L;
    if (atomic_load(&vm->stop_cause)) lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
    else if (vm->run == RB_RUN_WATCHED && atomic_load(&vm->fired)) rb_stop_rules(L);
    pthread_mutex_unlock(&vm->lock);
}

#if LUA_VERSION_RELEASE_NUM >= 50406
#define rb_closethread(co, L) lua_closethread(co, L)
#else
#define rb_closethread(co, L) lua_resetthread(co)
#endif

static int rb_closeco(lua_State *L, lua_State *co) {
    RBVM *vm = rb_vm_of(L);
    rb_thread_enter(vm, co);
    int status = rb_closethread(co, L);
    rb_thread_leave(vm, L);
    return status;
}

static lua_State *rb_getco(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "thread");
    return co;
}

/* A switch of thread and back is C work the count hook cannot see: a few
 * VM instructions of the rule's loop, but two stack switches (a longjmp
 * for the yield) and the watchdog's lock, some hundred plain instructions'
 * time, and much more under AddressSanitizer, which tracks every switched
 * stack. Charged per resume, so a loop of resumes meets the budget (one
 * verdict on every machine) long before the wall-clock backstop. */
#define RB_RESUME_COST 64

static int rb_auxresume(lua_State *L, lua_State *co, int narg) {
    int status, nres;
    if (rb_spend(L, RB_RESUME_COST)) return rb_raise_budget(L);
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    RBVM *vm = rb_vm_of(L);
    rb_thread_enter(vm, co);
    status = lua_resume(co, L, narg, &nres);
    rb_thread_leave(vm, L);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    } else {
        lua_xmove(co, L, 1);
        return -1;
    }
}

int rb_coresume(lua_State *L) {
    lua_State *co = rb_getco(L);
    int r = rb_auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int rb_auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = rb_auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        if (stat != LUA_OK && stat != LUA_YIELD) {
            stat = rb_closeco(L, co);
            lua_xmove(co, L, 1);
        }
        if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

int rb_cowrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, rb_auxwrap, 1);
    return 1;
}

int rb_coclose(lua_State *L) {
    lua_State *co = rb_getco(L);
    static const char *const names[] = {"running", "dead", "suspended", "normal"};
    int status;
    if (L == co) status = 0;
    else switch (lua_status(co)) {
        case LUA_YIELD: status = 2; break;
        case LUA_OK: {
            lua_Debug ar;
            if (lua_getstack(co, 0, &ar)) status = 3;
            else status = lua_gettop(co) == 0 ? 1 : 2;
            break;
        }
        default: status = 1; break;
    }
    if (status == 1 || status == 2) {
        if (rb_closeco(L, co) == LUA_OK) {
            lua_pushboolean(L, 1);
            return 1;
        }
        lua_pushboolean(L, 0);
        lua_xmove(co, L, 1);
        return 2;
    }
    return luaL_error(L, "cannot close a %s coroutine", names[status]);
}

/* callnoyield(f, ...): calls f(...) so that it cannot yield: a yield inside
 * raises "attempt to yield across a C-call boundary" at the yield. A module's
 * top level runs so (sandbox.lua), since a load left suspended would never
 * end. */
int rb_call_no_yield(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}
