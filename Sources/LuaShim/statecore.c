// statecore.c: the hot path of the game state (state.lua), in C.
//
// Owns: the write barrier (`__newindex` of every state proxy) for scalar
// values, `__len` and `__pairs` of state proxies, table.insert and
// table.remove on a state table (the elements moved against the backing
// table, each write the barrier's own), the journal (its entries, in C:
// append, rollback, revert, truncate, reading an entry and the slots a step
// wrote), the incremental state hash (and the terms
// of it a seat's view hash adds up, for seats.lua), the count of slot
// changes (seats.lua keeps the marks of `secrets` while it stands), and
// the fast pass of undo verification. state.lua keeps what is rare or needs Lua:
// every error message (the barrier hands anything unusual to state.lua's own
// `write`, so messages and their "file:line: " stay exactly as they were),
// adopting a table value, paths, and the diff records of a failed
// verification.
//
// Invariant: the journal's entries, newest last, undo the state back to any
// mark when replayed newest first, and everything they name is anchored.
//
// Why C: in Lua, hashing, the barrier and verification were about 60% of the
// VM instructions of a checked step, and each costs a few C operations.
//
// A node record `m` (the proxy's metatable) is a Lua table laid out as
//   m[1] = a userdata holding the node's SCNode, m[2] = the backing table,
//   m[3] = the cached sorted keys (false or nil when stale),
//   m.up, m.key = the parent's record and the key there (false when detached)
// and the journal is an array of (record, key, old value) entries in C
// (the section "the journal"), what the collector must see anchored in the
// Lua table J; state.lua reads an entry with `entry`, the NIL sentinel
// standing for an absent value.
//
// Hash values are those of the Lua kernel before this file, bit for bit
// (saved histories and scenario expectations depend on them): a node's hash
// is the wrapping sum of one term per slot, carried up the parent chain.

#include "statecore.h"
#include "splitmix.h"
#include "sizedtable.h"
#include "utf8text.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---------- hashing (same constants and definitions as the Lua kernel had;
 * the mixing step is splitmix.h's) ---------- */

#define SC_TAG_I 0x1f2e3d4c5b6a7988ULL
#define SC_TAG_F 0x2a3b4c5d6e7f8091ULL
#define SC_TAG_S 0x3c4d5e6f708192a3ULL
#define SC_TAG_T 0x4e5f60718293a4b5ULL
#define SC_TAG_K 0x5a6b7c8d9eafb0c1ULL

/* FNV-1a, as hash.c hashes strings: stable across runs, unlike Lua's seeded hash. */
static uint64_t sc_fnv(const char *s, size_t length) {
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < length; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t sc_term(uint64_t keyh, uint64_t valueh) { return rb_mix(keyh * RB_SPLITMIX_GAMMA + valueh); }

/* ---------- the core: one per Lua state ---------- */

typedef struct SCNode {
    uint64_t h;         /* wrapping sum of one term per slot */
    uint64_t c;         /* this node's term in its parent's sum; 0 when detached */
    uint64_t kh;        /* the hash of its key in the parent */
    struct SCNode *up;  /* the parent, or NULL; kept alive by the Lua field m.up */
    lua_Integer serial; /* creation order: verification skips younger nodes */
} SCNode;

/* A value a journal entry keeps: nil, a boolean (u.i), an integer, a
 * float, or (SC_JANCHOR) a string or table anchored in J at index u.i. */
enum { SC_JNIL, SC_JBOOL, SC_JINT, SC_JFLOAT, SC_JANCHOR };
typedef union SCWord { lua_Integer i; lua_Number f; const char *s; } SCWord;
typedef struct SCValue {
    int kind;
    SCWord u;
} SCValue;

#define SC_SHORTSTRING 40   /* LUAI_MAXSHORTLEN of a standard Lua 5.4 */

/* A key's kinds: an integer (key.i), a short string (key.s its bytes,
 * interned, so the address identifies it), a longer string. */
enum { SC_KINT, SC_KSHORT, SC_KLONG };

/* A journal entry, 40 bytes: slot `key` of `node` (its record anchored in
 * J at `record`, a string key at `kanchor`) held `old` (of SC_J* kind
 * `oldkind`); `anchors` is J's count of anchors before it. */
typedef struct SCEntry {
    SCNode *node;
    SCWord key, old;
    int32_t record, anchors, kanchor;
    unsigned char keykind, oldkind;
} SCEntry;

typedef struct SCCore {
    lua_Integer jn;     /* the journal's mark: three per entry */
    SCEntry *entries;   /* the journal: a block of the state's allocator (sc_reserve), freed by sc_free */
    lua_Integer cap;    /* entries the buffer holds */
    lua_Integer an;     /* anchors used in J */
    lua_Integer serial; /* nodes created so far */
    lua_Integer changes; /* slots changed so far (sc_put), never reset: seats.lua's marks are fresh while it stands */
    lua_Integer memo;   /* entries in the memo of long strings' hashes */
    size_t memo_bytes;  /* and the bytes of those strings */
    int writable;
} SCCore;

/* User values of the core's userdata: references C cannot hold otherwise. */
enum { SC_UV_J = 1, SC_UV_NIL, SC_UV_SLOW, SC_UV_SORT, SC_UV_PHASE, SC_UV_MEMO, SC_UV_CHARGE,
       SC_UV_PLAIN, SC_NUV = SC_UV_PLAIN };

/* Slots of a node record. */
enum { SC_M_NODE = 1, SC_M_B = 2, SC_M_KEYS = 3 };

/* Strings longer than this have their hash memoised: writing one huge string
 * over and over must not cost its length each time, outside the budget. */
#define SC_MEMO_MIN 64
#define SC_MEMO_MAX 65536
/* The memo keeps its strings alive (a string is never a weak key), and they
 * count against the game's memory cap: at most this many bytes of them. */
#define SC_MEMO_BYTES ((size_t)16 << 20)

/* Parent walks longer than this are charged to the instruction budget, as
 * they were when the walk ran in Lua. */
#define SC_FREE_DEPTH 32

/* Every function here is a closure whose only upvalue is the core. */
#define SC_COREINDEX lua_upvalueindex(1)

static SCCore *sc_core(lua_State *L) { return (SCCore *)lua_touserdata(L, SC_COREINDEX); }

static int sc_pushuv(lua_State *L, int n) { return lua_getiuservalue(L, SC_COREINDEX, n); }

static void sc_charge(lua_State *L, lua_Integer n) {
    if (sc_pushuv(L, SC_UV_CHARGE) != LUA_TFUNCTION) { lua_pop(L, 1); return; }
    lua_pushinteger(L, n);
    lua_call(L, 1, 0);   /* once the budget is spent, the hook raises at the next instruction */
}

/* The node of the record at index mi. */
static SCNode *sc_nodeat(lua_State *L, int mi) {
    lua_rawgeti(L, mi, SC_M_NODE);
    SCNode *node = (SCNode *)lua_touserdata(L, -1);
    lua_pop(L, 1);   /* the record keeps the userdata alive */
    if (node == NULL) luaL_error(L, "rulebench internal error: not a state node");
    return node;
}

/* The record and node of the state table (a proxy) at index i; pushes the record. */
static SCNode *sc_pushrecord(lua_State *L, int i) {
    if (!lua_getmetatable(L, i)) luaL_error(L, "rulebench internal error: not a state table");
    return sc_nodeat(L, lua_gettop(L));
}

static uint64_t sc_strh(lua_State *L, SCCore *core, int i) {
    size_t length;
    const char *s = lua_tolstring(L, i, &length);
    if (length <= SC_MEMO_MIN) return rb_mix(sc_fnv(s, length) ^ SC_TAG_S);
    i = lua_absindex(L, i);
    sc_pushuv(L, SC_UV_MEMO);
    lua_pushvalue(L, i);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        uint64_t h = (uint64_t)lua_tointeger(L, -1);
        lua_pop(L, 2);
        return h;
    }
    lua_pop(L, 1);
    uint64_t h = rb_mix(sc_fnv(s, length) ^ SC_TAG_S);
    if (core->memo >= SC_MEMO_MAX || core->memo_bytes + length > SC_MEMO_BYTES) {   /* bounded: start a fresh memo */
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, SC_COREINDEX, SC_UV_MEMO);
        core->memo = 0;
        core->memo_bytes = 0;
    }
    lua_pushvalue(L, i);
    lua_pushinteger(L, (lua_Integer)h);
    lua_rawset(L, -3);
    core->memo++;
    core->memo_bytes += length;
    lua_pop(L, 1);
    return h;
}

static uint64_t sc_keyh(lua_State *L, SCCore *core, int i) {
    if (lua_type(L, i) == LUA_TSTRING) return sc_strh(L, core, i);
    if (!lua_isinteger(L, i)) luaL_error(L, "rulebench internal error: a state key of type %s", luaL_typename(L, i));
    return rb_mix((uint64_t)lua_tointeger(L, i) ^ SC_TAG_K);
}

/* The hash of a non-nil scalar. */
static uint64_t sc_valueh(lua_State *L, SCCore *core, int i) {
    switch (lua_type(L, i)) {
    case LUA_TSTRING: return sc_strh(L, core, i);
    case LUA_TBOOLEAN: return rb_mix(lua_toboolean(L, i) ? 0x7a7a : 0x7b7b);
    case LUA_TNUMBER:
        if (lua_isinteger(L, i)) return rb_mix((uint64_t)lua_tointeger(L, i) ^ SC_TAG_I);
        double x = (double)lua_tonumber(L, i);
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        return rb_mix(bits ^ SC_TAG_F);
    default:
        return (uint64_t)luaL_error(L, "rulebench internal error: a %s in the state", luaL_typename(L, i));
    }
}

static uint64_t sc_nodeh(const SCNode *node) { return rb_mix(node->h ^ SC_TAG_T); }

/* A state value equals another when it is the same value of the same
 * number subtype: 1 and 1.0 hash differently, so they differ here too. */
static int sc_same(lua_State *L, int a, int b) {
    int ta = lua_type(L, a);
    if (ta != lua_type(L, b)) return 0;
    if (ta == LUA_TNUMBER) {
        int ia = lua_isinteger(L, a);
        if (ia != lua_isinteger(L, b)) return 0;
        return ia ? lua_tointeger(L, a) == lua_tointeger(L, b) : lua_tonumber(L, a) == lua_tonumber(L, b);
    }
    return lua_rawequal(L, a, b);
}

/* ---------- raw slot updates ---------- */

/* The record fields up/key exist from creation (false when detached), so
 * setting them never allocates and cannot fail halfway through a put. */
static void sc_link(lua_State *L, int cm, int mi, int ki) {
    lua_pushliteral(L, "up");
    if (mi) lua_pushvalue(L, mi); else lua_pushboolean(L, 0);
    lua_rawset(L, cm);
    lua_pushliteral(L, "key");
    if (ki) lua_pushvalue(L, ki); else lua_pushboolean(L, 0);
    lua_rawset(L, cm);
}

/* Detaches the state table at index vi from its parent; returns the term it had there. */
static uint64_t sc_detach(lua_State *L, int vi) {
    SCNode *child = sc_pushrecord(L, vi);
    uint64_t c = child->c;
    child->up = NULL;
    child->c = 0;
    sc_link(L, lua_gettop(L), 0, 0);
    lua_pop(L, 1);
    return c;
}

/* Attaches the state table at index vi as slot ki of the record mi; returns its term. */
static uint64_t sc_attach(lua_State *L, int mi, SCNode *node, int ki, uint64_t kh, int vi) {
    SCNode *child = sc_pushrecord(L, vi);
    uint64_t c = sc_term(kh, sc_nodeh(child));
    child->up = node;
    child->kh = kh;
    child->c = c;
    sc_link(L, lua_gettop(L), mi, ki);
    lua_pop(L, 1);
    return c;
}

/* Adds d to the node's sum and carries the change up to the root. */
static void sc_carry(lua_State *L, SCNode *node, uint64_t d) {
    lua_Integer depth = 0;
    node->h += d;
    for (; node->up != NULL; node = node->up, depth++) {
        uint64_t c = sc_term(node->kh, sc_nodeh(node));
        node->up->h += c - node->c;
        node->c = c;
    }
    if (depth > SC_FREE_DEPTH) sc_charge(L, depth - SC_FREE_DEPTH);
}

/* The only place a backing table changes: b[k] = v, keeping parent links and
 * hashes right. It neither checks nor journals. Indices: the record, its
 * backing table, the key, the value there now, the new value. */
static void sc_put(lua_State *L, SCCore *core, int mi, SCNode *node, int bi, int ki, int oi, int vi) {
    int ot = lua_type(L, oi), vt = lua_type(L, vi);
    uint64_t kh = sc_keyh(L, core, ki), d = 0;
    /* Scalars are hashed first: the memo may allocate, and nothing changed yet. */
    if (ot != LUA_TNIL && ot != LUA_TTABLE) d -= sc_term(kh, sc_valueh(L, core, oi));
    if (vt != LUA_TNIL && vt != LUA_TTABLE) d += sc_term(kh, sc_valueh(L, core, vi));
    lua_pushvalue(L, ki);
    lua_pushvalue(L, vi);
    lua_rawset(L, bi);   /* may raise (memory); then nothing has changed */
    core->changes++;
    if (ot == LUA_TTABLE) d -= sc_detach(L, oi);
    if (vt == LUA_TTABLE) d += sc_attach(L, mi, node, ki, kh, vi);
    if ((ot == LUA_TNIL) != (vt == LUA_TNIL)) {   /* the key set changed: pairs re-sorts */
        lua_pushboolean(L, 0);
        lua_rawseti(L, mi, SC_M_KEYS);
    }
    if (d != 0) sc_carry(L, node, d);
}

/* ---------- the journal ----------
 * An array of entries in C (grown by doubling), one per
 * write: the slot (node, key) and the value it held before. Integers,
 * floats, booleans and nil are kept in the entry; what the collector must
 * see (the record, a string key, a string or table value) is anchored in
 * the Lua table J, used as a stack: an entry's anchors are above the
 * previous entry's, so dropping entries from the end (rollback, truncate)
 * drops their anchors, and a run of entries of one record anchors it once.
 * Marks count three per entry, as when J held (record, key, old) triples. */

static SCEntry *sc_entry(SCCore *core, lua_Integer mark) { return &core->entries[mark / 3]; }

/* Room for one more entry: may raise (memory) before anything changed.
 * The buffer is the state's own allocator's block (counted against the
 * memory cap), grown in place where it can be: a userdata per size would
 * keep the old buffers alive until a collection, twice the memory. */
static void sc_reserve(lua_State *L, SCCore *core) {
    lua_Integer n = core->jn / 3;
    if (n < core->cap) return;
    lua_Integer cap = core->cap < 64 ? 64 : core->cap * 2;
    if (cap > INT32_MAX / 3) luaL_error(L, "not enough memory");
    void *ud;
    lua_Alloc alloc = lua_getallocf(L, &ud);
    SCEntry *grown = (SCEntry *)alloc(ud, core->entries, (size_t)core->cap * sizeof(SCEntry), (size_t)cap * sizeof(SCEntry));
    if (grown == NULL) luaL_error(L, "not enough memory");   /* the allocator noted the refusal */
    core->entries = grown;
    core->cap = cap;
}

/* __gc of the core: frees the journal's buffer. */
static int sc_free(lua_State *L) {
    SCCore *core = (SCCore *)lua_touserdata(L, 1);
    if (core->entries != NULL) {
        void *ud;
        lua_Alloc alloc = lua_getallocf(L, &ud);
        alloc(ud, core->entries, (size_t)core->cap * sizeof(SCEntry), 0);
        core->entries = NULL;
        core->cap = 0;
    }
    return 0;
}

/* Anchors the value at i in J (at ji); returns its index there. */
static int32_t sc_anchor(lua_State *L, SCCore *core, int ji, int i) {
    lua_pushvalue(L, i);
    lua_rawseti(L, ji, core->an + 1);   /* may raise (memory): then the count stays */
    return (int32_t)++core->an;
}

/* Reads the value at i into v, anchoring a string or a table. */
static void sc_jvalue(lua_State *L, SCCore *core, int ji, int i, SCValue *v) {
    switch (lua_type(L, i)) {
    case LUA_TNIL: v->kind = SC_JNIL; break;
    case LUA_TBOOLEAN: v->kind = SC_JBOOL; v->u.i = lua_toboolean(L, i); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, i)) { v->kind = SC_JINT; v->u.i = lua_tointeger(L, i); }
        else { v->kind = SC_JFLOAT; v->u.f = lua_tonumber(L, i); }
        break;
    default: v->kind = SC_JANCHOR; v->u.i = sc_anchor(L, core, ji, i); break;
    }
}

/* Pushes the value of kind `kind` in u (nil for an absent one). */
static void sc_pushjv(lua_State *L, int ji, int kind, SCWord u) {
    switch (kind) {
    case SC_JNIL: lua_pushnil(L); break;
    case SC_JBOOL: lua_pushboolean(L, (int)u.i); break;
    case SC_JINT: lua_pushinteger(L, u.i); break;
    case SC_JFLOAT: lua_pushnumber(L, u.f); break;
    default: lua_rawgeti(L, ji, u.i); break;
    }
}

/* Pushes the key of entry e. */
static void sc_pushkey(lua_State *L, int ji, const SCEntry *e) {
    if (e->keykind == SC_KINT) lua_pushinteger(L, e->key.i);
    else lua_rawgeti(L, ji, e->kanchor);
}

/* Starts entry *e of slot (node, its record at mi) for sc_jclose: room
 * for it (may raise before anything changed), the record anchored unless
 * the entry before it is of the same node. J is at ji. */
static void sc_jopen(lua_State *L, SCCore *core, int ji, int mi, SCNode *node, SCEntry *e) {
    sc_reserve(L, core);
    lua_Integer n = core->jn / 3;
    e->anchors = (int32_t)core->an;
    e->node = node;
    if (n > 0 && core->entries[n - 1].node == node) e->record = core->entries[n - 1].record;
    else e->record = sc_anchor(L, core, ji, mi);
}

static void sc_jclose(SCCore *core, const SCEntry *e) {
    core->entries[core->jn / 3] = *e;
    core->jn += 3;
}

/* Appends (record, key, old) to the journal, for the record at mi (its
 * node `node`), the key at ki and the old value at oi. */
static void sc_journal(lua_State *L, SCCore *core, int mi, SCNode *node, int ki, int oi) {
    sc_pushuv(L, SC_UV_J);
    int ji = lua_gettop(L);
    SCEntry e;
    SCValue old;
    sc_jopen(L, core, ji, mi, node, &e);
    if (lua_type(L, ki) == LUA_TSTRING) {
        size_t length;
        e.key.s = lua_tolstring(L, ki, &length);
        e.keykind = length > SC_SHORTSTRING ? SC_KLONG : SC_KSHORT;
        e.kanchor = sc_anchor(L, core, ji, ki);
    } else {
        e.key.i = lua_tointeger(L, ki);
        e.keykind = SC_KINT;
        e.kanchor = 0;
    }
    sc_jvalue(L, core, ji, oi, &old);
    e.oldkind = (unsigned char)old.kind;
    e.old = old.u;
    sc_jclose(core, &e);
    lua_pop(L, 1);
}

/* Drops the entries after mark `to` and their anchors, newest first
 * (nil-ing an array slot J has never allocates). J is at ji. */
static void sc_drop(lua_State *L, SCCore *core, int ji, lua_Integer to) {
    if (core->jn <= to) return;
    lua_Integer keep = sc_entry(core, to)->anchors;
    for (lua_Integer a = core->an; a > keep; a--) {
        lua_pushnil(L);
        lua_rawseti(L, ji, a);
    }
    core->an = keep;
    core->jn = to;
}

/* Pushes the entry at mark s: record, key, old value (nil for an absent one). */
static void sc_pushentry(lua_State *L, SCCore *core, int ji, lua_Integer s) {
    SCEntry *e = sc_entry(core, s);
    lua_rawgeti(L, ji, e->record);
    sc_pushkey(L, ji, e);
    sc_pushjv(L, ji, e->oldkind, e->old);   /* pushing never grows the buffer: e stays valid */
}

/* Journals and performs record[k] = v, for values at mi, ki, vi. */
static void sc_journalput(lua_State *L, SCCore *core, int mi, int ki, int vi) {
    SCNode *node = sc_nodeat(L, mi);
    int top = lua_gettop(L);
    lua_rawgeti(L, mi, SC_M_B);
    lua_pushvalue(L, ki);
    lua_rawget(L, top + 1);
    sc_journal(L, core, mi, node, ki, top + 2);
    sc_put(L, core, mi, node, top + 1, ki, top + 2, vi);
    lua_settop(L, top);
}

/* ---------- the write barrier ---------- */

/* The cases handled here: a string or integer key, and a nil, boolean,
 * string, integer or finite float value (-0.0 becomes 0.0, as both must
 * hash alike). Anything else goes to state.lua's write, which adopts
 * tables and raises every error with the rule's file and line. */
static int sc_scalar(lua_State *L, int i) {
    switch (lua_type(L, i)) {
    case LUA_TNIL: case LUA_TBOOLEAN: case LUA_TSTRING: return 1;
    case LUA_TNUMBER: {
        if (lua_isinteger(L, i)) return 1;
        lua_Number x = lua_tonumber(L, i);
        if (x != x || isinf(x)) return 0;
        if (x == 0) { lua_pushnumber(L, 0.0); lua_replace(L, i); }
        return 1;
    }
    default: return 0;
    }
}

static int sc_slowwrite(lua_State *L) {
    lua_settop(L, 3);
    sc_pushuv(L, SC_UV_SLOW);
    lua_insert(L, 1);
    lua_call(L, 3, 0);
    return 0;
}

static int sc_write(lua_State *L);

/* Whether the value at i is a state table (a proxy whose __newindex is the barrier). */
static int sc_isproxy(lua_State *L, int i) {
    if (lua_type(L, i) != LUA_TTABLE || !lua_getmetatable(L, i)) return 0;
    lua_pushliteral(L, "__newindex");
    int proxy = lua_rawget(L, -2) == LUA_TFUNCTION && lua_tocfunction(L, -1) == sc_write;
    lua_pop(L, 2);
    return proxy;
}

/* proxy[k] = v where v is a state table already (a card to a pile, a piece
 * to a square): the move state.lua's adopt makes, for the common case of a
 * move no deeper than where the table was. Returns 0, having changed
 * nothing, for everything else (a cycle, a deeper move, which needs a walk
 * of the moved subtree), which state.lua's write then handles and words. */
static int sc_move(lua_State *L, SCCore *core) {
    SCNode *node = sc_pushrecord(L, 1);                      /* 4: the target's record */
    lua_rawgeti(L, 4, SC_M_B);                               /* 5 */
    lua_pushvalue(L, 2);
    lua_rawget(L, 5);                                        /* 6: the old value */
    if (lua_rawequal(L, 6, 3)) return 1;                     /* already there */
    SCNode *child = sc_pushrecord(L, 3);                     /* 7 */
    lua_Integer above = 0, was = 0;
    for (SCNode *n = node; n != NULL; n = n->up, above++)
        if (n == child) return 0;                            /* inside itself */
    for (SCNode *n = child->up; n != NULL; n = n->up) was++;
    if (above > was) return 0;
    if (above + was > SC_FREE_DEPTH) sc_charge(L, above + was - SC_FREE_DEPTH);
    if (child->up != NULL) {                                 /* its old slot empties */
        lua_pushliteral(L, "up");
        lua_rawget(L, 7);                                    /* 8 */
        lua_pushliteral(L, "key");
        lua_rawget(L, 7);                                    /* 9 */
        lua_pushnil(L);                                      /* 10 */
        sc_journalput(L, core, 8, 9, 10);
        lua_settop(L, 7);
        lua_pushvalue(L, 2);
        lua_rawget(L, 5);
        lua_replace(L, 6);                                   /* the slot, after the move out */
    }
    sc_journal(L, core, 4, node, 2, 6);
    sc_put(L, core, 4, node, 5, 2, 6, 3);
    return 1;
}

/* __newindex(proxy, k, v) of every state table. */
static int sc_write(lua_State *L) {
    SCCore *core = sc_core(L);
    int kt = lua_type(L, 2);
    if (!core->writable || !(kt == LUA_TSTRING || lua_isinteger(L, 2))) return sc_slowwrite(L);
    if (sc_isproxy(L, 3)) {
        lua_settop(L, 3);
        if (sc_move(L, core)) return 0;
        return sc_slowwrite(L);
    }
    if (!sc_scalar(L, 3)) return sc_slowwrite(L);
    lua_settop(L, 3);
    SCNode *node = sc_pushrecord(L, 1);   /* 4 */
    lua_rawgeti(L, 4, SC_M_B);           /* 5 */
    lua_pushvalue(L, 2);
    lua_rawget(L, 5);                    /* 6: the old value */
    if (sc_same(L, 6, 3)) return 0;
    sc_journal(L, core, 4, node, 2, 6);
    sc_put(L, core, 4, node, 5, 2, 6, 3);
    return 0;
}

/* __len(proxy): the border of the backing table. */
static int sc_len(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return luaL_error(L, "rulebench internal error: not a state table");
    lua_rawgeti(L, -1, SC_M_B);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* The iterator of __pairs: upvalues are the sorted keys, the backing table
 * and the position. Keys whose slot became nil during the loop are skipped. */
static int sc_next(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    for (;;) {
        if (lua_rawgeti(L, lua_upvalueindex(1), ++i) == LUA_TNIL) return 0;
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) break;
        lua_pop(L, 2);
    }
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(3));
    return 2;
}

/* __pairs(proxy): the slots in sorted key order, so that the order rules
 * see never depends on Lua's per-process string hash seed. The sorted keys
 * are cached in m[3] until the key set changes (sc_put clears them). */
static int sc_pairs(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return luaL_error(L, "rulebench internal error: not a state table");
    int mi = lua_gettop(L);
    if (lua_rawgeti(L, mi, SC_M_KEYS) != LUA_TTABLE) {
        lua_pop(L, 1);
        sc_pushuv(L, SC_UV_SORT);
        lua_rawgeti(L, mi, SC_M_B);
        lua_call(L, 1, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, mi, SC_M_KEYS);
    }
    lua_rawgeti(L, mi, SC_M_B);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, sc_next, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* ---------- table.insert / table.remove on a state table ----------
 * The library's tinsert and tremove move each element with lua_geti and
 * lua_seti, and every lua_seti on a proxy is a metamethod call into the
 * barrier: about 1,900 instructions an element, most of a desert step's
 * writes. rb_state_shift (workcost.c calls it, after charging the call)
 * does the same writes in the same order against the backing table, each
 * one exactly what sc_write does for it: the same journal entry, the same
 * put, the same hash carried up. An element the barrier would not handle
 * on its own as a plain scalar (a state table, a long string, a float zero)
 * takes the barrier itself through lua_seti, as the library does, and so
 * does the value inserted. Whatever is unusual about the call (not a state
 * table, read-only, a bad position, a table deeper than a free parent
 * walk) is left to the library function, whose errors stay its own. */

/* A scalar the shift handles, read once: its kind (a Lua type, or
 * SC_FLOAT for a float), its bits (an integer's, a float's, a boolean),
 * a string's bytes, and its hash as the barrier computes it. */
enum { SC_FLOAT = LUA_NUMTYPES + 1 };
typedef struct SCScalar {
    int kind;
    uint64_t bits;
    const char *s;
    size_t length;
    uint64_t h;
} SCScalar;

typedef struct SCShift {
    SCCore *core;
    SCNode *node;
    int mi, bi, ji;         /* the record, its backing table, J */
    int known;              /* whether `next` is the value the next element finds in its slot */
    SCScalar next;
} SCShift;

/* Whether the value at i is one the barrier writes without help and the
 * shift may hash here (nil, a boolean, an integer, a finite nonzero float,
 * a string not memoised); read into *v. */
static int sc_shiftable(lua_State *L, int i, SCScalar *v) {
    v->kind = lua_type(L, i);
    switch (v->kind) {
    case LUA_TNIL: v->h = 0; return 1;
    case LUA_TBOOLEAN:
        v->bits = (uint64_t)lua_toboolean(L, i);
        v->h = rb_mix(v->bits ? 0x7a7a : 0x7b7b);
        return 1;
    case LUA_TNUMBER: {
        if (lua_isinteger(L, i)) {
            v->bits = (uint64_t)lua_tointeger(L, i);
            v->h = rb_mix(v->bits ^ SC_TAG_I);
            return 1;
        }
        double x = (double)lua_tonumber(L, i);
        if (x != x || isinf(x) || x == 0) return 0;
        memcpy(&v->bits, &x, sizeof v->bits);   /* nonzero and not NaN: equal bits, equal floats */
        v->kind = SC_FLOAT;
        v->h = rb_mix(v->bits ^ SC_TAG_F);
        return 1;
    }
    case LUA_TSTRING:
        v->s = lua_tolstring(L, i, &v->length);
        if (v->length > SC_MEMO_MIN) return 0;
        v->h = rb_mix(sc_fnv(v->s, v->length) ^ SC_TAG_S);
        return 1;
    default: return 0;
    }
}

/* sc_same for two scalars the shift read. */
static int sc_scalarsame(const SCScalar *a, const SCScalar *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case LUA_TNIL: return 1;
    case LUA_TSTRING: return a->length == b->length && (a->s == b->s || memcmp(a->s, b->s, a->length) == 0);
    default: return a->bits == b->bits;
    }
}

/* sc_journal's entry for slot k, whose old value o (at oi) the shift read. */
static void sc_shiftjournal(lua_State *L, SCShift *s, lua_Integer k, const SCScalar *o, int oi) {
    SCEntry e;
    sc_jopen(L, s->core, s->ji, s->mi, s->node, &e);
    e.key.i = k;
    e.keykind = SC_KINT;
    e.kanchor = 0;
    switch (o->kind) {
    case LUA_TNIL: e.oldkind = SC_JNIL; break;
    case LUA_TBOOLEAN: e.oldkind = SC_JBOOL; e.old.i = (lua_Integer)o->bits; break;
    case LUA_TNUMBER: e.oldkind = SC_JINT; e.old.i = (lua_Integer)o->bits; break;
    case SC_FLOAT: e.oldkind = SC_JFLOAT; memcpy(&e.old.f, &o->bits, sizeof e.old.f); break;
    default: e.oldkind = SC_JANCHOR; e.old.i = sc_anchor(L, s->core, s->ji, oi); break;
    }
    sc_jclose(s->core, &e);
}

/* t[k] = the value at vi, as sc_write does it (sc_journal, then sc_put). */
static void sc_shiftput(lua_State *L, SCShift *s, lua_Integer k, int vi) {
    SCScalar o, v;
    lua_rawgeti(L, s->bi, k);                                 /* the value there now */
    int oi = lua_gettop(L);
    int known = s->known;
    s->known = 0;
    if (!s->core->writable || !sc_shiftable(L, vi, &v)) goto barrier;
    if (known) o = s->next;
    else if (!sc_shiftable(L, oi, &o)) goto barrier;
    s->known = 1;                                             /* the next element finds this value */
    s->next = v;
    if (sc_scalarsame(&o, &v)) { lua_settop(L, oi - 1); return; }
    SCCore *core = s->core;
    sc_shiftjournal(L, s, k, &o, oi);
    uint64_t kh = rb_mix((uint64_t)k ^ SC_TAG_K), d = 0;      /* sc_put */
    if (o.kind != LUA_TNIL) d -= sc_term(kh, o.h);
    if (v.kind != LUA_TNIL) d += sc_term(kh, v.h);
    lua_pushvalue(L, vi);
    lua_rawseti(L, s->bi, k);
    core->changes++;
    if ((o.kind == LUA_TNIL) != (v.kind == LUA_TNIL)) {
        lua_pushboolean(L, 0);
        lua_rawseti(L, s->mi, SC_M_KEYS);
    }
    if (d != 0) sc_carry(L, s->node, d);                      /* never charges: the depth was checked */
    lua_settop(L, oi - 1);
    return;
barrier:
    lua_settop(L, oi - 1);
    lua_pushvalue(L, vi);
    lua_seti(L, 1, k);                                        /* the barrier itself (the proxy is at 1) */
}

/* Sets up s for the state table at index 1, pushing its record, its
 * barrier and core, its backing table and the journal's anchors; 0
 * (and nothing pushed) when the shift is not one to do here. */
static int sc_shiftbegin(lua_State *L, SCShift *s) {
    int top = lua_gettop(L);
    if (lua_type(L, 1) != LUA_TTABLE || !lua_checkstack(L, 16) || !lua_getmetatable(L, 1)) return 0;
    s->mi = top + 1;
    lua_pushliteral(L, "__newindex");
    if (lua_rawget(L, s->mi) != LUA_TFUNCTION || lua_tocfunction(L, top + 2) != sc_write ||
        lua_getupvalue(L, top + 2, 1) == NULL) {                /* top + 3: the core */
        lua_settop(L, top);
        return 0;
    }
    s->core = (SCCore *)lua_touserdata(L, top + 3);
    lua_rawgeti(L, s->mi, SC_M_NODE);
    s->node = (SCNode *)lua_touserdata(L, top + 4);
    lua_settop(L, top + 3);                                     /* the record keeps the node alive */
    lua_Integer depth = 0;
    if (s->node != NULL)
        for (const SCNode *n = s->node; n->up != NULL; n = n->up) depth++;
    /* A walk up more parents than SC_FREE_DEPTH is charged, by the barrier. */
    if (s->core == NULL || s->node == NULL || !s->core->writable || depth > SC_FREE_DEPTH) {
        lua_settop(L, top);
        return 0;
    }
    lua_rawgeti(L, s->mi, SC_M_B);
    s->bi = top + 4;
    lua_getiuservalue(L, top + 3, SC_UV_J);
    s->ji = top + 5;
    s->known = 0;
    return 1;
}

/* table.insert(t, pos, v) on a state table: t[i] = t[i - 1] from the end
 * down to pos, then t[pos] = v, as ltablib.c's tinsert. */
static int sc_shiftinsert(lua_State *L, SCShift *s, int top) {
    lua_Integer e = (lua_Integer)((lua_Unsigned)lua_rawlen(L, s->bi) + 1u), pos;
    int isnum;
    if (top != 3) return -1;   /* the library's error */
    pos = lua_tointegerx(L, 2, &isnum);
    if (!isnum || (lua_Unsigned)pos - 1u >= (lua_Unsigned)e) return -1;
    for (lua_Integer i = e; i > pos; i--) {
        lua_rawgeti(L, s->bi, i - 1);
        sc_shiftput(L, s, i, lua_gettop(L));
        lua_pop(L, 1);
    }
    lua_pushvalue(L, 3);
    lua_seti(L, 1, pos);   /* the value inserted: the barrier itself */
    lua_settop(L, top);
    return 0;
}

/* table.remove(t [, pos]) on a state table: the value at pos, then t[pos] =
 * t[pos + 1] up to the end, then the last slot emptied, as ltablib.c's tremove. */
static int sc_shiftremove(lua_State *L, SCShift *s, int top) {
    lua_Integer size = (lua_Integer)lua_rawlen(L, s->bi), pos = size;
    if (top >= 2 && !lua_isnoneornil(L, 2)) {
        int isnum;
        pos = lua_tointegerx(L, 2, &isnum);
        if (!isnum) return -1;
    }
    if (pos != size && (lua_Unsigned)pos - 1u > (lua_Unsigned)size) return -1;   /* the library's error */
    lua_rawgeti(L, s->bi, pos);   /* the result */
    int ri = lua_gettop(L);
    for (; pos < size; pos++) {
        lua_rawgeti(L, s->bi, pos + 1);
        sc_shiftput(L, s, pos, lua_gettop(L));
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    sc_shiftput(L, s, pos, lua_gettop(L));
    lua_settop(L, ri);
    return 1;
}

int rb_state_shift(lua_State *L, int insert) {
    int top = lua_gettop(L);
    SCShift s;
    if (insert && top == 2) return -1;   /* an append moves nothing: the library's one write */
    if (!sc_shiftbegin(L, &s)) return -1;
    int results = insert ? sc_shiftinsert(L, &s, top) : sc_shiftremove(L, &s, top);
    if (results < 0) lua_settop(L, top);
    return results;
}

/* ---------- functions for state.lua ---------- */

/* init(J, NIL, write, sortedkeys, plain): the journal's anchor table, the
 * absent-value sentinel, state.lua's own barrier for the cases C hands
 * over, the kernel's key order, and state.lua's deep copy (which raises the
 * error for a value nested too deeply, with the rule's line). */
static int sc_init(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    luaL_checktype(L, 4, LUA_TFUNCTION);
    luaL_checktype(L, 5, LUA_TFUNCTION);
    for (int i = 1; i <= 4; i++) {
        lua_pushvalue(L, i);
        lua_setiuservalue(L, SC_COREINDEX, SC_UV_J + i - 1);
    }
    lua_pushvalue(L, 5);
    lua_setiuservalue(L, SC_COREINDEX, SC_UV_PLAIN);
    return 0;
}

/* ---------- plain copies ---------- */

/* Pushes the table to read for the table at i: its backing table when it is
 * a state proxy (whose __newindex is sc_write, which no rule can reach),
 * else the table itself. */
static void sc_pushcontents(lua_State *L, int i) {
    if (lua_getmetatable(L, i)) {
        int mt = lua_gettop(L);
        lua_pushliteral(L, "__newindex");
        lua_rawget(L, mt);
        int proxy = lua_tocfunction(L, -1) == sc_write;
        lua_pop(L, 1);
        if (proxy) {
            lua_rawgeti(L, mt, SC_M_B);
            lua_remove(L, mt);
            return;
        }
        lua_pop(L, 1);
    }
    lua_pushvalue(L, i);
}

/* Whether the string at i is UTF-8 text; when not, pushes a description
 * of the first bad byte. */
static int sc_text(lua_State *L, int i) {
    size_t length;
    const char *s = lua_tolstring(L, i, &length);
    size_t bad = rb_badutf8((const unsigned char *)s, length);
    if (bad == 0) return 1;
    char text[64];   /* lua_pushfstring has no %02X */
    snprintf(text, sizeof text, "byte 0x%02X at position %zu", (unsigned)(unsigned char)s[bad - 1], bad);
    lua_pushstring(L, text);
    return 0;
}

/* Whether the value at i can leave the kernel as data (JSON text, read
 * back exactly): a string that is UTF-8 text, an integer, a finite float,
 * a boolean or a table (its contents are checked as it is copied); as a
 * key (`key` SC_KEY), only a string or an integer (a float key is never
 * integral: Lua turns 2.0 into 2); as a name (SC_NAME: a param's), only a
 * string. When not, pushes what it is, as a message says it. */
enum { SC_VALUE = 0, SC_KEY = 1, SC_NAME = 2 };
static int sc_carried(lua_State *L, int i, int key) {
    switch (lua_type(L, i)) {
    case LUA_TNIL: return 1;     /* textcopy(nil); never a key or a table's value */
    case LUA_TSTRING: return sc_text(L, i);
    case LUA_TNUMBER:
        if (lua_isinteger(L, i) && key != SC_NAME) return 1;
        if (lua_isinteger(L, i)) {
            lua_pushfstring(L, "the position %I", (LUAI_UACINT)lua_tointeger(L, i));
            return 0;
        }
        lua_Number x = lua_tonumber(L, i);
        if (!key && isfinite(x)) return 1;
        if (x != x) lua_pushliteral(L, "NaN");
        else if (isinf(x)) lua_pushstring(L, x > 0 ? "an infinite number (inf)" : "an infinite number (-inf)");
        else lua_pushfstring(L, "a float key (%f)", x);   /* not lua_tostring: it would turn the key itself into a string */
        return 0;
    case LUA_TBOOLEAN:
        if (!key) return 1;
        lua_pushstring(L, lua_toboolean(L, i) ? "a boolean key (true)" : "a boolean key (false)");
        return 0;
    case LUA_TTABLE:
        if (!key) return 1;
        /* fall through */
    default:
        lua_pushfstring(L, key ? "a %s key" : "a %s", luaL_typename(L, i));
        return 0;
    }
}

/* How sc_copytop ended. */
enum { SC_COPY_DEEP = 0, SC_COPY_OK = 1, SC_COPY_NOTTEXT = 2 };

/* Replaces the table at the top by a plain deep copy. Returns SC_COPY_DEEP
 * when the value is nested more than 200 levels (or has a cycle). With
 * `text`, a key or value that JSON text cannot carry (sc_carried: a string
 * that is not UTF-8, NaN, an infinity, a function, a boolean key...) stops
 * the copy (SC_COPY_NOTTEXT) with the offending value and a description
 * pushed; with `text` SC_NAME, the top level's keys must be strings. */
static int sc_copytop(lua_State *L, int depth, int text) {
    if (depth > 200 || !lua_checkstack(L, 8)) return SC_COPY_DEEP;
    int source = lua_gettop(L);
    sc_pushcontents(L, source);
    int from = lua_gettop(L);
    rb_sizedtable(L, from);
    int to = from + 1;
    lua_pushnil(L);
    while (lua_next(L, from)) {
        if (lua_type(L, -1) == LUA_TTABLE) {
            int status = sc_copytop(L, depth + 1, text);
            if (status != SC_COPY_OK) return status;
        } else if (text && !sc_carried(L, lua_gettop(L), SC_VALUE)) {
            return SC_COPY_NOTTEXT;
        }
        if (text && !sc_carried(L, lua_gettop(L) - 1, depth == 0 && text == SC_NAME ? SC_NAME : SC_KEY)) {
            lua_pushvalue(L, -3);   /* the key, then its description */
            lua_insert(L, -2);
            return SC_COPY_NOTTEXT;
        }
        lua_pushvalue(L, -2);    /* the key */
        lua_insert(L, -2);       /* key, key, value */
        lua_rawset(L, to);
    }
    lua_replace(L, source);      /* the copy takes the original's slot */
    lua_settop(L, source);
    return SC_COPY_OK;
}

/* Raises state.lua's error for a value nested too deeply, at the rule's line. */
static int sc_toodeep(lua_State *L) {
    lua_settop(L, 1);
    sc_pushuv(L, SC_UV_PLAIN);
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

/* plain(v): a plain deep copy of v, state tables read through their backing
 * tables; v itself when it is not a table. */
static int sc_plain(lua_State *L) {
    lua_settop(L, 1);
    if (lua_type(L, 1) != LUA_TTABLE) return 1;
    lua_pushvalue(L, 1);
    if (sc_copytop(L, 0, 0) == SC_COPY_OK) return 1;
    return sc_toodeep(L);
}

/* textcopy(v, named): plain(v) for values that leave the kernel as data
 * (the params `emit` records, which histories and findings save as JSON
 * text): the copy, or nil, the first key or value JSON cannot carry (a
 * string that is not UTF-8, NaN, ...) and a description of it
 * (sc_carried). With `named`, v's own keys must be strings (param names). */
static int sc_textcopy(lua_State *L) {
    int named = lua_toboolean(L, 2);
    lua_settop(L, 1);
    if (lua_type(L, 1) != LUA_TTABLE) {
        if (sc_carried(L, 1, 0)) return 1;
        lua_pushnil(L);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -3);
        return 3;
    }
    lua_pushvalue(L, 1);
    int status = sc_copytop(L, 0, named ? SC_NAME : SC_KEY);
    if (status == SC_COPY_OK) return 1;
    if (status == SC_COPY_DEEP) return sc_toodeep(L);
    lua_pushnil(L);
    lua_insert(L, -3);           /* nil, the value, the description */
    return 3;
}

/* newnode(m): gives the record m (m[2] = its backing table, already
 * converted) its node: the hash of its slots, with every table in it
 * attached. Returns the node's serial number. */
static int sc_newnode(lua_State *L) {
    SCCore *core = sc_core(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_rawgeti(L, 1, SC_M_B);   /* 2 */
    luaL_checktype(L, 2, LUA_TTABLE);
    SCNode *node = (SCNode *)lua_newuserdatauv(L, sizeof *node, 0);
    memset(node, 0, sizeof *node);
    node->serial = ++core->serial;
    lua_rawseti(L, 1, SC_M_NODE);
    uint64_t h = 0;
    lua_pushnil(L);
    while (lua_next(L, 2)) {   /* key at 3, value at 4 */
        uint64_t kh = sc_keyh(L, core, 3);
        if (lua_type(L, 4) == LUA_TTABLE) h += sc_attach(L, 1, node, 3, kh, 4);
        else h += sc_term(kh, sc_valueh(L, core, 4));
        lua_pop(L, 1);
    }
    node->h = h;
    lua_pushinteger(L, node->serial);
    return 1;
}

/* jput(m, k, v): journals and performs the write (k normalised, v checked or adopted). */
static int sc_jput(lua_State *L) {
    lua_settop(L, 3);
    luaL_checktype(L, 1, LUA_TTABLE);
    sc_journalput(L, sc_core(L), 1, 2, 3);
    return 0;
}

static int sc_setwritable(lua_State *L) {
    sc_core(L)->writable = lua_toboolean(L, 1);
    if (lua_toboolean(L, 2)) {
        lua_settop(L, 2);
        lua_setiuservalue(L, SC_COREINDEX, SC_UV_PHASE);
    }
    return 0;
}

static int sc_writable(lua_State *L) {
    lua_pushboolean(L, sc_core(L)->writable);
    return 1;
}

static int sc_phase(lua_State *L) {
    sc_pushuv(L, SC_UV_PHASE);
    return 1;
}

static int sc_mark(lua_State *L) {
    lua_pushinteger(L, sc_core(L)->jn);
    return 1;
}

static int sc_changes(lua_State *L) {
    lua_pushinteger(L, sc_core(L)->changes);
    return 1;
}

static int sc_serial(lua_State *L) {
    lua_pushinteger(L, sc_core(L)->serial);
    return 1;
}

/* rollback(to): undoes every write after `to`, newest first. Exact by
 * construction. The journal drops entry by entry, so an error halfway
 * (memory) leaves a journal that still matches the state. */
static int sc_rollback(lua_State *L) {
    SCCore *core = sc_core(L);
    lua_Integer to = luaL_checkinteger(L, 1);
    lua_settop(L, 1);
    sc_pushuv(L, SC_UV_J);     /* 2 */
    while (core->jn > to) {
        lua_Integer s = core->jn - 3;
        sc_pushentry(L, core, 2, s);              /* 3 4 5 */
        SCNode *node = sc_entry(core, s)->node;
        lua_rawgeti(L, 3, SC_M_B);                /* 6 */
        lua_pushvalue(L, 4);
        lua_rawget(L, 6);                         /* 7 */
        sc_put(L, core, 3, node, 6, 4, 7, 5);
        sc_drop(L, core, 2, s);
        lua_settop(L, 2);
    }
    return 0;
}

/* revert(from, to): writes back the old values of the entries in [from, to),
 * newest first, as new journal entries, so that the caller can still roll
 * the whole operation back. Used for undo-by-journal and for repairs. */
static int sc_revert(lua_State *L) {
    SCCore *core = sc_core(L);
    lua_Integer from = luaL_checkinteger(L, 1), to = luaL_checkinteger(L, 2);
    lua_settop(L, 2);
    sc_pushuv(L, SC_UV_J);     /* 3 */
    for (lua_Integer s = to - 3; s >= from; s -= 3) {
        sc_pushentry(L, core, 3, s);   /* 4 5 6 */
        sc_journalput(L, core, 4, 5, 6);
        lua_settop(L, 3);
    }
    return 0;
}

/* truncate(to): forgets the entries after `to` without undoing them. */
static int sc_truncate(lua_State *L) {
    SCCore *core = sc_core(L);
    lua_Integer to = luaL_checkinteger(L, 1);
    sc_pushuv(L, SC_UV_J);
    sc_drop(L, core, lua_gettop(L), to);
    return 0;
}

/* entry(s): the journal entry at mark s (s < mark(), a multiple of three):
 * its record, key and old value (the NIL sentinel for an absent one). */
static int sc_entryat(lua_State *L) {
    SCCore *core = sc_core(L);
    lua_Integer s = luaL_checkinteger(L, 1);
    luaL_argcheck(L, s >= 0 && s % 3 == 0 && s < core->jn, 1, "not a journal entry");
    lua_settop(L, 1);
    sc_pushuv(L, SC_UV_J);   /* 2 */
    sc_pushentry(L, core, 2, s);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        sc_pushuv(L, SC_UV_NIL);
    }
    return 3;
}

/* written(from): the slots written since mark `from`, each with its value
 * then (the first entry of each slot; the NIL sentinel for an absent one):
 * node record -> { key -> old value }. */
static int sc_written(lua_State *L) {
    SCCore *core = sc_core(L);
    lua_Integer from = luaL_checkinteger(L, 1);
    lua_settop(L, 1);
    sc_pushuv(L, SC_UV_J);     /* 2 */
    sc_pushuv(L, SC_UV_NIL);   /* 3 */
    lua_newtable(L);           /* 4 */
    for (lua_Integer s = from < 0 ? 0 : from; s <= core->jn - 3; s += 3) {
        sc_pushentry(L, core, 2, s);             /* 5 6 7: record, key, old */
        if (lua_isnil(L, 7)) {
            lua_pushvalue(L, 3);
            lua_replace(L, 7);
        }
        lua_pushvalue(L, 5);
        if (lua_rawget(L, 4) != LUA_TTABLE) {    /* 8: the record's slots */
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, 5);
            lua_pushvalue(L, 8);
            lua_rawset(L, 4);
        }
        lua_pushvalue(L, 6);
        if (lua_rawget(L, 8) == LUA_TNIL) {
            lua_pushvalue(L, 6);
            lua_pushvalue(L, 7);
            lua_rawset(L, 8);
        }
        lua_settop(L, 4);
    }
    return 1;
}

/* forgetmemo(): drops the memo of long strings' hashes. Its keys are the
 * strings themselves (a string is never a weak key), so it would keep up to
 * SC_MEMO_MAX strings of a finished game alive: a new game's setup then
 * found the old state's long strings still counted against the memory cap. */
static int sc_forgetmemo(lua_State *L) {
    lua_newtable(L);
    lua_setiuservalue(L, SC_COREINDEX, SC_UV_MEMO);
    sc_core(L)->memo = 0;
    sc_core(L)->memo_bytes = 0;
    return 0;
}

/* ---------- verification, the fast pass ---------- */

/* A slot seen by the scan: a node and a key. Short strings are interned, so
 * their address identifies them; a longer key sends the scan to Lua. */
typedef struct SCSlot {
    const SCNode *node;
    uint64_t key;
    int kind;   /* 0: empty, 1: integer key, 2: string key */
} SCSlot;

#define SC_VERIFY_MAX 8192  /* entries; past that, Lua's scan does the work */
#define SC_STACK_SLOTS 256

typedef struct SCScan {
    SCCore *core;
    SCSlot *slots;
    size_t mask;
    lua_Integer serial0;
    int ji;   /* the journal's anchors */
} SCScan;

/* Returns 1 when the slot of entry e was seen before, 0 when it is new (and
 * records it), -1 when the key cannot be identified here. */
static int sc_seen(SCScan *scan, const SCEntry *e) {
    SCSlot slot = {e->node, (uint64_t)e->key.i, 1};
    if (e->keykind == SC_KLONG) return -1;
    if (e->keykind == SC_KSHORT) {
        slot.key = (uint64_t)(uintptr_t)e->key.s;
        slot.kind = 2;
    }
    size_t i = (size_t)rb_mix((uint64_t)(uintptr_t)slot.node * RB_SPLITMIX_GAMMA + slot.key + (uint64_t)slot.kind) & scan->mask;
    for (;; i = (i + 1) & scan->mask) {
        SCSlot *here = &scan->slots[i];
        if (here->kind == 0) { *here = slot; return 0; }
        if (here->node == slot.node && here->key == slot.key && here->kind == slot.kind) return 1;
    }
}

/* sc_same for the value at i and the journal's value v (J at ji). */
static int sc_jsame(lua_State *L, int ji, int kind, SCWord u, int i) {
    switch (kind) {
    case SC_JNIL: return lua_isnil(L, i);
    case SC_JBOOL: return lua_type(L, i) == LUA_TBOOLEAN && lua_toboolean(L, i) == (int)u.i;
    case SC_JINT: return lua_isinteger(L, i) && lua_tointeger(L, i) == u.i;
    case SC_JFLOAT: return lua_type(L, i) == LUA_TNUMBER && !lua_isinteger(L, i) && lua_tonumber(L, i) == u.f;
    default: {
        lua_rawgeti(L, ji, u.i);
        int same = lua_rawequal(L, -1, i);   /* a string or a table: never a number */
        lua_pop(L, 1);
        return same;
    }
    }
}

/* Scans the entries in [s, e); 1 when every slot seen first here holds its
 * old value again, 0 at the first that does not, -1 when Lua must decide.
 * Entries of one node come in runs (a shift writes one slot after another):
 * the backing table of the last node read is kept for the next. */
static int sc_scan(lua_State *L, SCScan *scan, lua_Integer s, lua_Integer e) {
    int top = lua_gettop(L);
    lua_pushnil(L);                            /* top+1: the backing table of `read` */
    const SCNode *read = NULL;                 /* alive: records are anchored in J */
    for (lua_Integer i = s; i <= e - 3; i += 3) {
        const SCEntry *entry = sc_entry(scan->core, i);   /* the scan never grows the buffer */
        if (entry->node->serial > scan->serial0) continue;
        int seen = sc_seen(scan, entry);
        if (seen < 0) return -1;
        if (seen) continue;
        if (read != entry->node) {             /* read only for slots compared */
            lua_rawgeti(L, scan->ji, entry->record);
            lua_rawgeti(L, -1, SC_M_B);
            lua_replace(L, top + 1);
            lua_pop(L, 1);
            read = entry->node;
        }
        sc_pushkey(L, scan->ji, entry);
        lua_rawget(L, top + 1);                /* top+2: the value now */
        int same = sc_jsame(L, scan->ji, entry->oldkind, entry->old, top + 2);
        lua_pop(L, 1);
        if (!same) return 0;
    }
    lua_settop(L, top);
    return 1;
}

/* clean(ds, de, us, ue, serial0): true when every slot written in [ds, de)
 * or [us, ue) by a node not younger than serial0 holds its value from before
 * ds again: the undo restored the state, and there is nothing to report.
 * false sends state.lua to its own scan, which builds the diff records. */
static int sc_clean(lua_State *L) {
    lua_Integer ds = luaL_checkinteger(L, 1), de = luaL_checkinteger(L, 2);
    lua_Integer us = luaL_checkinteger(L, 3), ue = luaL_checkinteger(L, 4);
    SCScan scan = {sc_core(L), NULL, 0, luaL_checkinteger(L, 5), 6};
    lua_settop(L, 5);
    sc_pushuv(L, SC_UV_J);     /* 6 */
    lua_Integer jn = scan.core->jn;
    if (ds < 0 || us < 0 || de > jn || ue > jn) return luaL_error(L, "rulebench internal error: not journal marks");
    lua_Integer n = (de > ds ? (de - ds) / 3 + 1 : 0) + (ue > us ? (ue - us) / 3 + 1 : 0);
    if (n > SC_VERIFY_MAX) { lua_pushboolean(L, 0); return 1; }
    size_t size = 16;
    while (size < (size_t)n * 2) size *= 2;
    SCSlot small[SC_STACK_SLOTS];
    scan.slots = size <= SC_STACK_SLOTS ? small : (SCSlot *)lua_newuserdatauv(L, size * sizeof(SCSlot), 0);
    memset(scan.slots, 0, size * sizeof(SCSlot));
    scan.mask = size - 1;
    int clean = sc_scan(L, &scan, ds, de);
    if (clean == 1) clean = sc_scan(L, &scan, us, ue);
    lua_pushboolean(L, clean == 1);
    return 1;
}

/* Pushes h as 16 lowercase hex digits (what "%016llx" writes): every
 * operation hashes the state, and snprintf cost 30 times this. */
static void sc_pushhex(lua_State *L, uint64_t h) {
    static const char digits[] = "0123456789abcdef";
    char text[16];
    for (int i = 15; i >= 0; i--, h >>= 4) text[i] = digits[h & 15];
    lua_pushlstring(L, text, sizeof text);
}

/* hash(m): the state hash of the node record m, as 16 hex digits. */
static int sc_hash(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    sc_pushhex(L, sc_nodeh(sc_nodeat(L, 1)));
    return 1;
}

/* ---------- a seat's view hash (seats.lua) ----------
 * A seat's view is the state with the generator left out and each slot
 * hidden from the seat replaced by a word: hashed as the state is (a
 * node's hash is the mixed wrapping sum of one term per slot), it is the
 * sum of the terms of the slots as the view shows them. seats.lua adds the
 * terms up only in the tables that hold a mark and those above them: every
 * other table's term is its node's own (sc_slotterm), kept by the barrier. */

/* slotterm(m, k): the term slot k of node record m adds to its node's sum; 0 when empty. */
static int sc_slotterm(lua_State *L) {
    SCCore *core = sc_core(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    lua_rawgeti(L, 1, SC_M_B);   /* 3 */
    lua_pushvalue(L, 2);
    int type = lua_rawget(L, 3); /* 4 */
    if (type == LUA_TNIL) {
        lua_pushinteger(L, 0);
    } else if (type == LUA_TTABLE) {
        lua_pushinteger(L, (lua_Integer)sc_pushrecord(L, 4)->c);
    } else {
        uint64_t kh = sc_keyh(L, core, 2);
        lua_pushinteger(L, (lua_Integer)sc_term(kh, sc_valueh(L, core, 4)));
    }
    return 1;
}

/* term(k, v): the term of slot k holding the scalar v; termsum(k, sum):
 * that of slot k holding a table whose slots' terms add up to sum. */
static int sc_termof(lua_State *L) {
    SCCore *core = sc_core(L);
    luaL_checkany(L, 2);
    lua_pushinteger(L, (lua_Integer)sc_term(sc_keyh(L, core, 1), sc_valueh(L, core, 2)));
    return 1;
}

static int sc_termsum(lua_State *L) {
    SCCore *core = sc_core(L);
    SCNode sum = {(uint64_t)luaL_checkinteger(L, 2), 0, 0, NULL, 0};
    lua_pushinteger(L, (lua_Integer)sc_term(sc_keyh(L, core, 1), sc_nodeh(&sum)));
    return 1;
}

/* sumhash(sum): the hash of a table whose slots' terms add up to sum, as 16 hex digits (as hash gives a node's). */
static int sc_sumhash(lua_State *L) {
    SCNode sum = {(uint64_t)luaL_checkinteger(L, 1), 0, 0, NULL, 0};
    sc_pushhex(L, sc_nodeh(&sum));
    return 1;
}

/* ---------- registration ---------- */

void rb_open_statecore(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"init", sc_init},         {"write", sc_write},       {"len", sc_len},
        {"pairs", sc_pairs},
        {"newnode", sc_newnode},   {"jput", sc_jput},         {"setwritable", sc_setwritable},
        {"writable", sc_writable}, {"phase", sc_phase},       {"mark", sc_mark},
        {"serial", sc_serial},     {"rollback", sc_rollback}, {"revert", sc_revert},
        {"truncate", sc_truncate}, {"clean", sc_clean},       {"hash", sc_hash},
        {"plain", sc_plain},       {"textcopy", sc_textcopy},   {"forgetmemo", sc_forgetmemo},
        {"slotterm", sc_slotterm}, {"term", sc_termof},       {"termsum", sc_termsum},
        {"sumhash", sc_sumhash},   {"changes", sc_changes},   {"entry", sc_entryat},
        {"written", sc_written},
        {NULL, NULL}};
    int helpers = lua_gettop(L);
    lua_newtable(L);
    SCCore *core = (SCCore *)lua_newuserdatauv(L, sizeof *core, SC_NUV);
    memset(core, 0, sizeof *core);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, sc_free);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_pushliteral(L, "loading");
    lua_setiuservalue(L, -2, SC_UV_PHASE);
    lua_newtable(L);
    lua_setiuservalue(L, -2, SC_UV_MEMO);
    lua_getfield(L, helpers, "charge");   /* budget.c's charge, for long parent walks */
    lua_setiuservalue(L, -2, SC_UV_CHARGE);
    luaL_setfuncs(L, functions, 1);
    lua_setfield(L, helpers, "state");
}
