// animcore.c: the builders of anim.lua (tween, frames, wait, sound, cue,
// sequence, parallel, stagger), in C, and the check of a plan animate
// returns (`valid`, for K.checkplan: finite numbers, times in range).
//
// Why C: every perform, undo and redo runs the action's animate, and the
// Lua builders were 20-35% of the VM instructions of a checked step.
//
// Behaviour is anim.lua's, exactly. A builder here handles the common case
// and builds the very same leaf table; anything else (a value that is not
// valid, a table with a metatable, data nested very deep) goes to anim.lua's
// own builder, the "slow" one bound here, which checks and raises the errors
// with their "file:line: " as always. A builder here reads only tables that
// have no metatable, where a read has no effect anyone can see, so handing a
// call over half way is unobservable. Nested data is read through its
// backing table (K.backing) when it is a state table, as anim.lua does.
//
// `valid` walks the plan, except a leaf a builder here returned straight
// to the kernel's planof (`fresh`, ac_finish_leaf): the rules never held
// it, so it is still what the builder made, which is valid. Such a leaf's
// valuehash is summed from the pairs as they are set, and noted, so that
// `planhash` (a plan's key: its id, the redo comparison) need not walk it.
//
// Each builder is a closure with three upvalues: the slow builder,
// K.backing and the builders' notes (what they keep between calls,
// ACNotes; the kernel table K is read at bind only). anim.lua calls it
// from a one-line Lua builder that tail-calls it (`return fast(s)`), so
// the stack looks as it did for a Lua builder: see ac_push_site.

#include "animcore.h"
#include "shim_private.h"
#include "sizedtable.h"
#include "utf8text.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#define AC_SLOW lua_upvalueindex(1)
#define AC_BACKING lua_upvalueindex(2)
#define AC_NOTES lua_upvalueindex(3)

/* Deeper data goes to Lua, which copies it (or overflows) as it always did. */
#define AC_MAX_DEPTH 100

/* ---------- the builders' notes ---------- */

/* What the builders keep between calls (AC_NOTES, a userdata): the last
 * leaves built straight for the planner with their hashes (for planhash),
 * `fresh`, the slot + 1 of the last until `valid` is asked about it (0:
 * none), and the settings anim.lua gives (setleafsources, setplanner).
 * Its user values: each slot's leaf (1..RB_NOTES), the strings of the keys
 * a builder sets (AC_KEYVALUE), the planner, and K.easings (AC_EASINGS). */
typedef struct ACNotes {
    RBNotes hashes;
    int fresh;
    int leafsources;
} ACNotes;

static ACNotes *ac_notes(lua_State *L) { return (ACNotes *)lua_touserdata(L, AC_NOTES); }

/* ---------- the slow path and the leaf's source ---------- */

/* Pushes "file:line" of the rule code that built the leaf, or nil: what
 * anim.lua's site() gave. K.where(3, 2) there looked at the Lua builder (a
 * kernel frame, skipped) and at its caller, nothing further: so nil when
 * the builder was tail-called (the caller's frame is gone) or called by a
 * C function such as pcall. Here level 0 is this C function, level 1 the
 * Lua builder in anim.lua that tail-called it and level 2 its caller. (A
 * tail call to a C function keeps the caller's frame: without that Lua
 * builder, `return anim.tween{...}` would name a line where none was.)
 * Off unless setleafsources turned it on. */
static void ac_push_site(lua_State *L) {
    lua_Debug ar;
    if (ac_notes(L)->leafsources && lua_getstack(L, 2, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 &&
        strncmp(ar.source, "=rulebench", 10) != 0) {
        /* K.chunkname: the full name, never the truncated short_src */
        const char *name = (ar.source[0] == '@' || ar.source[0] == '=') ? ar.source + 1 : "[string]";
        lua_pushfstring(L, "%s:%d", name, ar.currentline);
        return;
    }
    lua_pushnil(L);
}

/* Hands the call to anim.lua's builder, with the leaf's source as a second
 * argument (its own site would see this C frame). Its checks and errors
 * are the reference. */
static int ac_slow(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, AC_SLOW);
    lua_insert(L, 1);
    ac_push_site(L);
    lua_call(L, 2, 1);
    return 1;
}

/* ---------- value checks (anim.lua's number, text, repeats, data) ---------- */

/* The longest time one number of a plan may give: anim.lua's K.PLAN_SECONDS
 * (the slow path refuses larger ones, so every total stays finite). */
#define AC_MAX_SECONDS 1e6

/* A finite, non-negative number of at most AC_MAX_SECONDS, as a float
 * (`v + 0.0`, so -0 becomes 0); nil gives `fallback`. 0 when the slow path
 * must decide (a larger volume is fine there). */
static int ac_number(lua_State *L, int index, double fallback, double *out) {
    int type = lua_type(L, index);
    if (type == LUA_TNIL) {
        *out = fallback;
        return 1;
    }
    if (type != LUA_TNUMBER) return 0;
    if (lua_isinteger(L, index)) {
        lua_Integer i = lua_tointeger(L, index);
        if (i < 0 || i > (lua_Integer)AC_MAX_SECONDS) return 0;
        *out = (double)i + 0.0;
        return 1;
    }
    double d = lua_tonumber(L, index);
    if (!(d >= 0 && d <= AC_MAX_SECONDS)) return 0; /* also NaN */
    *out = d + 0.0;
    return 1;
}

/* A non-empty string (a number is not one, as type() says). */
static int ac_text(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TSTRING) return 0;
    size_t length;
    const char *s = lua_tolstring(L, index, &length);
    return length > 0 && rb_badutf8((const unsigned char *)s, length) == 0;
}

/* A table without a metatable, whose reads are plain. */
static int ac_plain(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    if (!lua_getmetatable(L, index)) return 1;
    lua_pop(L, 1);
    return 0;
}

/* Whether the `length` bytes at s are `name` (a zero byte in s never
 * matches), without measuring the name first. */
static int ac_is_name(const char *name, const char *s, size_t length) {
    for (size_t i = 0; i < length; i++)
        if (name[i] != s[i] || name[i] == '\0') return 0;
    return name[length] == '\0';
}

/* The string at `index` is one of `names` (embedded zeros count). */
static int ac_is_one_of(lua_State *L, int index, const char *const *names) {
    if (lua_type(L, index) != LUA_TSTRING) return 0;
    size_t length;
    const char *s = lua_tolstring(L, index, &length);
    for (; *names; names++)
        if (ac_is_name(*names, s, length)) return 1;
    return 0;
}

/* The index in `names` (NULL-ended) of the key at `index`, or -1 when it
 * is no string or none of them. */
static int ac_field_index(lua_State *L, int index, const char *const *names) {
    if (lua_type(L, index) != LUA_TSTRING) return -1;
    size_t length;
    const char *s = lua_tolstring(L, index, &length);
    for (int i = 0; names[i]; i++)
        if (names[i][0] == s[0] && ac_is_name(names[i], s, length)) return i;
    return -1;
}

/* Reads the spec at 1, a plain table, in one walk of its pairs: pushes one
 * slot per name of `names` (NULL-ended), in their order, holding the field
 * of that name, nil where the spec gives none. 0, with nothing pushed, when
 * the spec is not plain or has a key that is none of the names (an unknown
 * field, which anim.lua's builder refuses, or a key that is no string,
 * which it ignores): the slow path decides. */
static int ac_fields(lua_State *L, const char *const *names) {
    if (!ac_plain(L, 1)) return 0;
    int base = lua_gettop(L), count = 0;
    while (names[count]) count++;
    luaL_checkstack(L, count + 4, "anim spec");
    for (int i = 0; i < count; i++) lua_pushnil(L);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int at = ac_field_index(L, -2, names);
        if (at < 0) {
            lua_settop(L, base);
            return 0;
        }
        lua_replace(L, base + 1 + at);
    }
    return 1;
}

/* Pushes the table at `index` read through K.backing (itself when plain). */
static void ac_push_backing(lua_State *L, int index) {
    if (lua_getmetatable(L, index)) {
        lua_pop(L, 1);
        lua_pushvalue(L, AC_BACKING);
        lua_pushvalue(L, index);
        lua_call(L, 1, 1);
    } else {
        lua_pushvalue(L, index);
    }
}

/* Pushes a deep copy of the plain data at `index` (anim.lua's data()): the
 * same keys, inserted in the same order. A state table is read through its
 * backing table. 0, with nothing pushed, when the slow path must decide. */
static int ac_data(lua_State *L, int index, int depth) {
    switch (lua_type(L, index)) {
    case LUA_TTABLE: break;
    case LUA_TFUNCTION: case LUA_TUSERDATA: case LUA_TLIGHTUSERDATA: case LUA_TTHREAD: return 0;
    case LUA_TNUMBER:
        if (!lua_isinteger(L, index) && !isfinite(lua_tonumber(L, index))) return 0;   /* NaN, inf */
        /* fall through */
    default: lua_pushvalue(L, index); return 1;
    }
    if (depth >= AC_MAX_DEPTH) return 0;
    luaL_checkstack(L, 8, "data nested too deeply");
    index = lua_absindex(L, index);
    ac_push_backing(L, index); /* maybe a state table: K.backing knows */
    int from = lua_gettop(L);
    rb_sizedtable(L, from);
    lua_pushnil(L);
    while (lua_next(L, from)) {
        if (!ac_data(L, -1, depth + 1)) {
            lua_settop(L, from - 1);
            return 0;
        }
        lua_pushvalue(L, -3); /* key, value, copy, key */
        lua_insert(L, -2);
        lua_rawset(L, from + 1);
        lua_pop(L, 1);
    }
    lua_remove(L, from);
    return 1;
}

/* The fields a builder here sets, and their names' hashes (the key's half
 * of each pair's term), made once. */
enum ACKey { AK_KIND, AK_TARGET, AK_PROPERTY, AK_FROM, AK_TO, AK_DURATION, AK_DELAY, AK_EASING,
             AK_REPEAT, AK_AUTOREVERSE, AK_FRAMES, AK_FPS, AK_NAME, AK_VOLUME, AK_ARGS, AK_SRC,
             AK_ITEMS, AK_INTERVAL, AK_COUNT };
static const char *const AC_KEYS[AK_COUNT] = {
    "kind", "target", "property", "from", "to", "duration", "delay", "easing", "repeat",
    "autoreverse", "frames", "fps", "name", "volume", "args", "src", "items", "interval"};
static RBHash AC_KEYHASH[AK_COUNT];
#define AC_KEYVALUE(key) (RB_NOTES + 1 + (int)(key))   /* the notes' user value holding the key's string */
#define AC_PLANNER AC_KEYVALUE(AK_COUNT)                   /* ... the planner (setplanner) */
#define AC_EASINGS (AC_PLANNER + 1)                        /* ... K.easings */
static pthread_once_t AC_KEYHASH_ONCE = PTHREAD_ONCE_INIT;

static void ac_hash_keys(void) {
    for (int k = 0; k < AK_COUNT; k++) AC_KEYHASH[k] = rb_hash_text(AC_KEYS[k], strlen(AC_KEYS[k]));
}

/* A node being built: whether it is a leaf going straight to K.planner
 * (ac_straight), and then the sum of its pairs' terms so far (hash.c's
 * rb_hash_pair), from which its valuehash is known without a walk. A
 * list's node passes NULL: it holds the rules' tables. */
typedef struct ACLeaf {
    int straight;
    RBHash sum;
} ACLeaf;

/* Sets field `key` of the node under the value on top to that value, whose
 * hash is `*value` (NULL: read it), and adds the pair to the leaf's sum.
 * The node is new and plain: a raw set, of the key's string kept with the
 * notes (no lookup of the name's text). */
static void ac_put_hashed(lua_State *L, ACLeaf *leaf, enum ACKey key, const RBHash *value) {
    if (leaf != NULL && leaf->straight)
        rb_hash_pair(&leaf->sum, AC_KEYHASH[key], value ? *value : rb_hash_value(L, -1, NULL));
    lua_getiuservalue(L, AC_NOTES, AC_KEYVALUE(key));
    lua_insert(L, -2);
    lua_rawset(L, -3);
}

static void ac_put(lua_State *L, ACLeaf *leaf, enum ACKey key) { ac_put_hashed(L, leaf, key, NULL); }

/* Sets field `key` of the node on top to the value at `index`; a nil is
 * left out, as a table constructor leaves it. */
static void ac_set(lua_State *L, ACLeaf *leaf, int index, enum ACKey key) {
    if (lua_isnil(L, index)) return;
    lua_pushvalue(L, index);
    ac_put(L, leaf, key);
}

static void ac_set_number(lua_State *L, ACLeaf *leaf, double value, enum ACKey key) {
    RBHash h = rb_hash_float(value);   /* what valuehash reads back: a float of these bits */
    lua_pushnumber(L, value);
    ac_put_hashed(L, leaf, key, &h);
}

static void ac_set_integer(lua_State *L, ACLeaf *leaf, lua_Integer value, enum ACKey key) {
    RBHash h = rb_hash_integer(value);
    lua_pushinteger(L, value);
    ac_put_hashed(L, leaf, key, &h);
}

/* Sets the node's src, last, as the Lua constructors did. */
static int ac_finish(lua_State *L, ACLeaf *leaf) {
    ac_push_site(L);
    if (lua_isnil(L, -1)) lua_pop(L, 1);
    else ac_put(L, leaf, AK_SRC);
    return 1;
}

/* A leaf (tween, frames, wait, sound, cue) built here holds what a plan may
 * hold, and no rule code can change it before the kernel checks it when
 * it goes straight from this builder to K.planner (engine.lua's planof):
 * level 1 is the anim.lua builder that tail-called this one, and the frame
 * it returns to, level 2, is planof (animate tail-called the builder,
 * `return anim.tween{...}`, so animate's frame is gone). Its data are
 * copies the rules never saw. Then it is noted as `fresh`, which `valid`
 * answers without a walk. (A leaf in a variable, or in a list, returns to
 * rule code, which may change it: it is walked as always.) */
static int ac_straight(lua_State *L) {
    lua_Debug ar;
    if (!lua_getstack(L, 2, &ar) || !lua_getinfo(L, "f", &ar)) return 0;  /* pushes level 2's function */
    lua_getiuservalue(L, AC_NOTES, AC_PLANNER);
    int straight = lua_type(L, -1) == LUA_TFUNCTION && lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return straight;
}

/* Starts a leaf of `kind` with room for `fields` (ac_straight decided). */
static void ac_leaf_begin(lua_State *L, ACLeaf *leaf, const char *kind, int fields) {
    RBHash empty = RB_HASH_EMPTY;
    leaf->straight = ac_straight(L);
    leaf->sum = empty;
    if (leaf->straight) pthread_once(&AC_KEYHASH_ONCE, ac_hash_keys);
    lua_createtable(L, 0, fields);
    lua_pushstring(L, kind);
    ac_put(L, leaf, AK_KIND);
}

/* Such a leaf is noted (AC_NOTES, a ring of the last RB_NOTES, each leaf
 * held by the ring as a user value while noted) with its hash, the
 * valuehash of the leaf as it stands, which no one changes, so `planhash`
 * takes it instead of walking the leaf; and as the one `fresh` leaf. */
static int ac_finish_leaf(lua_State *L, ACLeaf *leaf) {
    ac_finish(L, leaf);
    if (leaf->straight) {
        ACNotes *notes = ac_notes(L);
        int slot = notes->hashes.next;
        notes->hashes.next = (slot + 1) % RB_NOTES;
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, AC_NOTES, slot + 1);
        notes->hashes.table[slot] = lua_topointer(L, -1);
        notes->hashes.hash[slot] = rb_hash_close(leaf->sum);
        notes->fresh = slot + 1;
    }
    return 1;
}

/* ---------- leaves ---------- */

/* In the order of the slots ac_fields pushes (2.. in ac_tween). */
static const char *const TWEEN[] = {"target", "property", "from", "to", "duration", "delay",
                                    "easing", "repeat", "autoreverse", NULL};

/* Whether the value at index names an easing: a key of K.easings, protocol.lua's
 * WORDSET.easing (the one list of their names; anim.lua binds it). */
static int ac_easing(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TSTRING) return 0;
    lua_getiuservalue(L, AC_NOTES, AC_EASINGS);
    lua_pushvalue(L, index);
    int known = lua_istable(L, -2) && lua_rawget(L, -2) == LUA_TBOOLEAN && lua_toboolean(L, -1);
    lua_pop(L, 2);
    return known;
}

/* `repeat`: a whole number of at least 1; nil gives 1. */
static int ac_repeats(lua_State *L, int index, lua_Integer *out) {
    if (lua_isnil(L, index)) {
        *out = 1;
        return 1;
    }
    if (!lua_isinteger(L, index) || lua_tointeger(L, index) < 1) return 0;
    *out = lua_tointeger(L, index);
    return 1;
}

static int ac_tween(lua_State *L) {
    enum { TARGET = 2, PROPERTY, FROM, TO, DURATION, DELAY, EASING, REPEAT, REVERSE, FROMCOPY, TOCOPY };
    double duration, delay;
    lua_Integer repeats;
    lua_settop(L, 1);
    if (!ac_fields(L, TWEEN)) return ac_slow(L);
    if (!lua_toboolean(L, EASING)) {
        lua_pushliteral(L, "linear");
        lua_replace(L, EASING);
    } else if (!ac_easing(L, EASING)) {
        return ac_slow(L);
    }
    int reverse = lua_type(L, REVERSE);
    if (reverse != LUA_TNIL && reverse != LUA_TBOOLEAN) return ac_slow(L);
    if (!ac_text(L, TARGET) || !ac_text(L, PROPERTY)) return ac_slow(L);
    if (!ac_data(L, FROM, 0)) return ac_slow(L);                 /* FROMCOPY */
    if (!ac_data(L, TO, 0)) return ac_slow(L);                   /* TOCOPY */
    if (!ac_number(L, DURATION, 0.0, &duration) || !ac_number(L, DELAY, 0.0, &delay) ||
        !ac_repeats(L, REPEAT, &repeats))
        return ac_slow(L);
    ACLeaf leaf;
    ac_leaf_begin(L, &leaf, "tween", 11);
    ac_set(L, &leaf, TARGET, AK_TARGET);
    ac_set(L, &leaf, PROPERTY, AK_PROPERTY);
    ac_set(L, &leaf, FROMCOPY, AK_FROM);
    ac_set(L, &leaf, TOCOPY, AK_TO);
    ac_set_number(L, &leaf, duration, AK_DURATION);
    ac_set_number(L, &leaf, delay, AK_DELAY);
    ac_set(L, &leaf, EASING, AK_EASING);
    ac_set_integer(L, &leaf, repeats, AK_REPEAT);
    RBHash reversed = rb_hash_boolean(lua_toboolean(L, REVERSE));
    lua_pushboolean(L, lua_toboolean(L, REVERSE)); /* `s.autoreverse or false`: nil or a boolean here */
    ac_put_hashed(L, &leaf, AK_AUTOREVERSE, &reversed);
    return ac_finish_leaf(L, &leaf);
}

/* In the order of the slots ac_fields pushes (2.. in ac_frames). */
static const char *const FRAMES[] = {"target", "property", "frames", "fps", "duration", "delay", "repeat", NULL};

static int ac_frames(lua_State *L) {
    enum { TARGET = 2, PROPERTY, LIST, FPS, DURATION, DELAY, REPEAT, LISTCOPY };
    double fps, duration, delay;
    lua_Integer repeats;
    lua_settop(L, 1);
    if (!ac_fields(L, FRAMES)) return ac_slow(L);
    if (!ac_plain(L, LIST) || lua_rawlen(L, LIST) == 0) return ac_slow(L);
    int nofps = lua_isnil(L, FPS), noduration = lua_isnil(L, DURATION);
    if (nofps == noduration) return ac_slow(L);
    if (!ac_number(L, FPS, 0.0, &fps) || (!nofps && fps < 1 / AC_MAX_SECONDS)) return ac_slow(L);
    if (lua_isnil(L, PROPERTY) || (lua_type(L, PROPERTY) == LUA_TBOOLEAN && !lua_toboolean(L, PROPERTY))) {
        lua_pushliteral(L, "frame");
        lua_replace(L, PROPERTY);
    }
    if (!ac_text(L, TARGET) || !ac_text(L, PROPERTY)) return ac_slow(L);
    if (!ac_data(L, LIST, 0)) return ac_slow(L);                 /* LISTCOPY */
    if (!ac_number(L, DURATION, 0.0, &duration) || !ac_number(L, DELAY, 0.0, &delay) ||
        !ac_repeats(L, REPEAT, &repeats))
        return ac_slow(L);
    ACLeaf leaf;
    ac_leaf_begin(L, &leaf, "frames", 9);
    ac_set(L, &leaf, TARGET, AK_TARGET);
    ac_set(L, &leaf, PROPERTY, AK_PROPERTY);
    ac_set(L, &leaf, LISTCOPY, AK_FRAMES);
    if (!nofps) ac_set_number(L, &leaf, fps, AK_FPS);
    if (!noduration) ac_set_number(L, &leaf, duration, AK_DURATION);
    ac_set_number(L, &leaf, delay, AK_DELAY);
    ac_set_integer(L, &leaf, repeats, AK_REPEAT);
    return ac_finish_leaf(L, &leaf);
}

static int ac_wait(lua_State *L) {
    double seconds;
    lua_settop(L, 1);
    if (!ac_number(L, 1, 0.0, &seconds)) return ac_slow(L);
    ACLeaf leaf;
    ac_leaf_begin(L, &leaf, "wait", 3);
    ac_set_number(L, &leaf, seconds, AK_DURATION);
    return ac_finish_leaf(L, &leaf);
}

static const char *const SOUND[] = {"name", "volume", "delay", NULL};

static int ac_sound(lua_State *L) {
    double volume = 1.0, delay = 0.0;
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING) { /* anim.sound "name" */
        if (!ac_text(L, 1)) return ac_slow(L);
        lua_pushvalue(L, 1);                                      /* 2: the name */
    } else {
        if (!ac_fields(L, SOUND)) return ac_slow(L);              /* 2 name, 3 volume, 4 delay */
        if (!ac_text(L, 2)) return ac_slow(L);
        if (!ac_number(L, 3, 1.0, &volume) || !ac_number(L, 4, 0.0, &delay)) return ac_slow(L);
    }
    ACLeaf leaf;
    ac_leaf_begin(L, &leaf, "sound", 5);
    ac_set(L, &leaf, 2, AK_NAME);
    ac_set_number(L, &leaf, volume, AK_VOLUME);
    ac_set_number(L, &leaf, delay, AK_DELAY);
    return ac_finish_leaf(L, &leaf);
}

static const char *const CUE[] = {"name", "args", "delay", NULL};

static int ac_cue(lua_State *L) {
    double delay;
    lua_settop(L, 1);
    if (!ac_fields(L, CUE)) return ac_slow(L);                    /* 2 name, 3 args, 4 delay */
    if (!ac_text(L, 2)) return ac_slow(L);
    if (!lua_toboolean(L, 3)) lua_newtable(L);                    /* 5: `s.args or {}`, copied */
    else if (!ac_data(L, 3, 0)) return ac_slow(L);
    if (!ac_number(L, 4, 0.0, &delay)) return ac_slow(L);
    ACLeaf leaf;
    ac_leaf_begin(L, &leaf, "cue", 5);
    ac_set(L, &leaf, 2, AK_NAME);
    ac_set(L, &leaf, 5, AK_ARGS);
    ac_set_number(L, &leaf, delay, AK_DELAY);
    return ac_finish_leaf(L, &leaf);
}

/* ---------- lists ---------- */

static const char *const KINDS[] = {"tween", "frames", "wait", "sound", "cue",
                                    "sequence", "parallel", "stagger", NULL};
static const char *const INTERVAL[] = {"interval", NULL};

/* Pushes the items of the plain list at 1, copied: each a plain table whose
 * kind is a plan's. Its keys must be 1..n, and `interval` for a stagger:
 * counting them is enough, as items 1..n were all found. 0, with nothing
 * pushed, when the slow path must decide. */
static int ac_items(lua_State *L, int stagger) {
    lua_Unsigned length = lua_rawlen(L, 1);                       /* n, unless the slow path decides */
    lua_createtable(L, length < 4096 ? (int)length : 4096, 0);
    int out = lua_gettop(L);
    lua_Integer n = 0;
    while (lua_rawgeti(L, 1, n + 1) != LUA_TNIL) {
        if (!ac_plain(L, -1) || lua_getfield(L, -1, "kind") != LUA_TSTRING || !ac_is_one_of(L, -1, KINDS)) {
            lua_settop(L, out - 1);
            return 0;
        }
        lua_pop(L, 1);
        lua_rawseti(L, out, ++n);
    }
    lua_pop(L, 1);
    lua_Integer keys = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (!(stagger && ac_is_one_of(L, -1, INTERVAL))) keys++;
    }
    if (keys != n) {
        lua_settop(L, out - 1);
        return 0;
    }
    return 1;
}

static int ac_list(lua_State *L, const char *kind) {
    lua_settop(L, 1);
    if (!ac_plain(L, 1) || !ac_items(L, 0)) return ac_slow(L);   /* 2 */
    lua_createtable(L, 0, 3);
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "kind");
    ac_set(L, NULL, 2, AK_ITEMS);
    return ac_finish(L, NULL);
}

static int ac_sequence(lua_State *L) { return ac_list(L, "sequence"); }
static int ac_parallel(lua_State *L) { return ac_list(L, "parallel"); }

static int ac_stagger(lua_State *L) {
    double interval;
    lua_settop(L, 1);
    if (!ac_plain(L, 1)) return ac_slow(L);
    lua_getfield(L, 1, "interval");                               /* 2 */
    if (!ac_number(L, 2, 0.0, &interval) || !ac_items(L, 1)) return ac_slow(L); /* 3 */
    lua_createtable(L, 0, 4);
    lua_pushliteral(L, "stagger");
    lua_setfield(L, -2, "kind");
    ac_set_number(L, NULL, interval, AK_INTERVAL);
    ac_set(L, NULL, 3, AK_ITEMS);
    return ac_finish(L, NULL);
}

/* ---------- checking a plan built by hand ---------- */

static int ac_min(int a, int b) { return a < b ? a : b; }

/* How much of a plan the check looks at: tables nested deeper than the
 * encoder takes (wire.c refuses more than 200 levels), or more tables than
 * any plan made with care holds (a table reached twice counts twice, so a
 * cycle, or a table holding itself twice, ends here instead of in a walk
 * of 2^depth paths). Past either, anim.lua's walk, which visits each table
 * once, decides. */
#define AC_CHECK_DEPTH 256
#define AC_CHECK_TABLES 10000

typedef struct ACCheck ACCheck;
typedef int (*ACVisit)(lua_State *L, ACCheck *c, int depth);
struct ACCheck { int tables; };

/* Calls `visit` on each key and value (at -2 and -1) of the table at
 * `index`, read through K.backing, while it answers 1; returns the last
 * answer (1 when the table is empty), or -1 past the check's bounds. */
static int ac_walk(lua_State *L, ACCheck *c, int index, int depth, ACVisit visit) {
    if (depth >= AC_CHECK_DEPTH || --c->tables < 0) return -1;
    luaL_checkstack(L, 8, "plan nested too deeply");
    index = lua_absindex(L, index);
    ac_push_backing(L, index);
    int from = lua_gettop(L), verdict = 1;
    lua_pushnil(L);
    while (verdict == 1 && lua_next(L, from)) {
        verdict = visit(L, c, depth);
        lua_pop(L, 1);
    }
    lua_settop(L, from - 1);
    return verdict;
}

static int ac_finite_pair(lua_State *L, ACCheck *c, int depth);

/* 1 when every number in the value at `index` is finite (tables read
 * through K.backing when they have a metatable, as ac_data reads them), 0
 * when one is NaN or infinite, -1 past the check's bounds. */
static int ac_all_finite(lua_State *L, ACCheck *c, int index, int depth) {
    switch (lua_type(L, index)) {
    case LUA_TNUMBER: return lua_isinteger(L, index) || isfinite(lua_tonumber(L, index));
    case LUA_TTABLE: return ac_walk(L, c, index, depth, ac_finite_pair);
    default: return 1;
    }
}

static int ac_finite_pair(lua_State *L, ACCheck *c, int depth) {
    return ac_min(ac_all_finite(L, c, -2, depth + 1), ac_all_finite(L, c, -1, depth + 1));
}

/* Whether the number at `value` is in range for the plan's own time field
 * named by the string at `key` (anim.lua's TIMES): `duration`, `delay`,
 * `interval` from 0 to AC_MAX_SECONDS; `fps` from 1 / AC_MAX_SECONDS. -2
 * when the key names no time field. */
static int ac_time_ok(lua_State *L, int key, int value) {
    size_t length;
    const char *name = lua_tolstring(L, key, &length);
    /* by length first: every number of every plan comes here */
    if ((length == 8 && (!memcmp(name, "duration", 8) || !memcmp(name, "interval", 8))) ||
        (length == 5 && !memcmp(name, "delay", 5))) {
        double v = lua_tonumber(L, value);
        return v >= 0 && v <= AC_MAX_SECONDS; /* also NaN */
    }
    if (length == 3 && !memcmp(name, "fps", 3)) {
        double v = lua_tonumber(L, value);
        return v >= 1 / AC_MAX_SECONDS && v <= AC_MAX_SECONDS;
    }
    return -2;
}

/* Whether the value at `index` is the string "items". */
static int ac_is_items(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TSTRING) return 0;
    size_t length;
    const char *name = lua_tolstring(L, index, &length);
    return length == 5 && !memcmp(name, "items", 5);
}

static int ac_plan_pair(lua_State *L, ACCheck *c, int depth);

/* One of a node's `items`: a table is a plan node, anything else data. */
static int ac_item_pair(lua_State *L, ACCheck *c, int depth) {
    int item = lua_type(L, -1) == LUA_TTABLE ? ac_walk(L, c, -1, depth + 1, ac_plan_pair) : ac_all_finite(L, c, -1, depth + 1);
    return ac_min(ac_all_finite(L, c, -2, depth + 1), item);
}

/* One field of a plan node: a time in range, the `items` each checked as
 * above, any other field data whose numbers are finite. A field named by a
 * string (every field a builder makes) is read by its value's type alone:
 * a number is a time or finite, a table data or the items, anything else
 * holds no number. */
static int ac_plan_pair(lua_State *L, ACCheck *c, int depth) {
    if (lua_type(L, -2) != LUA_TSTRING) return ac_finite_pair(L, c, depth);
    switch (lua_type(L, -1)) {
    case LUA_TNUMBER: {
        int time = ac_time_ok(L, -2, -1);
        if (time != -2) return time;
        return lua_isinteger(L, -1) || isfinite(lua_tonumber(L, -1));
    }
    case LUA_TTABLE:
        if (ac_is_items(L, -2)) return ac_walk(L, c, -1, depth + 1, ac_item_pair);
        return ac_all_finite(L, c, -1, depth + 1);
    default: return 1;
    }
}

/* valid(plan): true when the plan holds what a plan may (ac_plan_pair: every
 * number finite, a node's times in range, each table among its items a node
 * too; what the builders build always does), false when it does not, nil
 * when only anim.lua's walk can tell. K.checkplan asks it of every plan an
 * animate returns, so a plan built by hand cannot carry NaN (which never
 * equals itself, so no redo could match it) or times whose sums overflow
 * into the redo check. */
static int ac_valid(lua_State *L) {
    ACCheck check = {AC_CHECK_TABLES};
    lua_settop(L, 1);
    ACNotes *notes = ac_notes(L);
    int fresh = notes->fresh;
    notes->fresh = 0;                                   /* noted for one check only */
    if (fresh && lua_type(L, 1) == LUA_TTABLE && notes->hashes.table[fresh - 1] == lua_topointer(L, 1)) {
        lua_pushboolean(L, 1);                          /* a leaf just built (ac_finish_leaf), held by the notes */
        return 1;
    }
    int verdict = lua_type(L, 1) == LUA_TTABLE ? ac_walk(L, &check, 1, 0, ac_plan_pair) : 0;
    if (verdict < 0) lua_pushnil(L);
    else lua_pushboolean(L, verdict);
    return 1;
}

/* ---------- binding ---------- */

/* planhash(plan): valuehash(plan), each leaf noted as it was built
 * (ac_finish_leaf) taken as noted instead of walked. */
static int ac_planhash(lua_State *L) {
    luaL_checkany(L, 1);
    const ACNotes *notes = (const ACNotes *)lua_touserdata(L, lua_upvalueindex(1));
    rb_push_hash(L, rb_hash_value(L, 1, &notes->hashes));
    return 1;
}

/* setplanner(fn), setleafsources(on): the notes' settings (upvalue 1). */
static int ac_setplanner(lua_State *L) {
    lua_settop(L, 1);
    lua_setiuservalue(L, lua_upvalueindex(1), AC_PLANNER);
    return 0;
}

static int ac_setleafsources(lua_State *L) {
    ((ACNotes *)lua_touserdata(L, lua_upvalueindex(1)))->leafsources = lua_toboolean(L, 1);
    return 0;
}

/* Pushes the notes for K at 1: no leaf, no planner, leaf sources off;
 * the keys' strings and K.easings in their user values. */
static void ac_push_notes(lua_State *L) {
    ACNotes *notes = (ACNotes *)lua_newuserdatauv(L, sizeof *notes, AC_EASINGS);
    memset(notes, 0, sizeof *notes);
    for (int k = 0; k < AK_COUNT; k++) {
        lua_pushstring(L, AC_KEYS[k]);
        lua_setiuservalue(L, -2, AC_KEYVALUE(k));
    }
    lua_getfield(L, 1, "easings");
    lua_setiuservalue(L, -2, AC_EASINGS);
}

/* bind(K, slow): a table of the builders, each bound to slow[name]
 * (anim.lua's builder of the same name), to K.backing and to the notes;
 * and planhash, setplanner and setleafsources, bound to the notes. */
static int ac_bind(lua_State *L) {
    static const luaL_Reg builders[] = {
        {"tween", ac_tween}, {"frames", ac_frames}, {"wait", ac_wait}, {"sound", ac_sound},
        {"cue", ac_cue}, {"sequence", ac_sequence}, {"parallel", ac_parallel},
        {"stagger", ac_stagger}, {"valid", ac_valid}, {NULL, NULL}};
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    ac_push_notes(L);                                             /* 3 */
    lua_newtable(L);
    for (const luaL_Reg *b = builders; b->name; b++) {
        /* valid has no slow builder: anim.lua's walk runs after it when it cannot tell */
        if (lua_getfield(L, 2, b->name) != LUA_TFUNCTION && b->func != ac_valid) return luaL_error(L, "no slow builder '%s'", b->name);
        if (lua_getfield(L, 1, "backing") != LUA_TFUNCTION) return luaL_error(L, "K.backing is not a function");
        lua_pushvalue(L, 3);
        lua_pushcclosure(L, b->func, 3);
        lua_setfield(L, -2, b->name);
    }
    static const luaL_Reg bynotes[] = {
        {"planhash", ac_planhash}, {"setplanner", ac_setplanner}, {"setleafsources", ac_setleafsources}, {NULL, NULL}};
    for (const luaL_Reg *b = bynotes; b->name; b++) {
        lua_pushvalue(L, 3);
        lua_pushcclosure(L, b->func, 1);
        lua_setfield(L, -2, b->name);
    }
    return 1;
}

void rb_open_animcore(lua_State *L) {
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, ac_bind);
    lua_setfield(L, -2, "bind");
    lua_setfield(L, -2, "anim");
}
