// watchdog.c: the one thread that watches every VM's running call, for two
// reasons: a watched call that may have spent its budget (stopped, and run
// again counted), and the last line of defence, the wall-clock backstop and
// the signals that ask the process to stop.
//
// Owns: the watchdog thread and its list of VMs (rb_watch_lock), the
// per-operation ids, starts and samples of a watched call (vm->watch_*,
// vm->sample_*), vm->fired, vm->busy_start and vm->stop_cause, and the
// process's interrupt signal.
//
// Invariant: the watchdog reads another thread's CPU clock only under
// vm->lock while that thread's operation runs (its id is cleared under the
// same lock before the call returns); a stop it sets is set again every
// tick while the operation runs, since a store from another thread can be
// lost. A late or starved watchdog costs time, never exactness: the Lua
// thread makes the same test itself at the end of every call and operation.

#include "shim_private.h"

#include <lauxlib.h>

/* The CPU clock of a thread: a system call on Linux, so read only on the
 * slow paths below. */
#ifdef __APPLE__
static rb_thread_clock rb_thread_clock_self(void) { return pthread_mach_thread_np(pthread_self()); }
static int64_t rb_thread_cpu(rb_thread_clock thread) {
    thread_basic_info_data_t info;
    mach_msg_type_number_t count = THREAD_BASIC_INFO_COUNT;
    if (thread_info(thread, THREAD_BASIC_INFO, (thread_info_t)&info, &count) != KERN_SUCCESS) return -1;
    return ((int64_t)info.user_time.seconds + info.system_time.seconds) * 1000000000 +
           ((int64_t)info.user_time.microseconds + info.system_time.microseconds) * 1000;
}
#else
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

/* The bound: a call is suspect once
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
 *   - That bound counts the wall time before the sample as CPU time, so an
 *     operation descheduled before the watchdog sampled it (two workers and
 *     a loaded machine: the watchdog is late too) looked suspect, and its
 *     whole call ran again counted. So the Lua thread also reads its own CPU
 *     clock at an operation's start, at most once per RB_WATCH_MARK_NS of
 *     wall time (the mark M, a system call per millisecond at most): the
 *     CPU spent since M, CPU now - M, bounds the operation's CPU time from
 *     above too, since M was read at or before its start, and it is close
 *     to it (within the CPU of the RB_WATCH_MARK_NS before the start)
 *     however long the thread waited for a core. Both sides take the
 *     smaller bound, so being descheduled no longer decides a re-run.
 *   - The watchdog stops a call on the same bound (its own wall reading
 *     first, the CPU clock only past the allowance), so a call that runs
 *     on is stopped after its allowance of CPU time, give or take a tick,
 *     and one merely descheduled is left alone.
 * The Lua thread makes the test itself at the end of every call and
 * operation: a late or starved watchdog costs time, never exactness. The
 * monotonic clock may be slewed by NTP (at most 0.05%), far inside the
 * factor of ten above. */

#define RB_WATCH_INSTRUCTIONS_PER_NS 4

/* How often, at most, the Lua thread reads its own CPU clock (the mark, see
 * above): 1 ms, so the system call costs under 0.1% of the time, and an
 * operation within 1.5 ms of CPU is never suspect with a 10M budget. */
#define RB_WATCH_MARK_NS 1000000LL

/* The CPU the Lua thread spent since the mark, `cpu` being its clock now:
 * an upper bound of the running operation's CPU time (INT64_MAX without a
 * valid mark). */
static int64_t rb_mark_bound(RBVM *vm, int64_t cpu) {
    int64_t mark = atomic_load(&vm->mark_cpu);
    return mark < 0 || cpu < mark ? INT64_MAX : cpu - mark;
}

/* Tests only: while set, the watchdog neither samples nor stops a watched
 * call (as when it is starved), so that a test can reach the Lua thread's
 * own verdict; the backstop and the signals still work. */
static atomic_int rb_watch_paused;

void rb_watch_pause(int paused) { atomic_store(&rb_watch_paused, paused != 0); }

/* The watchdog's period, and how many idle periods before it sleeps until
 * the next watched call starts. */
#define RB_WATCH_TICK_NS 1000000L
#define RB_WATCH_IDLE_TICKS 200

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

void rb_fire(RBVM *vm) {
    pthread_mutex_lock(&vm->lock);
    rb_fire_locked(vm);
    pthread_mutex_unlock(&vm->lock);
}

/* The last line of defence: the wall clock and signals.
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
int rb_raise_stop(RBVM *vm, lua_State *L) {
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

/* A stop the process was asked for, taken by the Lua thread itself as an
 * operation of an armed call begins. The watchdog would stop the call a
 * tick later, wherever it then is: a kernel loop of fast operations
 * (travel's undos and redos) could run to its end first, or on past the
 * step the signal came in. Answered here, no operation starts after the
 * request: the loop ends at this one's first instruction, with the
 * operations before it committed, on every run alike. */
void rb_answer_interrupt(RBVM *vm) {
    if (!atomic_load(&rb_interrupt_signal) || atomic_load(&vm->stop_cause)) return;
    pthread_mutex_lock(&vm->lock);
    rb_stop_locked(vm, RB_STOP_INTERRUPT);
    pthread_mutex_unlock(&vm->lock);
}

/* A new operation of an armed call begins: its backstop starts now, and a
 * stop asked for is answered (rb_answer_interrupt). */
void rb_busy_restart(RBVM *vm) {
    if (atomic_load(&vm->busy_start) != 0) atomic_store(&vm->busy_start, rb_now());
    rb_answer_interrupt(vm);
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

/* An armed call begins: the watchdog watches its backstop (and stops it at
 * once when the process was asked to stop before it began). */
void rb_backstop_begin(RBVM *vm) {
    if (!rb_watch_ready()) return;
    pthread_mutex_lock(&vm->lock);
    if (vm->running == NULL) vm->running = vm->L;
    atomic_store(&vm->busy_start, rb_now());
    if (atomic_load(&rb_interrupt_signal)) rb_stop_locked(vm, RB_STOP_INTERRUPT);
    pthread_mutex_unlock(&vm->lock);
    rb_watch_wake_up();
}

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
            int64_t bound = (vm->sample_wall - start) + (cpu - vm->sample_cpu);
            int64_t marked = rb_mark_bound(vm, cpu);
            if ((bound < marked ? bound : marked) >= allowance) rb_fire_locked(vm);
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
            if (atomic_load(&rb_watch_paused)) { active = 1; continue; }
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
int rb_watch_ready(void) {
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

void rb_watch_register(RBVM *vm) {
    pthread_mutex_lock(&rb_watch_lock);
    vm->watch_next = rb_watch_list;
    rb_watch_list = vm;
    pthread_mutex_unlock(&rb_watch_lock);
}

void rb_watch_unregister(RBVM *vm) {
    pthread_mutex_lock(&rb_watch_lock);
    for (RBVM **p = &rb_watch_list; *p; p = &(*p)->watch_next)
        if (*p == vm) { *p = vm->watch_next; break; }
    pthread_mutex_unlock(&rb_watch_lock);
}

/* Publishes operation `start` of the running call under a fresh id (so the
 * watchdog takes a fresh sample): start before id, both sequentially
 * consistent, so a watchdog that sees the id sees its start. */
void rb_watch_next(RBVM *vm, int64_t start) {
    if (start - vm->mark_wall >= RB_WATCH_MARK_NS || vm->mark_clock != vm->watch_clock || atomic_load(&vm->mark_cpu) < 0) {
        vm->mark_clock = vm->watch_clock;
        vm->mark_wall = start;
        atomic_store(&vm->mark_cpu, rb_thread_cpu(vm->watch_clock));   /* before the id: see rb_mark_bound */
    }
    int64_t id = start > vm->watch_last ? start : vm->watch_last + 1; /* unique per operation */
    vm->watch_last = id;
    atomic_store(&vm->watch_start, start);
    atomic_store(&vm->watch_id, id);
}

/* Wakes the watchdog if it fell asleep (no watched call for a while). */
void rb_watch_wake_up(void) {
    if (atomic_load(&rb_watch_sleeping)) {
        pthread_mutex_lock(&rb_watch_lock);
        pthread_cond_signal(&rb_watch_wake);
        pthread_mutex_unlock(&rb_watch_lock);
    }
}

/* Starts watching a call: its first operation begins now, unless only
 * its operations are watched (`operations_only`: each protect() begins
 * one; see protect). */
void rb_watch_begin(RBVM *vm, int operations_only) {
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
 * spent in it (see RB_RUN_WATCHED), the smaller of the watchdog's sample's
 * and the mark's; INT64_MAX when there is neither (or a clock failed):
 * suspect. The sample is copied before the thread reads its own CPU clock,
 * so it was taken before that read; so was the mark. */
static int64_t rb_watch_bound(RBVM *vm, int64_t id, int64_t start) {
    pthread_mutex_lock(&vm->lock);
    int sampled = vm->sample_id == id;
    int64_t wall = vm->sample_wall, cpu = vm->sample_cpu;
    pthread_mutex_unlock(&vm->lock);
    int64_t now = rb_thread_cpu(vm->watch_clock);
    if (now < 0) return INT64_MAX;
    int64_t marked = rb_mark_bound(vm, now);
    if (!sampled) return marked;
    int64_t bound = (wall - start) + (now - cpu);
    return bound < marked ? bound : marked;
}

/* Whether watched operation `id`, begun at `start` and ending at `end`,
 * may have overrun its budget: overdrawn, or past its allowance (see
 * RB_RUN_WATCHED). */
int rb_watch_overran(RBVM *vm, int64_t id, int64_t start, int64_t end) {
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
int rb_watch_close(RBVM *vm) {
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
