// coverage.c: coverage of rule code: lines run, AFL-style edges between
// consecutive lines (and, for a parallel session's workers, the edges each
// saw first: takeedges / seeedges), and emitsite(), the place a legal call
// was emitted from.
//
// Owns: vm->coverage (see RBCoverage) and the line hook's work.
//
// Invariant: every key that can reach a report or a search's choice is the
// same in every process and folder (files are hashed by name, never by
// address), and a call that runs again counts its lines and edges once.

#include "shim_private.h"
#include "splitmix.h"

#include <lauxlib.h>
#include <stdlib.h>

static size_t rb_line_slot(const RBCoverage *c, const char *source, int line) {
    uint64_t h = ((uint64_t)(uintptr_t)source * RB_SPLITMIX_GAMMA) ^ ((uint64_t)line * 0xbf58476d1ce4e5b9ULL);
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
void rb_coverage_mark(RBVM *vm) {
    vm->coverage.undone = 0;
    vm->coverage.undo_overflow = 0;
    vm->coverage.fresh_at_mark = vm->coverage.fresh;
}

/* Forgets the lines and edges added since the log stood at `mark` (with
 * `fresh` new edges counted then). */
void rb_coverage_rollback_to(RBVM *vm, size_t mark, uint64_t fresh) {
    RBCoverage *c = &vm->coverage;
    while (c->undone > mark) {
        struct RBCoverageUndo *u = &c->undo[--c->undone];
        if (u->edge != UINT64_MAX) {
            c->edges[u->edge] = 0;
            /* Not seen after all: off the list for takeedges too (it was
             * the last listed, unless the list had no room for it). */
            if (c->found_count > 0 && c->found[c->found_count - 1] == u->edge) c->found_count--;
        }
        if (u->source == NULL) continue;
        size_t i = rb_line_slot(c, u->source, u->line);
        while (c->lines[i].source != NULL && (c->lines[i].source != u->source || c->lines[i].line != u->line))
            i = (i + 1) & (c->capacity - 1);
        if (c->lines[i].source != NULL && c->lines[i].count > 0) c->lines[i].count--;
    }
    c->fresh = fresh;
}

/* The call runs again: forget the lines and edges its first run added. */
void rb_coverage_rollback(RBVM *vm) {
    rb_coverage_rollback_to(vm, 0, vm->coverage.fresh_at_mark);
}

/* Notes an edge seen for the first time, for takeedges(). An edge the
 * list has no room for is only not told to the other workers (they may
 * count it as new once more). */
static void rb_coverage_found(RBCoverage *c, size_t edge) {
    if (c->found_count == c->found_capacity) {
        if (c->found_capacity >= RB_EDGES) return;
        size_t capacity = c->found_capacity ? 2 * c->found_capacity : 256;
        void *bigger = realloc(c->found, capacity * sizeof *c->found);
        if (bigger == NULL) return;
        c->found = bigger;
        c->found_capacity = capacity;
    }
    c->found[c->found_count++] = (uint32_t)edge;
}

/* The line hook: a line of rule code is about to run. The chunk's source
 * string is interned and lives as long as its compiled chunk (a pack's
 * chunks are compiled once per game and kept), so its address identifies
 * the file without comparing text; the name is copied once per line. */
void rb_cover_line(RBVM *vm, lua_State *L, lua_Debug *ar) {
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
        rb_coverage_found(c, edge);
    }
    rb_coverage_log(c, fresh ? edge : UINT64_MAX, ar->source, ar->currentline);
}

/* coverage(on, everywhere): starts (true) or stops collecting; starting
 * keeps what was collected. With `everywhere` the line hook is not limited
 * to rule calls (see rb_line_mask). Returns true when it is on. */
int rb_coverage(lua_State *L) {
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
int rb_coveredges(lua_State *L) {
    RBCoverage *c = &rb_vm_of(L)->coverage;
    lua_pushinteger(L, (lua_Integer)c->fresh);
    c->fresh = 0;
    return 1;
}

/* takeedges(): { edge, ... }, the edges seen for the first time since the
 * last call, in the order they were seen (a call rolled back takes its
 * edges off the list: run again, it lists them once). */
int rb_takeedges(lua_State *L) {
    RBCoverage *c = &rb_vm_of(L)->coverage;
    lua_createtable(L, (int)c->found_count, 0);
    for (size_t i = 0; i < c->found_count; i++) {
        lua_pushinteger(L, (lua_Integer)c->found[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    c->found_count = 0;
    return 1;
}

/* seeedges({ edge, ... }): marks edges as seen without counting them as
 * fresh: the edges another worker of the session reached first (a parallel
 * guided session judges what is new by every worker's runs). Indices out
 * of range are ignored; nothing happens while coverage was never on. */
int rb_seeedges(lua_State *L) {
    RBCoverage *c = &rb_vm_of(L)->coverage;
    luaL_checktype(L, 1, LUA_TTABLE);
    if (c->edges == NULL) return 0;
    lua_Integer n = luaL_len(L, 1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_Integer edge = (lua_rawgeti(L, 1, i), lua_tointeger(L, -1));
        lua_pop(L, 1);
        if (edge >= 0 && edge < RB_EDGES) c->edges[edge] = 1;
    }
    return 0;
}

/* emitsite(): where the rules called the kernel function that calls this
 * (emit): the file, line and function of its caller and of that caller's
 * caller, hashed into an integer. It tells apart the branches of a move
 * generator without a line hook (coverage may be off): a pawn's en-passant
 * capture is emitted from another line than its other captures, or from
 * the same helper called from another line. Files are hashed by
 * rb_hash_file, so a session is the same run in every process and folder. */
int rb_emitsite(lua_State *L) {
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
int rb_rulecover(lua_State *L) {
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
int rb_coverlines(lua_State *L) {
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
