/* What every file of the compiled core (pysaboteur._core, issue 24) shares: the Python
 * headers, the engine's generator (SplitMix64, as engine/rng.py draws it), attribute names
 * as interned strings, and each game family's entry points, which module.c gathers into
 * one module.  A game family is one .c file listed in setup.py's CORE_SOURCES, exporting a
 * method table and an init function declared here.
 */
#ifndef PYSABOTEUR_CORE_H
#define PYSABOTEUR_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ the generator */
/* engine/rng.py's Rng.below: one SplitMix64 step, then the top of a 128-bit product (no
   modulo bias, no rejection: the same numbers as the Python side, draw for draw) */
#define GAMMA 0x9E3779B97F4A7C15ULL
static inline uint64_t below(uint64_t *s, uint64_t n) {
    uint64_t z = (*s += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (uint64_t)(((unsigned __int128)z * n) >> 64);
}

/* engine/menu.py's choice of an action in a menu of ``n`` entries: ``even`` (the "playout"
   policy) an entry evenly, then one of its actions; else one of all the actions evenly.
   The entries are structs ``size`` bytes apart whose first member is their int count.
   Returns the entry's index, the action's index inside it in *i. */
static inline int core_pick(uint64_t *rng, const void *entries, size_t size, int n, int even,
                            int *i) {
#define CORE_COUNT(k) (*(const int *)((const char *)entries + (size_t)(k) * size))
    int k = 0;
    if (even) {
        k = (int)below(rng, (uint64_t)n);
        *i = (int)below(rng, (uint64_t)CORE_COUNT(k));
        return k;
    }
    int total = 0;
    for (int j = 0; j < n; j++) total += CORE_COUNT(j);
    *i = (int)below(rng, (uint64_t)total);
    while (*i >= CORE_COUNT(k)) { *i -= CORE_COUNT(k); k++; }
    return k;
#undef CORE_COUNT
}

/* Rng.shuffle: Fisher-Yates, j = below(i + 1) for i from the last index down */
static inline void shuffle_ids(uint64_t *rs, int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(rs, (uint64_t)(i + 1));
        int x = a[i]; a[i] = a[j]; a[j] = x;
    }
}

/* ------------------------------------------------------------------ attributes */
/* attribute names as interned str objects, made once (PyObject_GetAttrString would make and
   hash a new str at every call): by the address of the C literal, in an open-addressed
   table (a look-up is one probe or two); one cache per file */
#define NAMES 512
static PyObject *name_of(const char *name) {
    static const char *keys[NAMES];
    static PyObject *vals[NAMES];
    static int n;
    unsigned slot = (unsigned)(((uintptr_t)name * 0x9E3779B97F4A7C15ULL) >> 55);
    while (keys[slot] != NULL) {
        if (keys[slot] == name) return vals[slot];
        slot = (slot + 1) & (NAMES - 1);
    }
    PyObject *s = PyUnicode_InternFromString(name);  /* kept for the process's life */
    if (s != NULL && n < NAMES / 2) { keys[slot] = name; vals[slot] = s; n++; }
    return s;
}
static inline PyObject *get_attr(PyObject *o, const char *name) {
    PyObject *k = name_of(name);
    return k == NULL ? NULL : PyObject_GetAttr(o, k);
}
/* written as object.__setattr__ writes (the objects written here have no __setattr__ of
   their own, but for a state the rollout API holds: its class's __setattr__ gives the state
   back to Python first, and the core's own writes must not) */
static inline int set_attr(PyObject *o, const char *name, PyObject *v) {
    PyObject *k = name_of(name);
    return k == NULL ? -1 : PyObject_GenericSetAttr(o, k, v);
}
static inline int del_attr(PyObject *o, const char *name) {
    PyObject *k = name_of(name);
    return k == NULL ? -1 : PyObject_GenericSetAttr(o, k, NULL);
}

/* an attribute at a known offset (a slot or a dict entry the caller found once; off < 0:
   looked up by name): set (v borrowed), or read (a new reference) */
static inline int set_slot(PyObject *o, Py_ssize_t off, PyObject *name, PyObject *v) {
    if (off < 0) return PyObject_SetAttr(o, name, v);
    PyObject **at = (PyObject **)((char *)o + off);
    Py_INCREF(v);
    Py_XSETREF(*at, v);
    return 0;
}

static inline PyObject *get_slot(PyObject *o, Py_ssize_t off, PyObject *name) {  /* new ref */
    if (off < 0) return PyObject_GetAttr(o, name);
    PyObject *v = *(PyObject **)((char *)o + off);
    if (v == NULL) PyErr_SetObject(PyExc_AttributeError, name);
    else Py_INCREF(v);
    return v;
}

/* ------------------------------------------------------------------ the grid */
/* every family works on a G x G grid of cells around the start: a cell is one int */
#define G 256            /* the working grid: G x G cells around the start */
#define OFF 128
#define NCELLS (G * G)

static const int EDGES[4] = {1, 2, 4, 8};                  /* N E S W */
static const int DELTA[4] = {-1, G, 1, -G};                /* by edge index */
static const int OPP[4] = {4, 8, 1, 2};

/* cells: Python's (x + 512) << 10 | (y + 512), the grid's (x + OFF) << 8 | (y + OFF) */
static inline int in_grid(long x, long y) {
    return x > -OFF + 2 && x < OFF - 3 && y > -OFF + 2 && y < OFF - 3;
}
static inline int gi_of(long pycell) {
    long x = (pycell >> 10) - 512, y = (pycell & 1023) - 512;
    return (int)(((x + OFF) << 8) | (y + OFF));
}
static inline int gi_ok(long pycell) {
    return in_grid((pycell >> 10) - 512, (pycell & 1023) - 512);
}
static inline long py_of(int gi) {
    long x = (gi >> 8) - OFF, y = (gi & 255) - OFF;
    return ((x + 512) << 10) | (y + 512);
}


/* ------------------------------------------------------------------ Python objects */
static inline long item_long(PyObject *seq, Py_ssize_t i) {
    PyObject *o = PySequence_GetItem(seq, i);
    if (o == NULL) return -1;
    long v = PyLong_AsLong(o);
    Py_DECREF(o);
    return v;
}

/* engine.game.RoundResult(round_no, gold, details), made as its dataclass __init__ makes
   it (which only sets the three fields, in this order) without a Python frame */
static inline PyObject *new_round_result(PyObject *type, int round_no, PyObject *gold, PyObject *details) {
    PyTypeObject *tp = (PyTypeObject *)type;
    PyObject *r = tp->tp_alloc(tp, 0), *no = PyLong_FromLong(round_no);
    if (r == NULL || no == NULL
        || PyObject_GenericSetAttr(r, name_of("round"), no) < 0
        || PyObject_GenericSetAttr(r, name_of("gold"), gold) < 0
        || PyObject_GenericSetAttr(r, name_of("details"), details) < 0)
        Py_CLEAR(r);
    Py_XDECREF(no);
    return r;
}

/* a new engine.maze.Memo of ``type`` (its __init__: nothing held, not shared), without a
   Python frame */
static inline PyObject *new_memo(PyObject *type) {
    PyTypeObject *tp = (PyTypeObject *)type;
    PyObject *m = tp->tp_alloc(tp, 0);
    if (m != NULL && (PyObject_GenericSetAttr(m, name_of("value"), Py_None) < 0
                      || PyObject_GenericSetAttr(m, name_of("shared"), Py_False) < 0))
        Py_CLEAR(m);
    return m;
}

/* an int read from ``v`` (a new reference, let go; NULL: an error set already) */
static inline int int_of(PyObject *v, int *out) {
    if (v == NULL) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

static inline int attr_int(PyObject *o, const char *name, int *out) {
    return int_of(get_attr(o, name), out);
}

static inline int set_int(PyObject *o, const char *name, long v) {
    PyObject *x = PyLong_FromLong(v);
    if (x == NULL) return -1;
    int r = set_attr(o, name, x);
    Py_DECREF(x);
    return r;
}

static inline int dict_set_ll(PyObject *d, long k, long v) {
    PyObject *a = PyLong_FromLong(k), *b = PyLong_FromLong(v);
    int r = (a && b) ? PyDict_SetItem(d, a, b) : -1;
    Py_XDECREF(a); Py_XDECREF(b);
    return r;
}

/* room made in a list for n items in all, its length unchanged: the appends up to n need
   no realloc (list_resize grows a list by an eighth at a time: the reallocs were most of
   what the appends to a play-out's logs cost).  0, or -1 (an error set) */
static inline int list_reserve(PyObject *l, Py_ssize_t n) {
    PyListObject *o = (PyListObject *)l;
    if (!PyList_Check(l) || o->allocated >= n) return 0;
    PyObject **items = PyMem_Realloc(o->ob_item, (size_t)n * sizeof(PyObject *));
    if (items == NULL) { PyErr_NoMemory(); return -1; }
    o->ob_item = items;
    o->allocated = n;
    return 0;
}

/* k new references appended to a list (stolen, even on an error), room made as
   list_resize makes it: no list made for them and let go, no reference counted twice */
static inline int list_extend(PyObject *l, PyObject *const *items, Py_ssize_t k) {
    PyListObject *o = (PyListObject *)l;
    Py_ssize_t n = Py_SIZE(o), need = n + k;
    if (need > o->allocated && list_reserve(l, need + (need >> 3) + 6) < 0) {
        for (Py_ssize_t i = 0; i < k; i++) Py_DECREF(items[i]);
        return -1;
    }
    memcpy(o->ob_item + n, items, (size_t)k * sizeof(PyObject *));
    Py_SET_SIZE(o, need);
    return 0;
}

/* a new empty list with room for n items (list_reserve) */
static inline PyObject *list_with_room(Py_ssize_t n) {
    PyObject *l = PyList_New(0);
    if (l != NULL && list_reserve(l, n) < 0) Py_CLEAR(l);
    return l;
}

static inline int set_obj(PyObject *o, const char *name, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = set_attr(o, name, v);
    Py_DECREF(v);
    return r;
}

static inline int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* a short array sorted in place (insertion: the lists sorted here hold a few dozen at most,
   where qsort's call per comparison costs more than the sorting) */
static inline void sort_short(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i;
        while (j > 0 && a[j - 1] > v) { a[j] = a[j - 1]; j--; }
        a[j] = v;
    }
}

/* the distinct pairs of a sorted hand (its kinds hd, their counts mult), in the order of
   engine.moves' templates: lexicographic by card */
static inline int pair_count(const int *mult, int nk) {
    int n = nk * (nk - 1) / 2;
    for (int i = 0; i < nk; i++) n += mult[i] > 1;
    return n;
}

static inline void nth_pair(const int *hd, const int *mult, int nk, int i, int *out) {
    for (int a = 0; a < nk; a++)
        for (int b = a; b < nk; b++) {
            if (b == a && mult[a] < 2) continue;
            if (i-- == 0) { out[0] = hd[a]; out[1] = hd[b]; return; }
        }
}

static inline int put_rng(PyObject *rng, uint64_t s) {
    PyObject *v = PyLong_FromUnsignedLongLong(s);
    if (v == NULL) return -1;
    int r = set_attr(rng, "state", v);
    Py_DECREF(v);
    return r;
}

static inline int get_rng(PyObject *rng, uint64_t *s) {
    PyObject *v = get_attr(rng, "state");
    if (v == NULL) return -1;
    *s = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

static inline int state_flags(PyObject *st, int *terminal, int *round_no) {
    PyObject *v = get_attr(st, "terminal");
    if (v == NULL) return -1;
    *terminal = PyObject_IsTrue(v);
    Py_DECREF(v);
    return attr_int(st, "_round", round_no);
}

/* a map's look: seen = self.seen = self.seen.copy(); seen[seat] = {**seen[seat], c: code}
   (copy-on-write: clones share the old lists and dicts) */
static inline int see_card(PyObject *state, int seat, long pycell, PyObject *code) {
    PyObject *seen = get_attr(state, "seen");
    if (seen == NULL) return -1;
    PyObject *ns = PyList_GetSlice(seen, 0, PY_SSIZE_T_MAX);
    Py_DECREF(seen);
    if (ns == NULL) return -1;
    PyObject *d = PyDict_Copy(PyList_GET_ITEM(ns, seat));
    PyObject *pc = PyLong_FromLong(pycell);
    int r = -1;
    if (d && pc && PyDict_SetItem(d, pc, code) == 0) {
        PyList_SetItem(ns, seat, d);  /* steals d */
        d = NULL;
        r = set_attr(state, "seen", ns);
    }
    Py_XDECREF(d); Py_XDECREF(pc); Py_DECREF(ns);
    return r;
}

/* ------------------------------------------------------------------ cards and the board */
/* a card's id by its code (the ids dict of a family's tables); -1: error */
static inline int code_id(PyObject *ids, PyObject *code) {
    PyObject *v = PyDict_GetItemWithError(ids, code);
    if (v == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "core: unknown card");
        return -1;
    }
    return (int)PyLong_AsLong(v);
}

/* list.remove on a hand of card ids (n of them); -1: not there */
static inline int remove_card(int *h, int *n, int card) {
    for (int i = 0; i < *n; i++)
        if (h[i] == card) {
            memmove(h + i, h + i + 1, sizeof(int) * (size_t)(*n - i - 1));
            (*n)--;
            return 0;
        }
    PyErr_SetString(PyExc_AssertionError, "core: card not in hand");
    return -1;
}

/* a hand's distinct cards, sorted (ids are in code order), each with its count: how many */
static inline int kinds_of(const int *cards, int n, int *hd, int *mult) {
    int nk = 0;
    for (int i = 0; i < n; i++) {
        int id = cards[i], j = nk, dup = 0;
        for (int k = 0; k < nk; k++) if (hd[k] == id) { mult[k]++; dup = 1; break; }
        if (dup) continue;
        while (j > 0 && hd[j - 1] > id) { hd[j] = hd[j - 1]; mult[j] = mult[j - 1]; j--; }
        hd[j] = id; mult[j] = 1; nk++;
    }
    return nk;
}

/* the fit constraint the face-up neighbours put on c (Maze.constraint_of): open edges low,
   closed edges high; tile: the grid's oriented tiles (-1: none) */
static inline int constraint_at(const int16_t *tile, const int *open_mask, int c) {
    int v = 0;
    for (int e = 0; e < 4; e++) {
        int tn = tile[c + DELTA[e]];
        if (tn >= 0) v |= (open_mask[tn] & OPP[e]) ? EDGES[e] : EDGES[e] << 4;
    }
    return v;
}

/* a family's grid as engine/maze.py's dictionaries see it */
typedef struct {
    const int16_t *tile, *hid;            /* oriented tile, face-down card (-1: none) */
    const int *order, *hcell, *hcard;     /* face-up cells as laid; face-down cells, cards */
    int norder, nh;
    PyObject *const *codes;               /* card codes by id */
    const int *open_mask;                 /* by oriented tile */
    uint32_t *mark, *mgen;                /* a scratch mark per cell, and its generation */
} Board;

/* fills cells {cell: oriented tile} (in the order laid), order [cell] (a list of norder
   items, set here), hidden {cell: code} and, when cons is not NULL, the fit constraints
   {cell: constraint} of the empty cells beside a face-up card; 0, -1: error */
static inline int board_dicts(const Board *b, PyObject *cells, PyObject *order, PyObject *hidden,
                              PyObject *cons) {
    if (cons != NULL && ++*b->mgen == 0) { memset(b->mark, 0, sizeof(uint32_t) * NCELLS); *b->mgen = 1; }
    for (int i = 0; i < b->norder; i++) {
        int c = b->order[i];
        PyObject *pc = PyLong_FromLong(py_of(c));
        if (pc == NULL) return -1;
        PyList_SET_ITEM(order, i, pc);
        PyObject *ot = PyLong_FromLong(b->tile[c]);
        int r = ot == NULL ? -1 : PyDict_SetItem(cells, pc, ot);
        Py_XDECREF(ot);
        if (r < 0) return -1;
        for (int e = 0; cons != NULL && e < 4; e++) {
            int n = c + DELTA[e];
            if (b->tile[n] >= 0 || b->hid[n] >= 0 || b->mark[n] == *b->mgen) continue;
            b->mark[n] = *b->mgen;
            if (dict_set_ll(cons, py_of(n), constraint_at(b->tile, b->open_mask, n)) < 0) return -1;
        }
    }
    for (int i = 0; i < b->nh; i++) {
        PyObject *pc = PyLong_FromLong(py_of(b->hcell[i]));
        int r = pc == NULL ? -1 : PyDict_SetItem(hidden, pc, b->codes[b->hcard[i]]);
        Py_XDECREF(pc);
        if (r < 0) return -1;
    }
    return 0;
}

/* goal_orientations: the rotated flags a face-down goal may lie, of its nv ways (rotated
   flags rot[], oriented tiles ot[]): those that fit the constraint k; if none, those with
   the most open edges toward the reached segments facing it (facing); how many */
static inline int goal_ways_of(int nv, const int *rot, const int *ot, const int *open_mask,
                               const unsigned char (*fits)[16], int k, int facing, int *opts) {
    if (nv == 1) { opts[0] = rot[0]; return 1; }
    int n = 0, best = -1, score[2];
    for (int v = 0; v < nv; v++) if (fits[k][open_mask[ot[v]]]) opts[n++] = rot[v];
    if (n) return n;
    for (int v = 0; v < nv; v++) {
        score[v] = __builtin_popcount(open_mask[ot[v]] & facing);
        if (score[v] > best) best = score[v];
    }
    for (int v = 0; v < nv; v++) if (score[v] == best) opts[n++] = rot[v];
    return n;
}

/* the state's pending goal: (cell, (rotated flags...)) while a goal's orientation waits
   (orienting), else None */
static inline int write_pending(PyObject *st, int orienting, int g, int n, const int *opts) {
    if (!orienting) return set_attr(st, "pending", Py_None);
    PyObject *ways = PyTuple_New(n);
    if (ways == NULL) return -1;
    for (int i = 0; i < n; i++) {
        PyObject *b = opts[i] ? Py_True : Py_False;
        Py_INCREF(b);
        PyTuple_SET_ITEM(ways, i, b);
    }
    return set_obj(st, "pending", Py_BuildValue("(lN)", py_of(g), ways));
}

/* the state's list ``name`` cut to its first n items (the pile after the core's draws) */
static inline int trim_list(PyObject *st, const char *name, Py_ssize_t n) {
    PyObject *l = get_attr(st, name);
    if (l == NULL) return -1;
    int r = PyList_SetSlice(l, n, PY_SSIZE_T_MAX, NULL);
    Py_DECREF(l);
    return r;
}

/* ------------------------------------------------------------------ one thread at a time */
/* Each family's grid and working states (its play-outs, set-ups and the rollout API's held
   state) are used by one call at a time: ``busy``, by ``busy_owner``'s thread.  A call
   from another thread waits for it (wait_core: its calls into Python let others run, the
   interpreter's lock let go while waiting); one from the same thread (a call into Python
   made from the core's own work) is told so, and plays pure.  Every family's file has its
   own copy of these (static): families do not share a grid. */
static int busy __attribute__((unused));
static unsigned long busy_owner __attribute__((unused));
static inline void take_busy(void) { busy = 1; busy_owner = PyThread_get_thread_ident(); }
static inline int wait_core(void) {  /* 1: the core is busy with this thread's own work */
    while (busy) {
        if (busy_owner == PyThread_get_thread_ident()) return 1;
        Py_BEGIN_ALLOW_THREADS
        sched_yield();
        Py_END_ALLOW_THREADS
    }
    return 0;
}

/* the rollout API's calls: (state, ctx, ...), ctx a family's (tables, held class, what its
   round's end needs) */
static inline int step_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want) {
    if (nargs != want || !PyTuple_CheckExact(args[1]) || PyTuple_GET_SIZE(args[1]) != 3) {
        PyErr_SetString(PyExc_TypeError, "core: the rollout API's arguments");
        return 0;
    }
    return 1;
}

/* ``state`` made the held one by the family's enter(): or not taken, or an error */
#define ENTER(state, ctx, not_taken)                       \
    do {                                                   \
        int rc_ = enter(state, ctx);                       \
        if (rc_ < 0) return NULL;                          \
        if (rc_ == 0) { not_taken; }                       \
    } while (0)

/* a rollout call ``name`` made of ``name##_held``, holding the core from start to end */
#define HELD(name, not_taken)                                                              \
    static PyObject *name(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {     \
        if (wait_core()) not_taken;                                                       \
        take_busy();                                                                      \
        PyObject *r = name##_held(self, args, nargs);                                     \
        busy = 0;                                                                         \
        return r;                                                                         \
    }

/* ------------------------------------------------------------------ the held class's methods */
/* legal_actions, legal_count, legal_action and apply of the class a held state has
   (core/resident.py's Resident) as C methods: the rollout API without a Python frame a
   call (a third of a decision listed in full went to the two Python frames of
   resident.py's legal_actions and apply).  One set for every family, each family's calls
   (its rollout calls and its release) handed in as a HeldCalls.  Each reads the context off
   the state's class; a state given back since (its own class again: a method looked up
   before) is Python's, through its own method. */
typedef PyObject *(*StepCall)(PyObject *, PyObject *const *, Py_ssize_t);
typedef struct {
    StepCall legal, count, nth, apply;          /* (state, ctx[, arg]), as the module's */
    PyObject *(*release)(PyObject *, PyObject *);  /* (module, state) */
} HeldCalls;

static inline PyObject *held_ctx(PyObject *self) {  /* borrowed; NULL: not held (no error set) */
    PyObject *d = Py_TYPE(self)->tp_dict, *k = name_of("_ctx");
    return d == NULL || k == NULL ? NULL : PyDict_GetItemWithError(d, k);
}

/* the state given back and Python's own method ``name`` called (arg: NULL, none) */
static inline PyObject *held_as_python(const HeldCalls *f, PyObject *self, const char *name,
                                       PyObject *arg) {
    PyObject *r = f->release(NULL, self);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    PyObject *meth = name_of(name);
    return arg == NULL ? PyObject_CallMethodNoArgs(self, meth) : PyObject_CallMethodOneArg(self, meth, arg);
}

static inline PyObject *held_legal(const HeldCalls *f, PyObject *self) {
    PyObject *ctx = held_ctx(self);
    if (ctx == NULL) return PyErr_Occurred() ? NULL : held_as_python(f, self, "legal_actions", NULL);
    PyObject *a[2] = {self, ctx}, *r = f->legal(NULL, a, 2);
    if (r != Py_None) return r;
    Py_DECREF(r);
    return held_as_python(f, self, "legal_actions", NULL);
}

static inline PyObject *held_count(const HeldCalls *f, PyObject *self) {
    PyObject *ctx = held_ctx(self);
    if (ctx == NULL) return PyErr_Occurred() ? NULL : held_as_python(f, self, "legal_count", NULL);
    PyObject *a[2] = {self, ctx}, *r = f->count(NULL, a, 2);
    if (r == NULL) return NULL;
    long n = PyLong_AsLong(r);
    if (n >= 0) return r;
    Py_DECREF(r);
    return held_as_python(f, self, "legal_count", NULL);
}

static inline PyObject *held_nth(const HeldCalls *f, PyObject *self, PyObject *index) {
    PyObject *ctx = held_ctx(self);
    if (ctx == NULL) return PyErr_Occurred() ? NULL : held_as_python(f, self, "legal_action", index);
    PyObject *a[3] = {self, ctx, index}, *r = f->nth(NULL, a, 3);
    if (r != Py_None) return r;
    Py_DECREF(r);
    return held_as_python(f, self, "legal_action", index);
}

/* apply(action, check=True): State.apply's way on the core (core/resident.py's Resident.apply) */
static inline PyObject *held_apply(const HeldCalls *f, PyObject *self, PyObject *const *args,
                                   Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *action = nargs > 0 ? args[0] : NULL, *check_o = nargs > 1 ? args[1] : NULL;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k), *v = args[nargs + k];
        if (PyUnicode_CompareWithASCIIString(key, "action") == 0 && action == NULL) action = v;
        else if (PyUnicode_CompareWithASCIIString(key, "check") == 0 && check_o == NULL) check_o = v;
        else { PyErr_Format(PyExc_TypeError, "apply() got an unexpected keyword argument %R", key); return NULL; }
    }
    if (action == NULL || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "apply() takes an action and, optionally, check");
        return NULL;
    }
    int check = check_o == NULL ? 1 : PyObject_IsTrue(check_o);
    if (check < 0) return NULL;
    PyObject *ctx = held_ctx(self), *done = NULL;
    if (ctx == NULL && PyErr_Occurred()) return NULL;
    long rc = 2;
    if (ctx != NULL) {
        PyObject *a[3] = {self, ctx, action};
        if ((done = f->apply(NULL, a, 3)) == NULL) return NULL;
        rc = PyLong_AsLong(done);
        Py_DECREF(done);
        if (rc == 0) Py_RETURN_NONE;
    }
    PyObject *r = f->release(NULL, self);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    if (rc == 1) {  /* not among the legal actions */
        if (check) {
            PyObject *err = PyObject_CallMethodOneArg(self, name_of("explain"), action);
            if (err != NULL) {
                PyErr_SetObject((PyObject *)Py_TYPE(err), err);
                Py_DECREF(err);
            }
            return NULL;
        }
        /* unchecked: Python's own way (State.apply) */
        r = PyObject_CallMethodOneArg(self, name_of("_apply"), action);
        if (r == NULL) return NULL;
        Py_DECREF(r);
        PyObject *history = get_attr(self, "history");
        int bad = history == NULL || PyList_Append(history, action) < 0;
        Py_XDECREF(history);
        if (bad) return NULL;
        Py_RETURN_NONE;
    }
    return PyObject_CallMethod(self, "apply", "OO", action, check ? Py_True : Py_False);
}

/* {name: method} of ``defs``, made as methods of ``cls`` (a state's own class: they take a
   state of either class, its own and the held one; engine.rng.Rng: module.c's) */
static inline PyObject *held_methods(PyMethodDef *defs, PyObject *cls) {
    if (!PyType_Check(cls)) { PyErr_SetString(PyExc_TypeError, "core: a class"); return NULL; }
    PyObject *out = PyDict_New();
    for (PyMethodDef *d = defs; out != NULL && d->ml_name != NULL; d++) {
        PyObject *descr = PyDescr_NewMethod((PyTypeObject *)cls, d);
        if (descr == NULL || PyDict_SetItemString(out, d->ml_name, descr) < 0) Py_CLEAR(out);
        Py_XDECREF(descr);
    }
    return out;
}

/* family##_held_methods(cls) -> {name: method}, the module's call: the methods above with
   the family's calls family##_legal, _count, _nth, _apply and _release, put on its held
   class by its Python side */
#define HELD_METHODS(family)                                                                  \
    static const HeldCalls family##_held_calls = {family##_legal, family##_count, family##_nth, \
                                                  family##_apply, family##_release};          \
    static PyObject *family##_m_legal(PyObject *self, PyObject *noargs) {                     \
        (void)noargs;                                                                         \
        return held_legal(&family##_held_calls, self);                                        \
    }                                                                                         \
    static PyObject *family##_m_count(PyObject *self, PyObject *noargs) {                     \
        (void)noargs;                                                                         \
        return held_count(&family##_held_calls, self);                                        \
    }                                                                                         \
    static PyObject *family##_m_nth(PyObject *self, PyObject *index) {                        \
        return held_nth(&family##_held_calls, self, index);                                   \
    }                                                                                         \
    static PyObject *family##_m_apply(PyObject *self, PyObject *const *args, Py_ssize_t nargs, \
                                      PyObject *kwnames) {                                    \
        return held_apply(&family##_held_calls, self, args, nargs, kwnames);                  \
    }                                                                                         \
    static PyMethodDef family##_held_defs[] = {                                               \
        {"legal_actions", family##_m_legal, METH_NOARGS, "The legal actions (on the compiled core)."}, \
        {"legal_count", family##_m_count, METH_NOARGS, "len(legal_actions()) (on the compiled core)."}, \
        {"legal_action", family##_m_nth, METH_O, "legal_actions()[index] (on the compiled core)."}, \
        {"apply", (PyCFunction)(void (*)(void))family##_m_apply, METH_FASTCALL | METH_KEYWORDS, \
         "Play the action for the current player (on the compiled core)."},                  \
        {NULL, NULL, 0, NULL},                                                                \
    };                                                                                        \
    static PyObject *family##_held_methods(PyObject *self, PyObject *cls) {                   \
        (void)self;                                                                           \
        return held_methods(family##_held_defs, cls);                                         \
    }

/* ------------------------------------------------------------------ the game families */
/* classic.c: Saboteur and Saboteur 2 */
extern PyMethodDef classic_methods[];
int classic_init(void);
/* duel.c: the Duel and its solo mode */
extern PyMethodDef duel_methods[];
int duel_init(void);
/* lost_mines.c: The Lost Mines */
extern PyMethodDef lost_mines_methods[];
int lost_mines_init(void);
/* determinize.c: determinizers' samples (Saboteur, Saboteur 2, The Lost Mines) */
extern PyMethodDef determinize_methods[];
int determinize_init(void);

#endif
