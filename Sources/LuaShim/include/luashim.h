// luashim: the C half of Rulebench's Lua bridge.
//
// Lua reports errors with longjmp. Swift frames must never be unwound that
// way, so every entry into Lua from Swift goes through rb_call (a lua_pcall
// with a traceback handler), and every Swift function that Lua can call is
// reached through a C wrapper that raises on Swift's behalf.
//
// The VM also owns the two budgets that make hostile scripts stoppable: a
// counting allocator with a memory cap, and an instruction budget. Most
// user calls run with no hook under a wall-clock watchdog; one that runs
// long is rolled back and run again under the count hook (see vm.c),
// so results and messages are always the counted run's.

#ifndef LUASHIM_H
#define LUASHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lua_State lua_State;

/// How a call is accounted: user calls run rule code under the instruction
/// budget and the memory cap; engine calls run the kernel's own bookkeeping
/// (rollback, snapshots) with no instruction budget and a reserve above the cap.
typedef enum RBCallMode {
    RB_MODE_ENGINE = 0,
    RB_MODE_USER = 1
} RBCallMode;

/// Why a call failed.
typedef enum RBStatus {
    RB_OK = 0,
    RB_ERROR = 1,          ///< a Lua error; the error object is on the stack
    RB_BUDGET = 2,         ///< the instruction budget ran out
    RB_MEMORY = 3,         ///< the memory cap was reached
    RB_HANDLER = 4,        ///< the error handler itself failed
    RB_INTERRUPTED = 5,    ///< stopped because the process was asked to stop (rb_interrupt)
    RB_WALLCLOCK = 6       ///< stopped by the wall-clock backstop, not the budget
} RBStatus;

/// A growable byte buffer owned by C, through which Swift hands results to Lua.
typedef struct RBBuffer {
    char *data;
    size_t length;
    size_t capacity;
} RBBuffer;

/// Replaces the buffer's contents. Returns 0 when out of memory.
int rb_buffer_set(RBBuffer *buffer, const char *bytes, size_t length);

/// A Swift function callable from Lua. It receives the VM's context pointer,
/// an operation name and one string argument, writes its answer into `out`
/// and returns 0 for success or 1 for an error (then `out` holds the message).
/// It must not call back into Lua.
typedef int (*RBHostFunction)(void *context, const char *operation,
                              const char *argument, size_t length, RBBuffer *out);

typedef struct RBVM RBVM;

/// Creates a Lua state with the counting allocator. `memory_cap` is in bytes.
/// Returns NULL when the state cannot be created.
RBVM *rb_open(size_t memory_cap, void *host_context, RBHostFunction host);

/// Closes the state and frees the VM.
void rb_close(RBVM *vm);

/// The underlying Lua state, for the non-raising reads Swift does on results.
lua_State *rb_state(RBVM *vm);

/// Sets the instruction budget per user call (0: no hook and no watchdog).
void rb_set_instruction_budget(RBVM *vm, int64_t instructions);

/// Sets the memory cap in bytes.
void rb_set_memory_cap(RBVM *vm, size_t bytes);

/// Bytes currently allocated by the state.
size_t rb_memory_used(RBVM *vm);

/// Instructions used by the last user call (granularity: the hook period).
/// A call that ran watched, without the hook, reports only what was charged
/// (allocation, `charge`).
int64_t rb_instructions_used(RBVM *vm);

/// Watched work that had to run again counted, since the state was opened:
/// whole calls (a call stopped, or ended too late to be sure of its budget),
/// and single operations of a kernel loop (see protect() in protect.c).
typedef struct RBReruns {
    int64_t calls;
    int64_t operations;
} RBReruns;

/// How often watched work ran again counted in this state (see RBReruns).
RBReruns rb_reruns(RBVM *vm);

/// Tests only: while `paused` is nonzero the watchdog neither samples nor
/// stops watched calls (as when it is starved of a core), so that a test
/// reaches the Lua thread's own verdict on a call that ran long in wall time.
void rb_watch_pause(int paused);

/// Compiles and runs the kernel's chunks, in order. Each chunk's text is
/// compiled once per process; every state loads the compiled form, a dump
/// this process made of that text, not stripped (the same lines, names and
/// messages; kernelcache.c). No other bytecode is ever loaded.
/// Chunk i is called with `argument_counts[i]` arguments, the next entries of
/// `arguments`: 0 names the C helpers, k >= 1 what chunk k - 1 returned (a
/// chunk loaded before i, or the load fails). Every chunk returns a table; the
/// last one's is the table of functions that rb_call reaches. On failure the
/// error message is left on the stack.
RBStatus rb_load_kernel(RBVM *vm, int count, const char *const *sources, const size_t *lengths,
                        const char *const *chunknames, const int *argument_counts, const int *arguments);

/// Loads of a kernel chunk, in any state of this process, served from the
/// compiled form an earlier load kept, without compiling its text again.
int64_t rb_kernel_cache_hits(void);

/// How kernel chunks load (tests only; RB_KERNEL_CACHED unless a test says).
typedef enum RBKernelLoadWay {
    RB_KERNEL_CACHED = 0,   ///< from the compiled form kept for the same name and text
    RB_KERNEL_FRESH = 1,    ///< compiled afresh, as a first load is; nothing read or kept
    RB_KERNEL_PARSED = 2    ///< parsed from the text in the state itself, as before the cache
} RBKernelLoadWay;

/// Tests only: how kernel chunks load from now on, in every state (to compare the ways).
void rb_kernel_load(RBKernelLoadWay way);

/// What the watchdog may do with a user call that runs past its allowance;
/// the caller names it for each call (Swift's `KernelEntry`, the kernel's
/// protocol). A call may run watched only when the kernel function it names
/// with it (`abort_function`) undoes its every effect, or when it writes
/// nothing (no abort function). Loading a pack registers the pack and its
/// modules, which no abort undoes: those calls are counted from the start.
typedef enum RBRestart {
    RB_RESTART_NEVER = 0,       ///< counted from the start
    RB_RESTART_CALL = 1,        ///< watched whole; stopped: abort, then run again counted
    /// The kernel's step loops: each operation runs under protect(), which
    /// watches it alone and runs it again counted when it is suspect. A
    /// call stopped between operations runs again whole; it may have
    /// finished by then, so its own abort rolls back to where it began.
    RB_RESTART_OPERATIONS = 2
} RBRestart;

/// Calls kernel[function](args...) in protected mode. Each argument is a
/// string (pointer and length). A user call that runs past the watchdog's
/// allowance (see RBRestart) is rolled back (`abort_function`, when not
/// NULL) and run once more under the count hook; only the second run's
/// results are returned. On RB_OK the results are at stack indices
/// 2...top; otherwise the error object is at index 2. Call rb_clear after
/// reading them.
RBStatus rb_call(RBVM *vm, RBCallMode mode, const char *function, RBRestart policy, const char *abort_function,
                 int argc, const char *const *argv, const size_t *lengths);

/// Asks every running and later call of every VM to stop, as interrupted:
/// for a SIGINT or SIGTERM handler (it only stores `signal` atomically, so
/// it is async-signal-safe). The first signal is kept; 0 clears it.
void rb_interrupt(int signal);

/// Empties the Lua stack.
void rb_clear(RBVM *vm);

#ifdef __cplusplus
}
#endif

#endif
