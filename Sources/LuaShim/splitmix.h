// splitmix.h: internal to LuaShim. SplitMix64's mixing step, the one copy
// in C: hash.c (plain values, emitsite), coverage.c (line keys) and
// statecore.c (the state hash) all mix with it.
//
// Invariant: the constants and shifts never change. Saved histories,
// scenario expectations and a session's choices depend on these hashes bit
// for bit, and the Lua kernel computed the same function before statecore.c
// took it over. Inline, since the state hash mixes on every write.

#ifndef RULEBENCH_SPLITMIX_H
#define RULEBENCH_SPLITMIX_H

#include <stdint.h>

/* SplitMix64's increment (2^64 / the golden ratio): hashes that combine two
 * words multiply or offset one of them by it. */
#define RB_SPLITMIX_GAMMA 0x9e3779b97f4a7c15ULL

/* SplitMix64's finalizer (wrapping, logical shifts). */
static inline uint64_t rb_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
