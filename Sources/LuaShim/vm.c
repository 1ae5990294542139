// vm.c: the protected boundary between Swift and Lua: opening and closing
// a VM, loading the kernel, and rb_call, the only way Swift calls Lua.
//
// Owns: the VM's life, the registry keys of the kernel table and of the
// kernel's error metatable, the helper table handed to the kernel, and the
// host call to Swift. Which calls may run watched is the caller's to say,
// per call (RBRestart: Swift's KernelEntry names each entry's policy).
//
// Invariant: Lua errors are longjmps, so Swift reaches Lua only through
// lua_pcall (rb_call, rb_load_kernel) with rb_msgh as the handler, and Lua
// reaches Swift only through rb_host_call, which raises on Swift's behalf.
// A watched call that must run again is rolled back first, so what Swift
// sees is always the counted run's result.

#include "shim_private.h"
#include "animcore.h"
#include "statecore.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>

/* Registry keys (their addresses are unique). */
static const char RB_KERNEL_KEY = 'k';
static const char RB_ERRMETA_KEY = 'e';

/* Below this budget (1 ms of allowance) calls are counted from the start:
 * too many would outlive the allowance and run twice. */
#define RB_WATCH_MIN_BUDGET 4000000

/* Message handler for every protected call: turns the error into a string
 * with a traceback. Kernel error objects (tables with the kernel's error
 * metatable) already carry structured fields and pass through untouched.
 * It never calls __tostring: a hostile object must not run code here. */
int rb_msgh(lua_State *L) {
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

RBVM *rb_open(size_t memory_cap, void *host_context, RBHostFunction host) {
    RBVM *vm = calloc(1, sizeof *vm);
    if (vm == NULL) return NULL;
    vm->cap = memory_cap;
    vm->limit = rb_engine_limit(memory_cap);
    vm->host_context = host_context;
    vm->host = host;
    vm->L = lua_newstate(rb_alloc, vm);
    if (vm->L == NULL) {
        rb_pool_release(&vm->pool);
        free(vm);
        return NULL;
    }
    *(RBVM **)lua_getextraspace(vm->L) = vm;
    atomic_init(&vm->fired, 0);
    atomic_init(&vm->watch_id, 0);
    atomic_init(&vm->watch_start, 0);
    atomic_init(&vm->watch_allowance, 0);
    atomic_init(&vm->mark_cpu, -1);
    atomic_init(&vm->busy_start, 0);
    atomic_init(&vm->stop_cause, RB_STOP_NONE);
    pthread_mutex_init(&vm->lock, NULL);
    rb_watch_register(vm);
    return vm;
}

void rb_close(RBVM *vm) {
    if (vm == NULL) return;
    rb_watch_unregister(vm);
    pthread_mutex_destroy(&vm->lock);
    lua_close(vm->L);
    rb_pool_release(&vm->pool);
    free(vm->reply.data);
    free(vm->encoded.data);
    free(vm->coverage.edges);
    for (size_t i = 0; i < vm->coverage.capacity; i++) free(vm->coverage.lines[i].name);
    free(vm->coverage.lines);
    free(vm->coverage.undo);
    free(vm->coverage.found);
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
        {"host", rb_host_call}, {"valuehash", rb_valuehash_call}, {"same", rb_same_call},
        {"decode", rb_decode}, {"encode", rb_encode},
        {"coverage", rb_coverage}, {"coveredges", rb_coveredges}, {"takeedges", rb_takeedges}, {"seeedges", rb_seeedges}, {"emitsite", rb_emitsite}, {"fnv", rb_fnv_text}, {"rulecover", rb_rulecover}, {"coverlines", rb_coverlines},
        {"charge", rb_charge},
        {"coresume", rb_coresume}, {"cowrap", rb_cowrap}, {"coclose", rb_coclose},
        {"operation", rb_operation}, {"protect", rb_protect}, {"countedprotect", rb_counted_protect},
        {"release", rb_release}, {"callnoyield", rb_call_no_yield},
        {NULL, NULL}};
    luaL_newlib(L, helpers);
    rb_open_statecore(L); /* C.state: state.lua's hot path (statecore.c) */
    rb_open_animcore(L); /* C.anim: anim.lua's builders (animcore.c) */
    rb_open_workcost(L); /* C.chargework: the budget's charge for C work (workcost.c) */
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
    const int *argument_counts; /* per chunk: how many arguments it receives */
    const int *arguments;       /* all chunks' arguments, in order (see below) */
} RBKernelLoad;

/* The kernel is a list of chunks, each a module: chunk i is called with the
 * results its arguments name (0: the C helpers; k >= 1: what chunk k - 1
 * returned), each of a chunk loaded before it, so the modules' dependencies
 * point one way (KernelSource.swift lists them). Every chunk returns a
 * table; what the last returns is the table of functions rb_call reaches.
 * A chunk's text is compiled once per process, and every state undumps
 * the compiled form (kernelcache.c). */
static int rb_load_kernel_protected(lua_State *L) {
    RBKernelLoad *load = (RBKernelLoad *)lua_touserdata(L, 1);
    rb_open_libraries(L);
    lua_createtable(L, load->count + 1, 0); /* slot 2: the results, [1] the helpers */
    rb_push_helpers(L);
    lua_rawseti(L, 2, 1);
    const int *argument = load->arguments;
    for (int i = 0; i < load->count; i++) {
        if (rb_load_kernel_chunk(L, load->sources[i], load->lengths[i], load->chunknames[i]) != LUA_OK)
            return lua_error(L);
        int n = load->argument_counts[i];
        luaL_checkstack(L, n, "kernel chunk arguments");
        for (int a = 0; a < n; a++, argument++) {
            if (*argument < 0 || *argument > i)
                return luaL_error(L, "%s receives a chunk not loaded before it (%d)", load->chunknames[i], *argument);
            lua_rawgeti(L, 2, *argument + 1);
        }
        lua_call(L, n, 1);
        if (!lua_istable(L, -1)) return luaL_error(L, "%s did not return a table", load->chunknames[i]);
        lua_rawseti(L, 2, i + 2);
    }
    lua_rawgeti(L, 2, load->count + 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &RB_KERNEL_KEY);
    return 0;
}

static RBStatus rb_status(RBVM *vm, int status) {
    if (status == LUA_OK) return RB_OK;
    int stop = atomic_load(&vm->stop_cause);
    if (stop) return stop == RB_STOP_INTERRUPT ? RB_INTERRUPTED : RB_WALLCLOCK;
    if (vm->exhausted) return RB_BUDGET;
    if (status == LUA_ERRMEM || vm->memory_hit) return RB_MEMORY;
    if (status == LUA_ERRERR) return RB_HANDLER;
    return RB_ERROR;
}

RBStatus rb_load_kernel(RBVM *vm, int count, const char *const *sources, const size_t *lengths,
                        const char *const *chunknames, const int *argument_counts, const int *arguments) {
    lua_State *L = vm->L;
    lua_settop(L, 0);
    RBKernelLoad load = {count, sources, lengths, chunknames, argument_counts, arguments};
    lua_pushcfunction(L, rb_msgh);
    lua_pushcfunction(L, rb_load_kernel_protected);
    lua_pushlightuserdata(L, &load);
    rb_arm(vm, RB_MODE_ENGINE, RB_WATCH_NONE);
    int status = lua_pcall(L, 1, 0, 1);
    rb_disarm(vm);
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

/* Runs one call from a clean stack; RB_RERUN when a watched call must run
 * again counted. */
#define RB_RERUN (-1)

static int rb_run(RBVM *vm, RBCallMode mode, RBCall *call, int watch) {
    lua_State *L = vm->L;
    lua_settop(L, 0);
    lua_pushcfunction(L, rb_msgh);
    lua_pushcfunction(L, rb_trampoline);
    lua_pushlightuserdata(L, call);
    rb_arm(vm, mode, watch);
    int status = lua_pcall(L, 1, LUA_MULTRET, 1);
    int again = rb_disarm(vm);
    if (again && !atomic_load(&vm->stop_cause)) return RB_RERUN;   /* a stopped call never runs again */
    return (int)rb_status(vm, status);
}

RBStatus rb_call(RBVM *vm, RBCallMode mode, const char *function, RBRestart policy, const char *abort_function,
                 int argc, const char *const *argv, const size_t *lengths) {
    lua_State *L = vm->L;
    lua_settop(L, 0);
    if (!lua_checkstack(L, 8)) return RB_MEMORY;
    RBCall call = {function, argc, argv, lengths};
    /* The restart policy is the caller's, per call (Swift's KernelEntry):
     * restart -1 counts the call from the start, 0 runs it again without a
     * rollback (it writes nothing), 1 rolls it back with `abort_function`. */
    int restart = -1, watch = RB_WATCH_NONE;
    if (mode == RB_MODE_USER && vm->budget >= RB_WATCH_MIN_BUDGET && policy != RB_RESTART_NEVER && rb_watch_ready()) {
        restart = abort_function != NULL;
        watch = policy == RB_RESTART_OPERATIONS ? RB_WATCH_OPERATIONS : RB_WATCH_CALL;
    }
    rb_coverage_mark(vm);
    int status = rb_run(vm, mode, &call, watch);
    if (status != RB_RERUN) return (RBStatus)status;
    /* The watched run was stopped, or ended too late to be sure it stayed
     * within the budget. Roll it back and run the very same call again,
     * counted: the verdict (result, "instruction budget exceeded" at the
     * rule's file:line, memory) and every message are the counted run's.
     * So a call past the allowance (2.5 ms for a 10M budget) runs twice:
     * what abort does not undo happens twice (a rule's print, a pack's
     * module-level locals, a module first required by this call, which the
     * second run finds loaded). A full collection first, so that the first
     * run's garbage does not crowd the second run against the memory cap. */
    rb_coverage_rollback(vm);   /* the second run reaches the same lines: count them once */
    vm->reruns.calls++;
    if (restart) {
        RBCall abort_call = {abort_function, 0, NULL, NULL};
        status = rb_run(vm, RB_MODE_ENGINE, &abort_call, RB_WATCH_NONE);
        if (status != RB_OK) return (RBStatus)status;
    }
    lua_settop(L, 0);
    lua_gc(L, LUA_GCCOLLECT, 0);
    return (RBStatus)rb_run(vm, mode, &call, RB_WATCH_NONE);
}
