// shim_private.h: what the files of the C shim share; Swift never sees it
// (its face is include/luashim.h).
//
// Owns: the VM record (struct RBVM) and the coverage record it embeds, the
// ways a user call runs (RB_RUN_*, RB_WATCH_*, RB_STOP_*), the few small
// functions every file needs inline, and the functions one file of the shim
// calls in another, listed by the file that defines them.
//
// Invariant: the watchdog thread touches an RBVM only through its atomic
// fields, the fields guarded by vm->lock (under it) and the budget (set
// between calls); everything else belongs to the thread that runs the
// VM's Lua state.

#ifndef RULEBENCH_SHIM_PRIVATE_H
#define RULEBENCH_SHIM_PRIVATE_H

#include "luashim.h"
#include "blockpool.h"
#include "workcost.h"

#include <lua.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef __APPLE__
#include <mach/mach.h>
#endif

/* Instructions between two hook calls. The hook itself is cheap; what costs
 * is that any count hook makes the VM trap on every instruction. */
#define RB_HOOK_PERIOD 1000

/* The CPU clock of a thread (see RB_RUN_WATCHED; read in watchdog.c). */
#ifdef __APPLE__
typedef mach_port_t rb_thread_clock;
#else
typedef clockid_t rb_thread_clock;
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
    /* The edges seen for the first time since the last takeedges(), in
     * order (a parallel session's workers tell each other; see seeedges).
     * At most RB_EDGES: an edge is first seen once, unless a re-run. */
    uint32_t *found;
    size_t found_count, found_capacity;
} RBCoverage;

struct RBVM {
    lua_State *L;
    size_t used;             /* bytes allocated now */
    size_t cap;              /* the game's memory cap */
    size_t limit;            /* what the allocator enforces at this moment */
    int memory_hit;          /* the allocator refused during this call */
    /* The last refusal, until the next growth that succeeds: when that is
     * the same request again (Lua's emergency collection made room), the
     * refusal never became an error and memory_hit goes back to what it was. */
    int refusing;
    void *refused_ptr;
    size_t refused_size;
    int hit_before;
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
    /* The Lua thread's own reading of its CPU clock (see RB_WATCH_MARK_NS):
     * taken at an operation's start, at most once per RB_WATCH_MARK_NS,
     * stored before the operation's id is published; -1 when none is valid. */
    _Atomic int64_t mark_cpu;
    int64_t mark_wall;       /* when it was taken (Lua thread only) */
    rb_thread_clock mark_clock;      /* whose clock it read (Lua thread only) */
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
 * How the watchdog bounds a watched call: see watchdog.c. */
enum { RB_RUN_FREE, RB_RUN_COUNTED, RB_RUN_WATCHED };

/* How a user call is budgeted (see RB_RUN_WATCHED): counted from the
 * start; watched as a whole; or watched one operation at a time (the
 * kernel's step loops, see protect()). */
enum { RB_WATCH_NONE, RB_WATCH_CALL, RB_WATCH_OPERATIONS };

/* What a watched call that was stopped raises. Nobody sees it: the call is
 * run again counted. */
#define RB_WATCH_MESSAGE "the call ran long; it runs again under the instruction budget"

/* Why an armed call was stopped by the watchdog (see watchdog.c). */
enum { RB_STOP_NONE, RB_STOP_INTERRUPT, RB_STOP_WALLCLOCK };

/* The four functions below run on hot paths (every hook call, every
 * operation, every allocation's charge) and are a few loads each: inline in
 * every file rather than a call across files. */

/* The VM a Lua state or any of its threads belongs to (rb_open keeps it in
 * the state's extra space). */
static inline RBVM *rb_vm_of(lua_State *L) {
    return *(RBVM **)lua_getextraspace(L);
}

/* The monotonic clock, in ns: no system call on Linux (vDSO), unlike a
 * thread's CPU clock (see watchdog.c). */
static inline int64_t rb_now(void) {
#ifdef __APPLE__
    return (int64_t)clock_gettime_nsec_np(CLOCK_UPTIME_RAW);
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
#endif
}

/* The line hook's bit when coverage is collected now, else 0. A line hook
 * makes every Lua instruction trap, kernel code's too, which more than
 * doubled a fuzz step's cost; so it is set only while the kernel has a rule
 * call open (rulecover). A counted call keeps it for the whole call: its
 * count hook traps every instruction anyway, and setting a hook restarts
 * the count, which a rule call must not be able to do. */
static inline int rb_line_mask(RBVM *vm) {
    const RBCoverage *c = &vm->coverage;
    return c->on && vm->user && (c->inrule > 0 || c->everywhere || vm->run == RB_RUN_COUNTED) ? LUA_MASKLINE : 0;
}

/* A new call or operation: edges do not join across it, and a rule call
 * an error left open is closed. */
static inline void rb_coverage_restart(RBVM *vm) {
    vm->coverage.previous = 0;
    vm->coverage.inrule = 0;
}

/* alloc.c */
void *rb_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
size_t rb_engine_limit(size_t cap);

/* budget.c (rb_spend and rb_raise_budget: workcost.h) */
void rb_push_where(lua_State *L);
void rb_normal_hook(RBVM *vm, lua_State *L);
void rb_stop_rules(lua_State *L);
void rb_hook(lua_State *L, lua_Debug *ar);
void rb_overdrawn(RBVM *vm);
void rb_arm(RBVM *vm, RBCallMode mode, int watch);
int rb_disarm(RBVM *vm);
int rb_charge(lua_State *L);

/* watchdog.c */
void rb_fire(RBVM *vm);
int rb_raise_stop(RBVM *vm, lua_State *L);
void rb_answer_interrupt(RBVM *vm);
void rb_busy_restart(RBVM *vm);
void rb_backstop_begin(RBVM *vm);
int rb_watch_ready(void);
void rb_watch_register(RBVM *vm);
void rb_watch_unregister(RBVM *vm);
void rb_watch_begin(RBVM *vm, int operations_only);
void rb_watch_next(RBVM *vm, int64_t start);
void rb_watch_wake_up(void);
int rb_watch_overran(RBVM *vm, int64_t id, int64_t start, int64_t end);
int rb_watch_close(RBVM *vm);

/* protect.c */
int rb_operation(lua_State *L);
int rb_protect(lua_State *L);
int rb_counted_protect(lua_State *L);
int rb_release(lua_State *L);

/* coroutine.c */
int rb_coresume(lua_State *L);
int rb_cowrap(lua_State *L);
int rb_coclose(lua_State *L);
int rb_call_no_yield(lua_State *L);

/* coverage.c */
void rb_cover_line(RBVM *vm, lua_State *L, lua_Debug *ar);
void rb_coverage_mark(RBVM *vm);
void rb_coverage_rollback_to(RBVM *vm, size_t mark, uint64_t fresh);
void rb_coverage_rollback(RBVM *vm);
int rb_coverage(lua_State *L);
int rb_coveredges(lua_State *L);
int rb_takeedges(lua_State *L);
int rb_seeedges(lua_State *L);
int rb_emitsite(lua_State *L);
int rb_rulecover(lua_State *L);
int rb_coverlines(lua_State *L);

/* hash.c */
#define RB_FNV_BASIS 14695981039346656037ULL
uint64_t rb_hash_file(uint64_t h, const char *path);
int rb_fnv_text(lua_State *L);
int rb_valuehash_call(lua_State *L);
/* valuehash's 128 bits, and how a table's are made from its pairs (a
 * builder that knows each pair it sets hashes its table as it builds it). */
typedef struct RBHash {
    uint64_t a, b;
} RBHash;
#define RB_HASH_EMPTY {6, 7}
/* Tables whose hashes are known (anim's leaves, noted as they were built):
 * rb_hash_value takes a table's noted hash instead of walking it. Each
 * table is held (anchored) while noted, so no other table has its address. */
#define RB_NOTES 16
typedef struct RBNotes {
    int next;
    const void *table[RB_NOTES];
    RBHash hash[RB_NOTES];
} RBNotes;
RBHash rb_hash_value(lua_State *L, int index, const RBNotes *notes);
RBHash rb_hash_integer(lua_Integer i);
RBHash rb_hash_float(double x);
RBHash rb_hash_boolean(int b);
RBHash rb_hash_text(const char *s, size_t length);
void rb_hash_pair(RBHash *sum, RBHash k, RBHash v);
RBHash rb_hash_close(RBHash sum);
void rb_push_hash(lua_State *L, RBHash h);
int rb_same_call(lua_State *L);

/* wire.c */
int rb_decode(lua_State *L);
int rb_encode(lua_State *L);

/* vm.c */
int rb_msgh(lua_State *L);

/* kernelcache.c */
int rb_load_kernel_chunk(lua_State *L, const char *source, size_t length, const char *name);

#endif
