// luashim.c: the protected boundary between Swift and Lua.
//
// Everything here is small on purpose. Each function does one thing, and the
// comments say why it is needed rather than what the API call does.

#include "luashim.h"
#include "animcore.h"
#include "blockpool.h"
#include "statecore.h"
#include "workcost.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __APPLE__
#include <mach/mach.h>
#endif

/* Instructions between two hook calls. The hook itself is cheap; what costs
 * is that any count hook makes the VM trap on every instruction. */
#define RB_HOOK_PERIOD 1000

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
static size_t rb_engine_limit(size_t cap) { return cap * (1 + RB_ENGINE_COPIES) + RB_ENGINE_RESERVE; }

/* Registry keys (their addresses are unique). */
static const char RB_KERNEL_KEY = 'k';
static const char RB_ERRMETA_KEY = 'e';

/* The CPU clock of a thread (see RB_RUN_WATCHED). */
#ifdef __APPLE__
typedef mach_port_t rb_thread_clock;
static rb_thread_clock rb_thread_clock_self(void) { return pthread_mach_thread_np(pthread_self()); }
static int64_t rb_thread_cpu(rb_thread_clock thread) {
    thread_basic_info_data_t info;
    mach_msg_type_number_t count = THREAD_BASIC_INFO_COUNT;
    if (thread_info(thread, THREAD_BASIC_INFO, (thread_info_t)&info, &count) != KERN_SUCCESS) return -1;
    return ((int64_t)info.user_time.seconds + info.system_time.seconds) * 1000000000 +
           ((int64_t)info.user_time.microseconds + info.system_time.microseconds) * 1000;
}
#else
typedef clockid_t rb_thread_clock;
static rb_thread_clock rb_thread_clock_self(void) {
    clockid_t clock;
    return pthread_getcpuclockid(pthread_self(), &clock) == 0 ? clock : CLOCK_MONOTONIC;
}
static int64_t rb_thread_cpu(rb_thread_clock clock) {
    struct timespec t;
    if (clock_gettime(clock, &t) != 0) return -1;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
#endif

/* Coverage of rule code, collected while coverage() is on: a count per
 * (chunk, line) run, and AFL-style edges (pairs of consecutive lines,
 * hashed into a bitmap) so a search can tell when a run reached something
 * new. Rule packs' chunks are named "@file"; the kernel's "=rulebench/...". */
#define RB_EDGES (1 << 16)

typedef struct RBLine {
    const char *source;      /* the chunk's source name as Lua interned it: the key */
    char *name;              /* a copy of it, for reports (a chunk may be collected) */
    uint64_t key;            /* (name, line) hashed: the same in every process */
    int line;
    uint64_t count;
} RBLine;

typedef struct RBCoverage {
    int on;
    uint8_t *edges;          /* RB_EDGES flags: edges seen since coverage began */
    uint64_t fresh;          /* edges seen for the first time since the last take */
    uint64_t previous;       /* the last line's key, for the next edge */
    int inrule;              /* rule calls open (see rulecover): the line
                                hook is set only then, outside counted calls */
    int everywhere;          /* the hook stays set in kernel code too (a test
                                compares the counts of both ways) */
    RBLine *lines;           /* open addressing, `capacity` a power of two */
    size_t used, capacity;
    /* What the current call added, so that a call run again (see rb_call)
     * is counted once: the edges it set and the lines it counted, in order
     * (a line as its key and number: the table may grow meanwhile). */
    struct RBCoverageUndo { uint64_t edge; const char *source; int line; } *undo;
    size_t undone, undo_capacity;
    int undo_overflow;       /* the log could not grow: a re-run counts twice */
    uint64_t fresh_at_mark;
} RBCoverage;

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
    int run;                 /* RB_RUN_*: how this call is budgeted */
    /* A watched call (see RB_RUN_WATCHED), shared with the watchdog thread. */
    atomic_int fired;        /* it was stopped, to run again counted */
    int hard;                /* stopped, and then ran a budget of kernel code */
    int64_t kernel_spent;    /* kernel instructions since it was stopped */
    lua_State *running;      /* the thread that runs now (guarded by lock) */
    pthread_mutex_t lock;    /* between the Lua thread and the watchdog */
    _Atomic int64_t watch_id;        /* the operation that runs (see rb_operation),
                                        unique per VM; 0 when no watched call runs */
    _Atomic int64_t watch_start;     /* when it began (ns, monotonic) */
    rb_thread_clock watch_clock;     /* the Lua thread's CPU clock */
    _Atomic int64_t watch_allowance; /* ns it may run before it is suspect */
    int64_t watch_last;      /* the last id given */
    /* The watchdog's sample of the Lua thread during operation sample_id:
     * its CPU clock, then the wall clock (written by the watchdog, under lock). */
    int64_t sample_id;
    int64_t sample_wall;
    int64_t sample_cpu;
    struct RBVM *watch_next; /* the watchdog's list (guarded by rb_watch_lock) */
    void *host_context;
    RBHostFunction host;
    RBBuffer reply;
    RBBuffer encoded;        /* the encoder's output (see rb_encode) */
    RBCoverage coverage;     /* lines and edges of rule code run (see coverage()) */
    int user;                /* a user call runs (coverage is collected only then) */
    RBReruns reruns;         /* watched work that ran again counted (see rb_reruns) */
    RBPool pool;             /* the allocator's small blocks (blockpool.c) */
    /* The last line of defence (see RB_BACKSTOP_NS_PER_INSTRUCTION). */
    _Atomic int64_t busy_start;      /* when the running operation of an armed
                                        call began (ns); 0 when none runs */
    atomic_int stop_cause;           /* RB_STOP_*: why the call was stopped */
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

static void rb_overdrawn(RBVM *vm);

/* Counts every byte and refuses growth past the current limit. Lua turns a
 * NULL from a growing request into an ordinary "not enough memory" error;
 * shrinking must never fail, so it is never refused. During a user call,
 * growth is also charged to the instruction budget; the count hook notices
 * the overdraft at its next call (the allocator itself must not raise); a
 * watched call is stopped at once (rb_overdrawn). */
static void *rb_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    RBVM *vm = (RBVM *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        rb_pool_free(&vm->pool, ptr, old);
        vm->used -= old;
        return NULL;
    }
    if (nsize > old && vm->used - old + nsize > vm->limit) {
        vm->memory_hit = 1;
        return NULL;
    }
    void *block = ptr ? rb_pool_resize(&vm->pool, ptr, old, nsize) : rb_pool_alloc(&vm->pool, nsize);
    if (block == NULL) {
        if (nsize > old) vm->memory_hit = 1;
        return NULL;
    }
    vm->used = vm->used - old + nsize;
    if (vm->armed && nsize > old) {
        int64_t cost = (int64_t)((nsize - old) / RB_BYTES_PER_INSTRUCTION);
        vm->remaining -= cost;
        vm->spent += cost;
        if (vm->remaining <= 0) rb_overdrawn(vm);
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
            /* The whole file name, as K.chunkname gives it: short_src cuts
             * a long path to "...". */
            int named = ar.source[0] == '@' || ar.source[0] == '=';
            lua_pushfstring(L, "%s:%d: ", named ? ar.source + 1 : "[string]", ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

static void rb_hook(lua_State *L, lua_Debug *ar);
static void rb_cover_line(RBVM *vm, lua_State *L, lua_Debug *ar);
static int rb_raise_stop(RBVM *vm, lua_State *L);


/* A user call runs in one of three ways:
 *
 *   RB_RUN_FREE     no budget (engine calls, budget 0): no hook at all.
 *   RB_RUN_COUNTED  the budget is counted: a count hook every RB_HOOK_PERIOD
 *                   instructions, from a fresh count at the start of the call.
 *                   This is the reference: its verdicts and messages are the
 *                   ones Rulebench reports.
 *   RB_RUN_WATCHED  no hook. Any count hook makes the VM trap into the
 *                   debug interface at every instruction (+20-70% on a
 *                   step), so most calls run bare and a watchdog looks at
 *                   the wall clock instead. A watched call that might have
 *                   spent its budget is stopped, rolled back and run again
 *                   counted (see rb_call); one that ends sooner cannot have
 *                   run more instructions than the budget, so its result is
 *                   exactly the counted run's. In the kernel's step loops
 *                   the unit is one operation, not the call: each runs
 *                   under protect(), which watches it alone and runs only
 *                   it again counted when it is suspect.
 *
 * The bound: a call is suspect once
 *     charges + elapsed_ns * RB_WATCH_INSTRUCTIONS_PER_NS >= budget
 * where charges are what the allocator and charge() debited. The fastest
 * instructions measured (LOADI / NOT / MOVE in a loop, Lua 5.4.4, AMD EPYC,
 * Linux) run at 2.5 ns each, 0.4 per ns; 4 per ns is ten times that, and one
 * VM instruction per cycle of a 4 GHz core (the dispatch alone takes several
 * cycles). So a 10M budget gives a watched call 2.5 ms before it is suspect.
 *
 * The time is the Lua thread's CPU time, so that a call descheduled on a
 * busy machine is not suspect for that (a re-run does twice what abort
 * does not undo). But reading a thread's CPU clock is a system call on
 * Linux (0.7-0.85 us on the test VM, 10-15% of a small pack's step at two
 * per call), while the monotonic clock is not (vDSO, ~40 ns). So the Lua
 * thread reads only the monotonic clock, and bounds its CPU time from it:
 *
 *   - A thread's CPU time over an interval is at most the interval's wall
 *     time. A call (or operation, see rb_operation) that ends with
 *     wall elapsed < allowance is within it: the fast path, no CPU clock.
 *   - The watchdog, the first time it sees an operation (it ticks every
 *     RB_WATCH_TICK_NS), samples the Lua thread's CPU clock C_s and then the
 *     wall clock W_s, while the operation runs (under vm->lock, after its id
 *     was published, so after its start S was read). The CPU spent in
 *     [S, sample] is at most W_s - S, and the CPU spent after the sample is
 *     the thread's clock now minus C_s. So
 *         bound = (W_s - S) + (CPU now - C_s)
 *     is an upper bound of the operation's CPU time, and it is close to it
 *     when the sample came early (a later sample only loosens it: CPU time
 *     grows no faster than wall time, so the first sample is kept).
 *   - Only an operation that ends past its allowance in wall time (rare:
 *     long, or descheduled) reads its own CPU clock, after copying the
 *     sample (so the sample came before that read), and is suspect when the
 *     bound reaches the allowance, or when there is no sample: the watchdog
 *     was starved, or asleep and slow to wake, for the whole allowance. That
 *     costs a re-run, never exactness.
 *   - The watchdog stops a call on the same bound (its own wall reading
 *     first, the CPU clock only past the allowance), so a call that runs
 *     on is stopped after its allowance of CPU time, give or take a tick,
 *     and one merely descheduled is left alone.
 * The Lua thread makes the test itself at the end of every call and
 * operation: a late or starved watchdog costs time, never exactness. The
 * monotonic clock may be slewed by NTP (at most 0.05%), far inside the
 * factor of ten above. */
enum { RB_RUN_FREE, RB_RUN_COUNTED, RB_RUN_WATCHED };

/* The line hook's bit when coverage is collected now, else 0. A line hook
 * makes every Lua instruction trap, kernel code's too, which more than
 * doubled a fuzz step's cost; so it is set only while the kernel has a rule
 * call open (rulecover). A counted call keeps it for the whole call: its
 * count hook traps every instruction anyway, and setting a hook restarts
 * the count, which a rule call must not be able to do. */
static int rb_line_mask(RBVM *vm) {
    const RBCoverage *c = &vm->coverage;
    return c->on && vm->user && (c->inrule > 0 || c->everywhere || vm->run == RB_RUN_COUNTED) ? LUA_MASKLINE : 0;
}

/* A new call or operation: edges do not join across it, and a rule call
 * an error left open is closed. */
static void rb_coverage_restart(RBVM *vm) {
    vm->coverage.previous = 0;
    vm->coverage.inrule = 0;
}

/* The hook a thread runs with while the call is in its normal state (not
 * stopped, budget not spent): counted, a count hook (and the line hook
 * when covering); otherwise only the line hook, or none. */
static void rb_normal_hook(RBVM *vm, lua_State *L) {
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

/* How a user call is budgeted (see RB_RUN_WATCHED): counted from the
 * start; watched as a whole; or watched one operation at a time (the
 * kernel's step loops, see protect()). */
enum { RB_WATCH_NONE, RB_WATCH_CALL, RB_WATCH_OPERATIONS };

#define RB_WATCH_INSTRUCTIONS_PER_NS 4
/* Below this budget (1 ms of allowance) calls are counted from the start:
 * too many would outlive the allowance and run twice. */
#define RB_WATCH_MIN_BUDGET 4000000
/* The watchdog's period, and how many idle periods before it sleeps until
 * the next watched call starts. */
#define RB_WATCH_TICK_NS 1000000L
#define RB_WATCH_IDLE_TICKS 200

/* What a watched call that was stopped raises. Nobody sees it: the call is
 * run again counted. */
#define RB_WATCH_MESSAGE "the call ran long; it runs again under the instruction budget"

static int64_t rb_now(void) {
#ifdef __APPLE__
    return (int64_t)clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
#endif
}

static int rb_is_rule(lua_Debug *ar) {
    return ar->what[0] != 'C' && strncmp(ar->source, "=rulebench", 10) != 0;
}

/* After a watched call was stopped, every thread that runs gets the hook in
 * one of two modes. Rule frames: count hook at every instruction, which
 * raises, so neither pcall nor a coroutine can carry on. Kernel frames: call
 * and return hooks (near full speed), so the kernel's own bookkeeping (a
 * require that clears its half-loaded module, a journal write) finishes;
 * the first call into rule code or return to it raises again. A slow count
 * hook stays on in kernel mode as a backstop: a chunk that calls itself
 * "=rulebench..." is stopped after a budget's worth of instructions. */
static void rb_stop_rules(lua_State *L) {
    lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
}

static void rb_stop_kernel(lua_State *L) {
    lua_sethook(L, rb_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, RB_HOOK_PERIOD);
}

/* A stop set from the watchdog thread can be lost: lua_sethook writes the
 * hook, its count and the frames' traps with plain stores while the Lua
 * thread runs, and that thread may overwrite one of them (a line hook
 * decrements the hook count on every line; a frame clears its trap when it
 * sees no hook mask yet). So while a stopped operation still runs, the
 * watchdog sets the stop again every tick: a lost store only delays it. */
static void rb_restop_locked(RBVM *vm) {
    rb_stop_rules(vm->L);
    if (vm->running != NULL && vm->running != vm->L) rb_stop_rules(vm->running);
}

/* Stops the watched call: called with vm->lock held, by the watchdog thread
 * or by the Lua thread itself (an overdraft). lua_sethook may be called
 * asynchronously (lua.c does it from a signal handler); the running loop
 * sees the trap at its next jump or call. */
static void rb_fire_locked(RBVM *vm) {
    if (atomic_load(&vm->fired)) return;
    atomic_store(&vm->fired, 1);
    rb_restop_locked(vm);
}

static void rb_fire(RBVM *vm) {
    pthread_mutex_lock(&vm->lock);
    rb_fire_locked(vm);
    pthread_mutex_unlock(&vm->lock);
}

/* ---------- the last line of defence: the wall clock and signals ----------
 *
 * The budget counts instructions and what workcost.c, the allocator and the
 * sandbox charge for C work: that verdict is deterministic, and it is the
 * one a pack should meet. What no charge covers (a comparison of two long
 * equal strings is one instruction; so is passing on a vararg list) could
 * still make one operation run for minutes. So the watchdog also watches
 * every operation of an armed call, counted ones too, and stops one that
 * has run longer than RB_BACKSTOP_NS_PER_INSTRUCTION per instruction of its
 * budget (10 s for 10M; at least RB_BACKSTOP_MIN_NS): "stopped by the wall
 * clock", an error of its own that says it is not the budget's verdict.
 * The same path stops the running call when the process is asked to stop
 * (rb_interrupt, from a SIGINT or SIGTERM handler): the command's own poll
 * then ends it as interrupted. Either stop raises at every instruction, in
 * kernel code too, like a spent budget, so nothing carries on; the call is
 * rolled back as after any failure, never run again. A single C call is not
 * interrupted inside: it ends first (each is bounded by the charges and the
 * memory cap). */
#define RB_BACKSTOP_NS_PER_INSTRUCTION 1000
#define RB_BACKSTOP_MIN_NS 1000000000LL
enum { RB_STOP_NONE, RB_STOP_INTERRUPT, RB_STOP_WALLCLOCK };

/* The signal that asked the process to stop, 0 while none has. */
static atomic_int rb_interrupt_signal;

void rb_interrupt(int signal) {
    if (signal == 0) {
        atomic_store(&rb_interrupt_signal, 0);
        return;
    }
    int none = 0;
    atomic_compare_exchange_strong(&rb_interrupt_signal, &none, signal);
}

static int64_t rb_backstop_ns(RBVM *vm) {
    int64_t ns = vm->budget > INT64_MAX / RB_BACKSTOP_NS_PER_INSTRUCTION
        ? INT64_MAX : vm->budget * RB_BACKSTOP_NS_PER_INSTRUCTION;
    return ns < RB_BACKSTOP_MIN_NS ? RB_BACKSTOP_MIN_NS : ns;
}

/* Stops the running call for `cause`, with vm->lock held (the watchdog, or
 * the Lua thread as a call begins). Set again on every tick while the call
 * runs, since a store from another thread can be lost (see rb_restop_locked). */
static void rb_stop_locked(RBVM *vm, int cause) {
    int none = RB_STOP_NONE;
    atomic_compare_exchange_strong(&vm->stop_cause, &none, cause);
    lua_sethook(vm->L, rb_hook, LUA_MASKCOUNT, 1);
    if (vm->running != NULL && vm->running != vm->L) lua_sethook(vm->running, rb_hook, LUA_MASKCOUNT, 1);
}

/* The error of a stopped call, at the innermost line of rule code. */
static int rb_raise_stop(RBVM *vm, lua_State *L) {
    lua_sethook(L, rb_hook, LUA_MASKCOUNT, 1);
    rb_push_where(L);
    if (atomic_load(&vm->stop_cause) == RB_STOP_INTERRUPT) {
        int signal = atomic_load(&rb_interrupt_signal);
        lua_pushfstring(L, "interrupted by %s", signal == 2 ? "SIGINT" : signal == 15 ? "SIGTERM" : "a signal");
    } else {
        lua_pushfstring(L, "stopped by the wall clock after %I ms (the backstop for a budget of %I instructions): "
                        "work the instruction budget does not count ran too long",
                        (lua_Integer)(rb_backstop_ns(vm) / 1000000), (lua_Integer)vm->budget);
    }
    lua_concat(L, 2);
    return lua_error(L);
}

/* A new operation of an armed call begins: its backstop starts now. */
static void rb_busy_restart(RBVM *vm) {
    if (atomic_load(&vm->busy_start) != 0) atomic_store(&vm->busy_start, rb_now());
}

/* Watchdog side, with rb_watch_lock held: stops the operation that has run
 * past its backstop, or any call once the process was asked to stop. */
static void rb_backstop_look(RBVM *vm, int64_t now) {
    int64_t seen = atomic_load(&vm->busy_start);    /* most ticks: nothing to do, no lock */
    if (seen == 0 || (!atomic_load(&vm->stop_cause) && !atomic_load(&rb_interrupt_signal) &&
                      now - seen < rb_backstop_ns(vm)))
        return;
    pthread_mutex_lock(&vm->lock);
    int64_t start = atomic_load(&vm->busy_start);
    if (start != 0) {
        if (atomic_load(&vm->stop_cause)) rb_stop_locked(vm, RB_STOP_NONE);
        else if (atomic_load(&rb_interrupt_signal)) rb_stop_locked(vm, RB_STOP_INTERRUPT);
        else if (now - start >= rb_backstop_ns(vm)) rb_stop_locked(vm, RB_STOP_WALLCLOCK);
    }
    pthread_mutex_unlock(&vm->lock);
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
static void rb_hook(lua_State *L, lua_Debug *ar) {
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
static void rb_overdrawn(RBVM *vm) {
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

static int rb_charge(lua_State *L) {
    lua_Number n = luaL_checknumber(L, 1);
    int out = rb_spend(L, n >= 4e18 ? INT64_MAX / 2 : n >= 1 ? (int64_t)n : 0);
    lua_pushboolean(L, out);
    lua_pushinteger(L, (lua_Integer)rb_vm_of(L)->budget);
    return 2;
}

static int64_t rb_watch_bound(RBVM *vm, int64_t id, int64_t start);
static int rb_watch_overran(RBVM *vm, int64_t id, int64_t start, int64_t end);
static void rb_watch_next(RBVM *vm, int64_t start);
static void rb_watch_wake_up(void);

/* operation(): a kernel loop that runs many operations in one call (explore)
 * starts each with this, so each has a whole budget, as if Swift had made a
 * call per operation. Counted: a fresh count. Watched: the operation that
 * ends now is checked as rb_watch_close checks a call (past its allowance, or
 * overdrawn: stop, and the whole call runs again counted, where each
 * operation is counted from its start), and the next one gets its own
 * allowance, its own id and so its own sample (one monotonic clock read
 * per operation on the fast path). Free (no budget): nothing. */
static int rb_operation(lua_State *L) {
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

static int rb_msgh(lua_State *L);

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

/* Whether watched operation `id`, begun at `start` and ending at `end`,
 * may have overrun its budget: overdrawn, or past its allowance (see
 * RB_RUN_WATCHED). */
static int rb_watch_overran(RBVM *vm, int64_t id, int64_t start, int64_t end) {
    if (vm->remaining <= 0) return 1;
    int64_t allowance = vm->remaining / RB_WATCH_INSTRUCTIONS_PER_NS;
    if (end - start < allowance) return 0;         /* CPU time <= wall time */
    return rb_watch_bound(vm, id, start) >= allowance;
}

/* Ends the watched operation that runs now, if any: from here on the
 * watchdog leaves it alone (its id is gone, under the lock). Returns 1 when
 * it must run again counted: it was stopped, or it may have overrun its
 * budget. Shared by the end of a call (rb_disarm), of one operation of
 * a kernel loop (protect) and of a loop's last operation (release). */
static int rb_watch_close(RBVM *vm) {
    int64_t end = rb_now();
    pthread_mutex_lock(&vm->lock);
    int64_t id = atomic_load(&vm->watch_id);
    atomic_store(&vm->watch_id, 0);
    vm->running = NULL;
    int fired = atomic_load(&vm->fired);
    pthread_mutex_unlock(&vm->lock);
    if (fired) return 1;
    return id != 0 && rb_watch_overran(vm, id, atomic_load(&vm->watch_start), end);
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

static void rb_coverage_rollback_to(RBVM *vm, size_t mark, uint64_t fresh);

/* callnoyield(f, ...): calls f(...) so that it cannot yield: a yield inside
 * raises "attempt to yield across a C-call boundary" at the yield. A module's
 * top level runs so (sandbox.lua), since a load left suspended would never
 * end. */
static int rb_call_no_yield(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* release(): a kernel loop has run its last operation; what is left of the
 * call is the kernel's own work (encoding its reply), which runs no rule
 * code and so needs no budget: the call runs free from here, neither
 * watched nor counted. */
static int rb_release(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    /* Returns whether the call is being stopped (it will raise, or run again
     * counted): then nothing it does from here on may be kept, and the
     * kernel leaves its operation pending for abort (engine.lua, commitcall). */
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
static int rb_protect(lua_State *L) {
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
static int rb_counted_protect(lua_State *L) {
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

void rb_set_instruction_budget(RBVM *vm, int64_t instructions) {
    vm->budget = instructions > 0 ? instructions : 0;
}

void rb_set_memory_cap(RBVM *vm, size_t bytes) {
    vm->cap = bytes;
    vm->limit = rb_engine_limit(bytes);
}

size_t rb_memory_used(RBVM *vm) { return vm->used; }

int64_t rb_instructions_used(RBVM *vm) { return vm->spent; }

RBReruns rb_reruns(RBVM *vm) { return vm->reruns; }

/* ---------- the watchdog ---------- */

/* One thread for the process. Every RB_WATCH_TICK_NS it looks at the VMs
 * that run a watched call and stops those past their allowance; after
 * RB_WATCH_IDLE_TICKS with none it sleeps until a watched call starts. The
 * Lua thread pays, per call, two monotonic clock reads (vDSO, no system
 * call), a few plain and atomic stores and one uncontended mutex at the end;
 * per operation of explore, one monotonic clock read. Its CPU clock (a
 * system call on Linux) is read only by a call that ends past its allowance
 * in wall time; the watchdog reads it once per operation it sees (the
 * sample) and again each tick for one past its allowance. The watchdog
 * reads another thread's CPU clock only under vm->lock and while that
 * thread's call runs (watch_id is set to 0 under the same lock before the
 * call returns), so the clock is that of a live thread, and the Lua thread
 * copies the sample under the lock. */
static pthread_mutex_t rb_watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rb_watch_wake = PTHREAD_COND_INITIALIZER;
static RBVM *rb_watch_list;          /* every open VM, guarded by rb_watch_lock */
static atomic_int rb_watch_state;    /* 0 not started, 1 running, 2 cannot start */
static atomic_int rb_watch_sleeping;

static int rb_watch_any(void) {
    for (RBVM *vm = rb_watch_list; vm; vm = vm->watch_next)
        if (atomic_load(&vm->watch_id) != 0 || atomic_load(&vm->busy_start) != 0) return 1;
    return 0;
}

/* Watchdog side of one VM, with rb_watch_lock held; `now` is this tick's
 * wall clock. Samples an operation the first time it sees it, and stops a
 * call whose bound (see RB_RUN_WATCHED) reaches its allowance. */
static void rb_watch_look(RBVM *vm, int64_t now, int64_t id) {
    int64_t start = atomic_load(&vm->watch_start);
    int64_t allowance = atomic_load(&vm->watch_allowance);
    int sampled = vm->sample_id == id;  /* only this thread writes sample_id */
    if (sampled && now - start < allowance) return;
    pthread_mutex_lock(&vm->lock);
    /* Still running (so its thread, and clock, are alive), and still the
     * same operation: its CPU clock is read after its id was published, so
     * after its start was read. rb_operation does not lock: the next
     * operation may begin during the read (the sample, tagged `id`, is then
     * unused), or just before it, its start stored but not yet its id, so
     * that `start` is already the next one's. Both only delay a stop by a
     * tick; `start` is never older than operation `id`'s, since each start
     * is stored before its id. */
    if (atomic_load(&vm->watch_id) == id && atomic_load(&vm->fired)) {
        rb_restop_locked(vm);
    } else if (atomic_load(&vm->watch_id) == id) {
        int64_t cpu = rb_thread_cpu(vm->watch_clock);
        int64_t wall = rb_now();            /* after the CPU clock: see the bound */
        if (cpu < 0) {
            rb_fire_locked(vm);
        } else {
            if (!sampled) {
                vm->sample_id = id;
                vm->sample_wall = wall;
                vm->sample_cpu = cpu;
            }
            if ((vm->sample_wall - start) + (cpu - vm->sample_cpu) >= allowance) rb_fire_locked(vm);
        }
    }
    pthread_mutex_unlock(&vm->lock);
}

static void *rb_watchdog(void *unused) {
    (void)unused;
    int idle = 0;
    pthread_mutex_lock(&rb_watch_lock);
    for (;;) {
        int64_t now = rb_now();
        int active = 0;
        for (RBVM *vm = rb_watch_list; vm; vm = vm->watch_next) {
            if (atomic_load(&vm->busy_start) != 0) {
                active = 1;
                rb_backstop_look(vm, now);
            }
            int64_t id = atomic_load(&vm->watch_id);
            if (id == 0) continue;
            active = 1;
            rb_watch_look(vm, now, id);
        }
        idle = active ? 0 : idle + 1;
        if (idle >= RB_WATCH_IDLE_TICKS) {
            /* Sleep only if no call started meanwhile; rb_watch_begin reads
             * rb_watch_sleeping after publishing its call, so one side sees
             * the other (both sequentially consistent). */
            atomic_store(&rb_watch_sleeping, 1);
            while (!rb_watch_any()) pthread_cond_wait(&rb_watch_wake, &rb_watch_lock);
            atomic_store(&rb_watch_sleeping, 0);
            idle = 0;
            continue;
        }
        pthread_mutex_unlock(&rb_watch_lock);
        struct timespec tick = {0, RB_WATCH_TICK_NS};
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&rb_watch_lock);
    }
    return NULL;
}

/* After fork the child has no watchdog thread; it starts its own. */
static void rb_watch_forked(void) {
    pthread_mutex_init(&rb_watch_lock, NULL);
    pthread_cond_init(&rb_watch_wake, NULL);
    atomic_store(&rb_watch_sleeping, 0);
    if (atomic_load(&rb_watch_state) == 1) atomic_store(&rb_watch_state, 0);
}

/* Starts the watchdog if needed; false when it cannot run (calls are then
 * counted, as before there was a watchdog). */
static int rb_watch_ready(void) {
    int state = atomic_load(&rb_watch_state);
    if (state != 0) return state == 1;
    pthread_mutex_lock(&rb_watch_lock);
    if (atomic_load(&rb_watch_state) == 0) {
        static int registered;
        if (!registered) { pthread_atfork(NULL, NULL, rb_watch_forked); registered = 1; }
        pthread_t thread;
        pthread_attr_t attr;
        int ok = pthread_attr_init(&attr) == 0;
        if (ok) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            pthread_attr_setstacksize(&attr, 64 << 10);
            ok = pthread_create(&thread, &attr, rb_watchdog, NULL) == 0;
            pthread_attr_destroy(&attr);
        }
        atomic_store(&rb_watch_state, ok ? 1 : 2);
    }
    pthread_mutex_unlock(&rb_watch_lock);
    return atomic_load(&rb_watch_state) == 1;
}

static void rb_watch_register(RBVM *vm) {
    pthread_mutex_lock(&rb_watch_lock);
    vm->watch_next = rb_watch_list;
    rb_watch_list = vm;
    pthread_mutex_unlock(&rb_watch_lock);
}

static void rb_watch_unregister(RBVM *vm) {
    pthread_mutex_lock(&rb_watch_lock);
    for (RBVM **p = &rb_watch_list; *p; p = &(*p)->watch_next)
        if (*p == vm) { *p = vm->watch_next; break; }
    pthread_mutex_unlock(&rb_watch_lock);
}

/* Publishes operation `start` of the running call under a fresh id (so the
 * watchdog takes a fresh sample): start before id, both sequentially
 * consistent, so a watchdog that sees the id sees its start. */
static void rb_watch_next(RBVM *vm, int64_t start) {
    int64_t id = start > vm->watch_last ? start : vm->watch_last + 1; /* unique per operation */
    vm->watch_last = id;
    atomic_store(&vm->watch_start, start);
    atomic_store(&vm->watch_id, id);
}

/* Wakes the watchdog if it fell asleep (no watched call for a while). */
static void rb_watch_wake_up(void) {
    if (atomic_load(&rb_watch_sleeping)) {
        pthread_mutex_lock(&rb_watch_lock);
        pthread_cond_signal(&rb_watch_wake);
        pthread_mutex_unlock(&rb_watch_lock);
    }
}

/* Starts watching a call: its first operation begins now, unless only
 * its operations are watched (`operations_only`: each protect() begins
 * one; see protect). */
static void rb_watch_begin(RBVM *vm, int operations_only) {
    int64_t start = rb_now();
    vm->watch_clock = rb_thread_clock_self();   /* no system call */
    atomic_store(&vm->watch_allowance, vm->budget / RB_WATCH_INSTRUCTIONS_PER_NS);
    vm->running = vm->L;
    if (operations_only) return;
    rb_watch_next(vm, start);
    rb_watch_wake_up();
}

/* The slow path, for an operation `id` that began at `start` and ends past
 * its allowance in wall time: an upper bound of the CPU time the Lua thread
 * spent in it (see RB_RUN_WATCHED), or INT64_MAX when the watchdog took no
 * sample of it (or a clock failed): suspect. The sample is copied before the
 * thread reads its own CPU clock, so it was taken before that read. */
static int64_t rb_watch_bound(RBVM *vm, int64_t id, int64_t start) {
    pthread_mutex_lock(&vm->lock);
    int sampled = vm->sample_id == id;
    int64_t wall = vm->sample_wall, cpu = vm->sample_cpu;
    pthread_mutex_unlock(&vm->lock);
    if (!sampled) return INT64_MAX;
    int64_t now = rb_thread_cpu(vm->watch_clock);
    if (now < 0) return INT64_MAX;
    return (wall - start) + (now - cpu);
}

/* ---------- coroutines ---------- */

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

static int rb_coresume(lua_State *L) {
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

static int rb_cowrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, rb_auxwrap, 1);
    return 1;
}

static int rb_coclose(lua_State *L) {
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

/* An armed call begins: the watchdog watches its backstop (and stops it at
 * once when the process was asked to stop before it began). */
static void rb_backstop_begin(RBVM *vm) {
    if (!rb_watch_ready()) return;
    pthread_mutex_lock(&vm->lock);
    if (vm->running == NULL) vm->running = vm->L;
    atomic_store(&vm->busy_start, rb_now());
    if (atomic_load(&rb_interrupt_signal)) rb_stop_locked(vm, RB_STOP_INTERRUPT);
    pthread_mutex_unlock(&vm->lock);
    rb_watch_wake_up();
}

/* Arms the budget for a call. */
static void rb_arm(RBVM *vm, RBCallMode mode, int watch) {
    vm->memory_hit = 0;
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
static int rb_disarm(RBVM *vm) {
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

/* ---------- coverage of rule code ---------- */

static uint64_t rb_mix(uint64_t z);

#define RB_FNV_BASIS 14695981039346656037ULL

/* `h` with `length` bytes folded in: FNV-1a, the one text hash of the
 * bridge (files here, the kinds the rules name at emit through C.fnv). */
static uint64_t rb_fnv(uint64_t h, const unsigned char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) h = (h ^ bytes[i]) * 1099511628211ULL;
    return h;
}

/* `h` with a chunk's file folded in, the same in every process and
 * wherever the pack is: the text of its name after the last '/' (chunks
 * are named by their path from the working directory), never its address. */
static uint64_t rb_hash_file(uint64_t h, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return rb_fnv(h, (const unsigned char *)base, strlen(base));
}

/* fnv(text): text's FNV-1a hash, shifted to a non-negative integer as
 * emitsite's sites are (engine.lua: the site of a kind the rules named). */
static int rb_fnv_text(lua_State *L) {
    size_t length;
    const char *text = luaL_checklstring(L, 1, &length);
    lua_pushinteger(L, (lua_Integer)(rb_fnv(RB_FNV_BASIS, (const unsigned char *)text, length) >> 1));
    return 1;
}

static size_t rb_line_slot(const RBCoverage *c, const char *source, int line) {
    uint64_t h = ((uint64_t)(uintptr_t)source * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)line * 0xbf58476d1ce4e5b9ULL);
    return (size_t)(h >> 17) & (c->capacity - 1);
}

/* Counts one line (growing the table at half full); returns its entry, or
 * NULL when out of memory. */
static RBLine *rb_count_line(RBCoverage *c, const char *source, int line) {
    if (2 * (c->used + 1) > c->capacity) {
        size_t capacity = c->capacity ? 2 * c->capacity : 1024;
        RBLine *bigger = calloc(capacity, sizeof *bigger);
        if (bigger == NULL) return NULL;
        RBCoverage grown = *c;
        grown.lines = bigger;
        grown.capacity = capacity;
        for (size_t i = 0; i < c->capacity; i++) {
            if (c->lines[i].source == NULL) continue;
            size_t j = rb_line_slot(&grown, c->lines[i].source, c->lines[i].line);
            while (bigger[j].source != NULL) j = (j + 1) & (capacity - 1);
            bigger[j] = c->lines[i];
        }
        free(c->lines);
        c->lines = bigger;
        c->capacity = capacity;
    }
    size_t i = rb_line_slot(c, source, line);
    while (c->lines[i].source != NULL && (c->lines[i].source != source || c->lines[i].line != line))
        i = (i + 1) & (c->capacity - 1);
    if (c->lines[i].source == NULL) {
        char *name = strdup(source + 1);           /* without the '@' */
        if (name == NULL) return NULL;
        /* Edges are keyed by rb_hash_file, so that a session's search makes
         * the same choices in every process and folder (the edge flags
         * collide by key). */
        c->lines[i].source = source;
        c->lines[i].name = name;
        c->lines[i].key = rb_mix(rb_hash_file(RB_FNV_BASIS, name) + (uint64_t)line * 0x100000001b3ULL);
        c->lines[i].line = line;
        c->used++;
    }
    c->lines[i].count++;
    return &c->lines[i];
}

/* Logs what a line event changed (see RBCoverage.undo). */
static void rb_coverage_log(RBCoverage *c, uint64_t edge, const char *source, int line) {
    if (c->undone == c->undo_capacity) {
        size_t capacity = c->undo_capacity ? 2 * c->undo_capacity : 4096;
        void *bigger = realloc(c->undo, capacity * sizeof *c->undo);
        if (bigger == NULL) {
            c->undo_overflow = 1;
            return;
        }
        c->undo = bigger;
        c->undo_capacity = capacity;
    }
    c->undo[c->undone].edge = edge;
    c->undo[c->undone].source = source;
    c->undo[c->undone].line = line;
    c->undone++;
}

/* A user call begins: what it adds is logged from here. */
static void rb_coverage_mark(RBVM *vm) {
    vm->coverage.undone = 0;
    vm->coverage.undo_overflow = 0;
    vm->coverage.fresh_at_mark = vm->coverage.fresh;
}

/* Forgets the lines and edges added since the log stood at `mark` (with
 * `fresh` new edges counted then). */
static void rb_coverage_rollback_to(RBVM *vm, size_t mark, uint64_t fresh) {
    RBCoverage *c = &vm->coverage;
    while (c->undone > mark) {
        struct RBCoverageUndo *u = &c->undo[--c->undone];
        if (u->edge != UINT64_MAX) c->edges[u->edge] = 0;
        if (u->source == NULL) continue;
        size_t i = rb_line_slot(c, u->source, u->line);
        while (c->lines[i].source != NULL && (c->lines[i].source != u->source || c->lines[i].line != u->line))
            i = (i + 1) & (c->capacity - 1);
        if (c->lines[i].source != NULL && c->lines[i].count > 0) c->lines[i].count--;
    }
    c->fresh = fresh;
}

/* The call runs again: forget the lines and edges its first run added. */
static void rb_coverage_rollback(RBVM *vm) {
    rb_coverage_rollback_to(vm, 0, vm->coverage.fresh_at_mark);
}

/* The line hook: a line of rule code is about to run. The chunk's source
 * string is interned and lives as long as its compiled chunk (a pack's
 * chunks are compiled once per game and kept), so its address identifies
 * the file without comparing text; the name is copied once per line. */
static void rb_cover_line(RBVM *vm, lua_State *L, lua_Debug *ar) {
    RBCoverage *c = &vm->coverage;
    if (!c->on || !lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
    RBLine *entry = rb_count_line(c, ar->source, ar->currentline);
    if (entry == NULL) return;
    uint64_t key = entry->key;
    size_t edge = (size_t)((key ^ c->previous) & (RB_EDGES - 1));
    c->previous = key >> 1;     /* so that a -> b and b -> a differ */
    int fresh = !c->edges[edge];
    if (fresh) {
        c->edges[edge] = 1;
        c->fresh++;
    }
    rb_coverage_log(c, fresh ? edge : UINT64_MAX, ar->source, ar->currentline);
}

/* coverage(on, everywhere): starts (true) or stops collecting; starting
 * keeps what was collected. With `everywhere` the line hook is not limited
 * to rule calls (see rb_line_mask). Returns true when it is on. */
static int rb_coverage(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    RBCoverage *c = &vm->coverage;
    if (lua_toboolean(L, 1) && c->edges == NULL) {
        c->edges = calloc(RB_EDGES, 1);
        if (c->edges == NULL) return luaL_error(L, "not enough memory for coverage");
    }
    c->on = lua_toboolean(L, 1) && c->edges != NULL;
    c->everywhere = lua_toboolean(L, 2);
    lua_pushboolean(L, c->on);
    return 1;
}

/* coveredges(): the edges seen for the first time since the last call. */
static int rb_coveredges(lua_State *L) {
    RBCoverage *c = &rb_vm_of(L)->coverage;
    lua_pushinteger(L, (lua_Integer)c->fresh);
    c->fresh = 0;
    return 1;
}

/* emitsite(): where the rules called the kernel function that calls this
 * (emit): the file, line and function of its caller and of that caller's
 * caller, hashed into an integer. It tells apart the branches of a move
 * generator without a line hook (coverage may be off): a pawn's en-passant
 * capture is emitted from another line than its other captures, or from
 * the same helper called from another line. Files are hashed by
 * rb_hash_file, so a session is the same run in every process and folder. */
static int rb_emitsite(lua_State *L) {
    uint64_t h = RB_FNV_BASIS;
    lua_Debug ar;
    for (int level = 2; level <= 3; level++) {
        if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "Sl", &ar)) break;
        h = rb_hash_file(h, ar.source);
        h = rb_mix(h ^ ((uint64_t)(uint32_t)ar.currentline << 32 | (uint32_t)ar.linedefined));
    }
    lua_pushinteger(L, (lua_Integer)(h >> 1));
    return 1;
}

/* rulecover(open): the kernel is about to call rule code (true) or has
 * returned from it (false); calls nest. Sets or clears the line hook of the
 * running thread when that changes whether lines are covered. Nothing
 * changes in a counted call (rb_line_mask) or in a watched call that was
 * stopped: its stop hook stays. */
static int rb_rulecover(lua_State *L) {
    RBVM *vm = rb_vm_of(L);
    RBCoverage *c = &vm->coverage;
    int before = rb_line_mask(vm);
    if (lua_toboolean(L, 1)) c->inrule++;
    else if (c->inrule > 0) c->inrule--;
    int after = rb_line_mask(vm);
    if (before == after || vm->run == RB_RUN_COUNTED) return 0;
    if (vm->run == RB_RUN_WATCHED && atomic_load(&vm->fired)) return 0;
    if (atomic_load(&vm->stop_cause)) return 0;   /* its stop hook stays too */
    if (after) lua_sethook(L, rb_hook, LUA_MASKLINE, 0);
    else if (lua_gethook(L) == rb_hook) lua_sethook(L, NULL, 0, 0);
    return 0;
}

/* coverlines(): { [file] = { [line] = count } } of every rule line run. */
static int rb_coverlines(lua_State *L) {
    RBCoverage *c = &rb_vm_of(L)->coverage;
    lua_newtable(L);
    for (size_t i = 0; i < c->capacity; i++) {
        const RBLine *l = &c->lines[i];
        if (l->source == NULL) continue;
        lua_pushstring(L, l->name);
        if (lua_rawget(L, -2) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushstring(L, l->name);
            lua_pushvalue(L, -2);
            lua_rawset(L, -4);
        }
        lua_pushinteger(L, (lua_Integer)l->count);
        lua_rawseti(L, -2, l->line);
        lua_pop(L, 1);
    }
    return 1;
}

/* ---------- plain values: hash and equality ---------- */

/* The fuzzer's step loop keeps each action's subaction tree and plan as Lua
 * tables, compares a redo's with the original's, and names each distinct
 * plan by an id (its hash). Encoding both for every perform (to compare bytes) cost a
 * fifth of a checked step; these two walk the values once, without sorting
 * or copying. Both read tables raw (plans and trees are plain tables). */

static uint64_t rb_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A 128-bit hash of a plain value that equal values share: two 64-bit
 * lanes with different constants, strings by their bytes (FNV-1a), numbers
 * by subtype and exact value, tables by the wrapping sum of one term per
 * pair (so key order cannot matter). 128 bits, so that a plan can be known
 * by its hash alone: keeping the plans themselves to tell them apart made
 * the collector walk thousands of old tables. */
typedef struct RBHash {
    uint64_t a, b;
} RBHash;

static RBHash rb_leafhash(uint64_t x, uint64_t tag) {
    RBHash h = {rb_mix(x ^ tag), rb_mix((x + 0x9e3779b97f4a7c15ULL) ^ (tag << 17))};
    return h;
}

static RBHash rb_valuehash(lua_State *L, int index, int depth) {
    switch (lua_type(L, index)) {
    case LUA_TNIL: return rb_leafhash(0, 1);
    case LUA_TBOOLEAN: return rb_leafhash((uint64_t)lua_toboolean(L, index), 2);
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) return rb_leafhash((uint64_t)lua_tointeger(L, index), 3);
        else {
            double x = (double)lua_tonumber(L, index);
            uint64_t bits;
            memcpy(&bits, &x, sizeof bits);
            return rb_leafhash(bits, 4);
        }
    case LUA_TSTRING: {
        size_t length;
        const char *s = lua_tolstring(L, index, &length);
        uint64_t h = 14695981039346656037ULL, g = 0x84222325cbf29ce4ULL;
        for (size_t i = 0; i < length; i++) {
            h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
            g = (g ^ (unsigned char)s[i]) * 0x100000001b3ULL + 0x51;
        }
        RBHash out = {rb_mix(h ^ 5), rb_mix(g ^ ((uint64_t)length << 8))};
        return out;
    }
    case LUA_TTABLE: {
        if (depth > 200) luaL_error(L, "cannot hash a table nested more than 200 levels (or a cycle)");
        luaL_checkstack(L, 4, "value nested too deeply");
        int t = lua_absindex(L, index);
        RBHash sum = {6, 7};
        lua_pushnil(L);
        while (lua_next(L, t)) {
            RBHash k = rb_valuehash(L, -2, depth + 1);
            RBHash v = rb_valuehash(L, -1, depth + 1);
            sum.a += rb_mix(k.a * 31 + v.a);
            sum.b += rb_mix((k.b ^ 0x5bd1e995) * 37 + (v.b << 1));
            lua_pop(L, 1);
        }
        RBHash out = {rb_mix(sum.a), rb_mix(sum.b ^ 0xabcdef)};
        return out;
    }
    default:
        luaL_error(L, "cannot hash a %s value", luaL_typename(L, index));
        return rb_leafhash(0, 0);
    }
}

/* valuehash(v): that hash, as a 16-byte string (a table key). */
static int rb_valuehash_call(lua_State *L) {
    luaL_checkany(L, 1);
    RBHash h = rb_valuehash(L, 1, 0);
    char bytes[16];
    memcpy(bytes, &h.a, 8);
    memcpy(bytes + 8, &h.b, 8);
    lua_pushlstring(L, bytes, sizeof bytes);
    return 1;
}

/* Deep equality of plain values; numbers must agree in subtype (1 is not 1.0). */
static int rb_same(lua_State *L, int a, int b, int depth) {
    int type = lua_type(L, a);
    if (type != lua_type(L, b)) return 0;
    if (type == LUA_TNUMBER && lua_isinteger(L, a) != lua_isinteger(L, b)) return 0;
    if (type != LUA_TTABLE) return lua_rawequal(L, a, b);
    if (lua_rawequal(L, a, b)) return 1;
    if (depth > 200) luaL_error(L, "cannot compare tables nested more than 200 levels (or a cycle)");
    luaL_checkstack(L, 4, "value nested too deeply");
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    size_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, a)) {
        count++;
        lua_pushvalue(L, -2);
        lua_rawget(L, b);                       /* b[k] */
        int equal = rb_same(L, -2, -1, depth + 1);
        lua_pop(L, 2);
        if (!equal) {
            lua_pop(L, 1);
            return 0;
        }
    }
    lua_pushnil(L);
    while (lua_next(L, b)) {
        lua_pop(L, 1);
        if (count-- == 0) {
            lua_pop(L, 1);
            return 0;                           /* b has a key a lacks */
        }
    }
    return count == 0;
}

/* same(a, b): true when the plain values are deeply equal. */
static int rb_same_call(lua_State *L) {
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    lua_pushboolean(L, rb_same(L, 1, 2, 0));
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
 * node or params (no call per comparison through qsort), qsort beyond. */
static void rb_sort_keys(RBKey *keys, size_t n) {
    if (n > 12) {
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

static int rb_encode(lua_State *L) {
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

/* ---------- the VM ---------- */

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
        {"coverage", rb_coverage}, {"coveredges", rb_coveredges}, {"emitsite", rb_emitsite}, {"fnv", rb_fnv_text}, {"rulecover", rb_rulecover}, {"coverlines", rb_coverlines},
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
    int stop = atomic_load(&vm->stop_cause);
    if (stop) return stop == RB_STOP_INTERRUPT ? RB_INTERRUPTED : RB_WALLCLOCK;
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
