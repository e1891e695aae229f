/* The compiled core's Duel family (issue 24; module.c makes the module).
 *
 * The play-outs (State.play_out) of Saboteur: The Duel (games/duel, two players) and of its
 * solo mode in C, playing exactly the games of the pure-Python engine: the same menu order
 * (DuelState._menu), the same numbers drawn (SplitMix64, as engine/rng.py), the same state
 * written back.  Every card table comes from the Python side (pysaboteur/core/duel.py reads
 * the catalogue and games/duel/state.py's own tables): nothing of the rules' data is written
 * here.  The maze keeps one reach context per colour in play (doors locked to the other
 * colour, trolls that stop a path until bribed, keys that open doors), as engine/maze.py
 * does.  What a person sees (views, records, the pay-out) stays in Python: the core calls
 * the state's own _end_round at a round's end (the next round is set up there too) and reads
 * the new round back.
 */
#include "core.h"
#include <math.h>

#define NCTX 2           /* reach contexts: one per colour in play */
#define DMAXC 64         /* card kinds */
#define DMAXOT 128       /* oriented tiles */
#define DMAXDECK 128
#define DMAXHAND (DMAXDECK + 16)
#define DMAXORDER 256    /* face-up cards on the grid */
#define DMAXHID 8        /* face-down goals */
#define DMAXFRONT 8
#define DMAXSRC 4        /* sources of one context: its start and a ladder */
#define DMAXLIST 32      /* markers, bribes, keys, revealed goals, gold, trolls */
#define DMAXNEAR 64
#define DMAXMENU 64
#define NO_ENTER 1       /* engine/maze.py's passage flags */
#define NO_LEAVE 2

enum { D_NONE = 0, D_BREAK, D_REPAIR, D_KEY, D_ROCKFALL, D_MAP };  /* duel.py _EFFECTS */
enum { C_PATH = 0, C_ACTION = 1 };
/* menu entries, in DuelState._menu's order */
enum { T_ORIENT = 0, T_BRIBE, T_END, T_FIT, T_PLACE, T_BREAK, T_REPAIR, T_CELL, T_DISCARD,
       T_PASS };
enum { MAIN = 0, AFTER = 1, ORIENT = 2 };       /* checked against duel.py's rules */
enum { RESUME_MAIN = 0, RESUME_AFTER = 1 };
enum { GO_ON = 0, STOP = 1, ROUND_END = 2 };    /* a settle: went on, paused, round over */

/* ------------------------------------------------------------------ tables */
typedef struct {
    int ncards, notiles;
    PyObject *codes[DMAXC];
    int category[DMAXC], effect[DMAXC], ntools[DMAXC], tools[DMAXC][2], ladder[DMAXC];
    int norient[DMAXC], orot[DMAXC][2], ootile[DMAXC][2], otile_of[DMAXC][2];
    uint64_t tiles_for[NCTX][DMAXC];   /* by colour: the card's oriented tiles, if it connects */
    int ladder_for[NCTX][DMAXC];       /* by colour: a ladder that colour may lay */
    PyObject *on_player[DMAXC][2][2];  /* [card][seat][tool]: DuelState._on_player's */
    PyObject *single[DMAXC], *cell_acts[DMAXC];
    int open_mask[DMAXOT], nseg[DMAXOT], segs[DMAXOT][4], seg_of_edge[DMAXOT][9],
        otile_card[DMAXOT], gold[DMAXOT], troll[DMAXOT], door[DMAXOT], oladder[DMAXOT],
        removable[DMAXOT];
    uint64_t fitset[256];
    unsigned char fits[256][16];
    PyObject *place, *orient_obj[2], *end_turn, *bribe_type, *discard_type, *tuple_new,
             *passes, *ids, *maze_type, *catalogue, *memo_type, *unkept, *kept_none[2];
    /* core/duel.py's PackedMaze, and the capsule holding these tables (borrowed: it lives
       as long as they do) */
    PyObject *packed_type, *capsule;
    /* a round's set-up (DuelState._setup_round): goals a round, hand size, keys, cards solo
       sets aside, the round's cards (sorted ids), which cards are the pile's path cards */
    int goals_per_round, hand_size, key_tokens, solo_aside, nround, round_cards[DMAXDECK],
        deck_path[DMAXC];
    /* a round's end (DuelState._end_round): rounds a match, each card's gold, the colour
       that begins a round after a tie, the round's records (RoundResult; last_round's
       holder views.LaterRoundEnd and core/duel.py's _ended, which reads the pieces) */
    int rounds, value[DMAXC], tie_colour;
    PyObject *round_result, *later, *ended;
    /* card ids by the code objects themselves (codes[]: what the core writes into hands and
       piles, so what it reads back), open addressing on the pointer; other equal strings go
       to the ids dict */
    PyObject *by_ptr[4 * DMAXC];
    int id_by_ptr[4 * DMAXC];
} DT;

static inline unsigned ptr_slot(PyObject *o) {
    return (unsigned)(((uintptr_t)o * 0x9E3779B97F4A7C15ULL) >> 56) & (4 * DMAXC - 1);
}

static void dt_free(PyObject *capsule) {
    DT *t = PyCapsule_GetPointer(capsule, "pysaboteur._core.DuelTables");
    if (t != NULL) PyMem_RawFree(t);  /* the Python objects are kept for the process's life */
}

#define CHECK(cond, msg) do { if (!(cond)) { PyErr_SetString(PyExc_ValueError, "duel tables: " msg); goto fail; } } while (0)

static PyObject *kept(PyObject *spec, const char *key) {  /* a new reference, kept */
    PyObject *o = PyDict_GetItemString(spec, key);
    if (o == NULL) { PyErr_Format(PyExc_KeyError, "duel tables: %s", key); return NULL; }
    Py_INCREF(o);
    return o;
}

static inline long tuple_long(PyObject *tup, Py_ssize_t i) {
    return PyLong_AsLong(PyTuple_GET_ITEM(tup, i));
}

/* duel_tables(spec: dict) -> capsule; spec is built by pysaboteur.core.duel._spec */
static PyObject *duel_tables(PyObject *self, PyObject *spec) {
    (void)self;
    if (!PyDict_Check(spec)) { PyErr_SetString(PyExc_TypeError, "spec must be a dict"); return NULL; }
    DT *t = PyMem_RawCalloc(1, sizeof(DT));
    if (t == NULL) return PyErr_NoMemory();
    PyObject *cards = PyDict_GetItemString(spec, "cards"), *otiles = PyDict_GetItemString(spec, "otiles");
    CHECK(cards && otiles && PyList_Check(cards) && PyList_Check(otiles), "cards");
    t->ncards = (int)PyList_GET_SIZE(cards);
    t->notiles = (int)PyList_GET_SIZE(otiles);
    CHECK(t->ncards <= DMAXC && t->notiles <= DMAXOT, "too many cards");
    for (int c = 0; c < t->ncards; c++) {
        /* (code, category, effect, tools, ladder colour, orientations ((rotated, otile)...),
            (otile unrotated, rotated), tiles by colour, ladder by colour, on_player [seat][tool],
            single pass, cell actions) */
        PyObject *row = PyList_GET_ITEM(cards, c), *o;
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 12, "card row");
        t->codes[c] = PyTuple_GET_ITEM(row, 0); Py_INCREF(t->codes[c]);
        unsigned slot = ptr_slot(t->codes[c]);
        while (t->by_ptr[slot] != NULL) slot = (slot + 1) & (4 * DMAXC - 1);
        t->by_ptr[slot] = t->codes[c]; t->id_by_ptr[slot] = c;
        t->category[c] = (int)tuple_long(row, 1);
        t->effect[c] = (int)tuple_long(row, 2);
        o = PyTuple_GET_ITEM(row, 3);
        t->ntools[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->ntools[c] <= 2, "tools");
        for (int k = 0; k < t->ntools[c]; k++) t->tools[c][k] = (int)tuple_long(o, k);
        t->ladder[c] = (int)tuple_long(row, 4);
        o = PyTuple_GET_ITEM(row, 5);
        t->norient[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->norient[c] <= 2, "orientations");
        for (int k = 0; k < t->norient[c]; k++) {
            PyObject *v = PyTuple_GET_ITEM(o, k);
            t->orot[c][k] = PyObject_IsTrue(PyTuple_GET_ITEM(v, 0));
            t->ootile[c][k] = (int)tuple_long(v, 1);
        }
        o = PyTuple_GET_ITEM(row, 6);
        t->otile_of[c][0] = (int)tuple_long(o, 0);
        t->otile_of[c][1] = (int)tuple_long(o, 1);
        for (int k = 0; k < NCTX; k++) {
            t->tiles_for[k][c] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(row, 7), k));
            t->ladder_for[k][c] = PyObject_IsTrue(PyTuple_GET_ITEM(PyTuple_GET_ITEM(row, 8), k));
        }
        o = PyTuple_GET_ITEM(row, 9);
        if (o != Py_None)
            for (int s = 0; s < 2; s++)
                for (int k = 0; k < PyTuple_GET_SIZE(PyTuple_GET_ITEM(o, s)) && k < 2; k++) {
                    t->on_player[c][s][k] = PyTuple_GET_ITEM(PyTuple_GET_ITEM(o, s), k);
                    Py_INCREF(t->on_player[c][s][k]);
                }
        o = PyTuple_GET_ITEM(row, 10);
        if (o != Py_None) { t->single[c] = o; Py_INCREF(o); }
        o = PyTuple_GET_ITEM(row, 11);
        if (o != Py_None) { t->cell_acts[c] = o; Py_INCREF(o); }
    }
    for (int k = 0; k < t->notiles; k++) {
        /* (open_mask, segments, seg_of_edge (9), card id, gold, troll, door colour, ladder
            colour, removable) */
        PyObject *row = PyList_GET_ITEM(otiles, k), *o;
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 9, "otile row");
        t->open_mask[k] = (int)tuple_long(row, 0);
        o = PyTuple_GET_ITEM(row, 1);
        t->nseg[k] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->nseg[k] <= 4, "segments");
        for (int s = 0; s < t->nseg[k]; s++) t->segs[k][s] = (int)tuple_long(o, s);
        o = PyTuple_GET_ITEM(row, 2);
        for (int e = 0; e < 9; e++) t->seg_of_edge[k][e] = (int)tuple_long(o, e);
        t->otile_card[k] = (int)tuple_long(row, 3);
        t->gold[k] = (int)tuple_long(row, 4);
        t->troll[k] = (int)tuple_long(row, 5);
        t->door[k] = (int)tuple_long(row, 6);
        t->oladder[k] = (int)tuple_long(row, 7);
        t->removable[k] = (int)tuple_long(row, 8);
    }
    PyObject *o = PyDict_GetItemString(spec, "fitset");
    CHECK(o && PyList_Check(o) && PyList_GET_SIZE(o) == 256, "fitset");
    for (int k = 0; k < 256; k++) t->fitset[k] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(o, k));
    o = PyDict_GetItemString(spec, "fits");
    CHECK(o && PyBytes_Check(o) && PyBytes_GET_SIZE(o) == 256 * 16, "fits");
    memcpy(t->fits, PyBytes_AS_STRING(o), 256 * 16);
    o = PyDict_GetItemString(spec, "rules");  /* (pass max, discard n, MAIN, AFTER, ORIENT, resumes) */
    CHECK(o && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 7 && tuple_long(o, 0) == 2
          && tuple_long(o, 1) == 2 && tuple_long(o, 2) == MAIN && tuple_long(o, 3) == AFTER
          && tuple_long(o, 4) == ORIENT && tuple_long(o, 5) == RESUME_MAIN
          && tuple_long(o, 6) == RESUME_AFTER, "rules (passes and discards of 2 cards)");
    o = PyDict_GetItemString(spec, "setup");
    CHECK(o && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 6, "setup");
    t->goals_per_round = (int)tuple_long(o, 0);
    t->hand_size = (int)tuple_long(o, 1);
    t->key_tokens = (int)tuple_long(o, 2);
    t->solo_aside = (int)tuple_long(o, 3);
    {
        PyObject *rc = PyTuple_GET_ITEM(o, 4), *dp = PyTuple_GET_ITEM(o, 5);
        t->nround = (int)PyTuple_GET_SIZE(rc);
        CHECK(t->nround <= DMAXDECK && PyTuple_GET_SIZE(dp) == t->ncards
              && t->goals_per_round <= DMAXHID, "setup sizes");
        for (int i = 0; i < t->nround; i++) t->round_cards[i] = (int)tuple_long(rc, i);
        for (int i = 0; i < t->ncards; i++) t->deck_path[i] = PyObject_IsTrue(PyTuple_GET_ITEM(dp, i));
    }
    o = PyDict_GetItemString(spec, "round_end");
    CHECK(o && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 6
          && PyTuple_GET_SIZE(PyTuple_GET_ITEM(o, 1)) == t->ncards, "round_end");
    t->rounds = (int)tuple_long(o, 0);
    for (int i = 0; i < t->ncards; i++) t->value[i] = (int)tuple_long(PyTuple_GET_ITEM(o, 1), i);
    t->tie_colour = (int)tuple_long(o, 2);
    t->round_result = PyTuple_GET_ITEM(o, 3); Py_INCREF(t->round_result);
    t->later = PyTuple_GET_ITEM(o, 4); Py_INCREF(t->later);
    CHECK(PyType_Check(t->later), "round_end: LaterRoundEnd");
    t->ended = PyTuple_GET_ITEM(o, 5); Py_INCREF(t->ended);
    o = PyDict_GetItemString(spec, "orient");
    CHECK(o && PyTuple_Check(o), "orient");
    t->orient_obj[0] = PyTuple_GET_ITEM(o, 0); Py_INCREF(t->orient_obj[0]);
    t->orient_obj[1] = PyTuple_GET_ITEM(o, 1); Py_INCREF(t->orient_obj[1]);
    if (!(t->place = kept(spec, "place")) || !(t->end_turn = kept(spec, "end_turn"))
        || !(t->bribe_type = kept(spec, "Bribe")) || !(t->discard_type = kept(spec, "Discard"))
        || !(t->tuple_new = kept(spec, "new")) || !(t->passes = kept(spec, "passes"))
        || !(t->ids = kept(spec, "ids")))
        goto fail;
    o = PyDict_GetItemString(spec, "new_maze");  /* (Maze, catalogue, Memo, forgotten, ((None,)...), PackedMaze) */
    CHECK(o && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 6 && PyType_Check(PyTuple_GET_ITEM(o, 0))
          && PyTuple_GET_SIZE(PyTuple_GET_ITEM(o, 4)) == 2 && PyType_Check(PyTuple_GET_ITEM(o, 5)),
          "new_maze");
    t->packed_type = PyTuple_GET_ITEM(o, 5); Py_INCREF(t->packed_type);
    t->maze_type = PyTuple_GET_ITEM(o, 0); Py_INCREF(t->maze_type);
    t->catalogue = PyTuple_GET_ITEM(o, 1); Py_INCREF(t->catalogue);
    t->memo_type = PyTuple_GET_ITEM(o, 2); Py_INCREF(t->memo_type);
    t->unkept = PyTuple_GET_ITEM(o, 3); Py_INCREF(t->unkept);
    for (int k = 0; k < 2; k++) { t->kept_none[k] = PyTuple_GET_ITEM(PyTuple_GET_ITEM(o, 4), k); Py_INCREF(t->kept_none[k]); }
    if (PyErr_Occurred()) goto fail;
    t->capsule = PyCapsule_New(t, "pysaboteur._core.DuelTables", dt_free);
    return t->capsule;
fail:
    PyMem_RawFree(t);
    return NULL;
}

/* ------------------------------------------------------------------ the working state */
static int16_t tile[NCELLS];            /* oriented tile, -1: none */
static int16_t hid[NCELLS];             /* face-down card id, -1: none */
static uint8_t reach[NCTX][NCELLS];     /* reached segments, per context */
static uint8_t rin[NCTX][NCELLS];       /* reach_in: edges a reached segment points in through */
static uint8_t blk[NCTX][NCELLS];       /* passage flags (NO_ENTER, NO_LEAVE) */
static uint32_t stamp[NCELLS], gen = 1;
static int touched[NCELLS], ntouched;
/* the cells touched, sorted (the frontier's order), brought up to date with touched[] when
   the frontier is next made (a round's touched cells only grow: a few new ones a time) */
static int tsorted[NCELLS], ntsorted;
static uint32_t mark[NCELLS], mgen = 1;
static int grid_ready;
/* each cell's fit constraint, kept until a neighbour's tile changes (cons_gen[c] == cgen) */
static uint32_t cons_gen[NCELLS], cgen = 1;
static uint8_t cons_val[NCELLS];

typedef struct { int n, cell[DMAXLIST], val[DMAXLIST]; } CellList;  /* a dict, in order */

typedef struct {
    DT *t;
    int seats, nctx, solo, colour[2], pool_of[2], npools, nnear, near[DMAXNEAR];
    int start_cell[NCTX], start_tile[NCTX], goal_cell[DMAXHID], ngoal, pools0[2];
    int deck_full;  /* the pile dealt by the core: written back whole */
    int hand[2][DMAXHAND], hn[2];
    int deck[DMAXDECK], ndeck, ndeck0;
    int front[2][DMAXFRONT], nfront[2];
    int order[DMAXORDER], norder;
    int hcell[DMAXHID], hcard[DMAXHID], nh;
    int scell[NCTX][DMAXSRC], smask[NCTX][DMAXSRC], ns[NCTX];
    long long version;
    CellList markers, bribes, keys, forced, gold, trolls;  /* gold, trolls: sets (val unused) */
    int keys_left, pools[2], bribes_made[2];
    int phase, pend_g, pend_n, pend_opt[2], resume, pending_draw, current, turn;
    /* what changed since the state was read (written back when the core stops) */
    int maze_dirty, front_dirty, lists_dirty, pools_dirty, made_dirty;
    int bail;
    long long fr_version[2];  /* each seat's frontier, kept until the maze changes */
    int fr[2][DMAXORDER * 4], frk[2][DMAXORDER * 4], nfr[2];
    uint64_t rng;
    PyObject *state, *discards, *passed, *history, *actors;
} W;

static inline void touch(int c) {
    if (stamp[c] != gen) { stamp[c] = gen; touched[ntouched++] = c; }
}

static void grid_reset(void) {
    if (!grid_ready) {
        for (int i = 0; i < NCELLS; i++) { tile[i] = -1; hid[i] = -1; }
        grid_ready = 1;
    }
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        tile[c] = -1; hid[c] = -1;
        for (int k = 0; k < NCTX; k++) { reach[k][c] = 0; rin[k][c] = 0; blk[k][c] = 0; }
    }
    ntouched = 0;
    ntsorted = 0;
    if (++gen == 0) { memset(stamp, 0, sizeof stamp); gen = 1; }
    if (++cgen == 0) { memset(cons_gen, 0, sizeof cons_gen); cgen = 1; }
}

static inline void next_mark(void) {
    if (++mgen == 0) { memset(mark, 0, sizeof mark); mgen = 1; }
}

static inline int near_edge(int gi) {
    int x = gi >> 8, y = gi & 255;
    return x < 3 || x > G - 4 || y < 3 || y > G - 4;
}

static inline int list_find(const CellList *l, int c) {
    for (int i = 0; i < l->n; i++) if (l->cell[i] == c) return i;
    return -1;
}
static inline void list_put(W *w, CellList *l, int c, int v) {  /* {**d, c: v} / set | {c} */
    int i = list_find(l, c);
    if (i >= 0) l->val[i] = v;
    else if (l->n < DMAXLIST) { l->cell[l->n] = c; l->val[l->n] = v; l->n++; }
    else w->bail = 1;
    w->lists_dirty = 1;
}
static inline void list_drop(W *w, CellList *l, int c) {  /* keeps the others' order */
    int i = list_find(l, c);
    if (i < 0) return;
    memmove(l->cell + i, l->cell + i + 1, sizeof(int) * (size_t)(l->n - i - 1));
    memmove(l->val + i, l->val + i + 1, sizeof(int) * (size_t)(l->n - i - 1));
    l->n--;
    w->lists_dirty = 1;
}

/* ------------------------------------------------------------------ the maze (engine/maze.py) */
static inline int is_source(W *w, int ctx, int c) {
    for (int i = 0; i < w->ns[ctx]; i++) if (w->scell[ctx][i] == c) return 1;
    return 0;
}

static int stackbuf[2 * 4 * DMAXORDER * 4];

/* Maze._spread: segments marked reached, depth first, honouring the passage flags */
static void spread(W *w, int ctx, int top) {
    DT *t = w->t;
    uint8_t *re = reach[ctx], *ri = rin[ctx], *bl = blk[ctx];
    while (top > 0) {
        top--;
        int c = stackbuf[2 * top], s = stackbuf[2 * top + 1];
        int bit = 1 << s;
        if (re[c] & bit) continue;
        int flags = bl[c];
        if ((flags & NO_ENTER) && !is_source(w, ctx, c)) continue;
        re[c] |= (uint8_t)bit;
        touch(c);
        if (flags & NO_LEAVE) continue;
        int seg = t->segs[tile[c]][s];
        for (int e = 0; e < 4; e++) {
            if (!(seg & EDGES[e])) continue;
            int n = c + DELTA[e], tn = tile[n];
            if (tn < 0) { ri[n] |= (uint8_t)OPP[e]; touch(n); }
            else {
                int s2 = t->seg_of_edge[tn][OPP[e]];
                if (s2 >= 0 && !((re[n] >> s2) & 1)) {
                    stackbuf[2 * top] = n; stackbuf[2 * top + 1] = s2; top++;
                }
            }
        }
    }
}

static void changed(W *w) {
    w->version++;
    w->maze_dirty = 1;
}

/* Maze.place: a face-up tile on c (empty or face-down), with its passage flags per context
   (blocks, or NULL) and the contexts it is a source of (a bit each) */
static void place(W *w, int c, int otile, const int *blocks, int source_for) {
    DT *t = w->t;
    changed(w);
    if (hid[c] >= 0) {
        hid[c] = -1;
        int k = 0;
        for (int i = 0; i < w->nh; i++)
            if (w->hcell[i] != c) { w->hcell[k] = w->hcell[i]; w->hcard[k] = w->hcard[i]; k++; }
        w->nh = k;
    }
    tile[c] = (int16_t)otile;
    for (int e = 0; e < 4; e++) cons_gen[c + DELTA[e]] = 0;
    touch(c);
    w->order[w->norder++] = c;
    if (near_edge(c) || w->norder >= DMAXORDER - 1) w->bail = 1;
    if (blocks != NULL)
        for (int k = 0; k < w->nctx; k++) if (blocks[k]) blk[k][c] = (uint8_t)blocks[k];
    for (int k = 0; k < w->nctx; k++) {
        int entry = rin[k][c], top = 0;
        rin[k][c] = 0;
        if ((source_for >> k) & 1) {
            if (w->ns[k] >= DMAXSRC) { w->bail = 1; continue; }
            w->scell[k][w->ns[k]] = c; w->smask[k][w->ns[k]] = (1 << t->nseg[otile]) - 1;
            w->ns[k]++;
            for (int s = 0; s < t->nseg[otile]; s++) {
                stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++;
            }
        } else if (!entry) continue;
        for (int e = 0; e < 4; e++)  /* cat.entered[entry]: the segments entered */
            if (entry & EDGES[e]) {
                int s = t->seg_of_edge[otile][EDGES[e]];
                if (s >= 0) { stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++; }
            }
        if (top) spread(w, k, top);
    }
}

/* Maze.recompute for one context: reach rebuilt from its sources (the version bumped by the
   caller, as Python's) */
static void recompute(W *w, int ctx) {
    DT *t = w->t;
    for (int i = 0; i < ntouched; i++) { reach[ctx][touched[i]] = 0; rin[ctx][touched[i]] = 0; }
    int top = 0;
    for (int i = 0; i < w->ns[ctx]; i++) {
        int c = w->scell[ctx][i];
        for (int s = 0; s < 4; s++)
            if ((w->smask[ctx][i] >> s) & 1 && s < t->nseg[tile[c]]) {
                stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++;
            }
    }
    spread(w, ctx, top);
}

/* Maze._lift's answer: could the tile just lifted off c (otile) have carried reach on in
   context ctx (its reached segments touch more than one reached segment)? */
static int carried(W *w, int ctx, int c, int otile) {
    DT *t = w->t;
    int mask = reach[ctx][c], seen_n[8], seen_s[8], nseen = 0;
    if (!mask) return 0;
    for (int s = 0; s < t->nseg[otile]; s++) {
        if (!((mask >> s) & 1)) continue;
        int seg = t->segs[otile][s];
        for (int e = 0; e < 4; e++) {
            if (!(seg & EDGES[e])) continue;
            int n = c + DELTA[e], tn = tile[n];
            if (tn < 0) continue;
            int s2 = t->seg_of_edge[tn][OPP[e]];
            if (s2 >= 0 && ((reach[ctx][n] >> s2) & 1)) {
                int dup = 0;
                for (int j = 0; j < nseen; j++) if (seen_n[j] == n && seen_s[j] == s2) dup = 1;
                if (!dup && nseen < 8) { seen_n[nseen] = n; seen_s[nseen] = s2; nseen++; }
            }
        }
    }
    return nseen > 1;
}

/* Maze.remove: the tile off c; reach recomputed (the same as Python's lift where that
   lifts, tests/test_maze.py), the version as Python's (one more when a context goes stale) */
static int remove_tile(W *w, int c) {
    changed(w);
    int otile = tile[c];
    tile[c] = -1;
    for (int e = 0; e < 4; e++) cons_gen[c + DELTA[e]] = 0;
    for (int i = 0; i < w->norder; i++)
        if (w->order[i] == c) {
            memmove(w->order + i, w->order + i + 1, sizeof(int) * (size_t)(w->norder - i - 1));
            w->norder--;
            break;
        }
    int stale = 0;
    for (int k = 0; k < w->nctx; k++) {
        int blocked = blk[k][c], source = 0, j = 0;
        blk[k][c] = 0;
        for (int i = 0; i < w->ns[k]; i++) {
            if (w->scell[k][i] == c) { source = 1; continue; }
            w->scell[k][j] = w->scell[k][i]; w->smask[k][j] = w->smask[k][i]; j++;
        }
        w->ns[k] = j;
        if (blocked || source || carried(w, k, c, otile)) stale = 1;
    }
    if (stale) w->version++;
    for (int k = 0; k < w->nctx; k++) recompute(w, k);
    return otile;
}

/* Maze.change_block: a tile's passage flags in one context, reach brought up to date */
static void change_block(W *w, int ctx, int c, int flags) {
    int old = blk[ctx][c];
    changed(w);  /* set_block */
    blk[ctx][c] = (uint8_t)flags;
    if (flags & ~old) w->version++;  /* recomputed; lifted flags push reach on: the same */
    if (flags != old) recompute(w, ctx);
}

static inline int constraint_of(W *w, int c) {
    if (cons_gen[c] != cgen) { cons_val[c] = (uint8_t)constraint_at(tile, w->t->open_mask, c); cons_gen[c] = cgen; }
    return cons_val[c];
}

/* tsorted brought up to date with touched[] */
static void sort_touched(void) {
    for (; ntsorted < ntouched; ntsorted++) {  /* (tsorted holds touched[0..ntsorted)) */
        int c = touched[ntsorted], lo = 0, hi = ntsorted;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (tsorted[mid] < c) lo = mid + 1; else hi = mid;
        }
        memmove(tsorted + lo + 1, tsorted + lo, sizeof(int) * (size_t)(ntsorted - lo));
        tsorted[lo] = c;
    }
}

/* DuelState._frontier: the empty cells the seat's reach points into, sorted, with their
   fit constraints */
static void frontier(W *w, int seat) {
    if (w->fr_version[seat] == w->version) return;
    int n = 0, *fr = w->fr[seat];
    sort_touched();
    for (int i = 0; i < ntsorted; i++) {
        int c = tsorted[i];
        if (rin[seat][c] && tile[c] < 0 && hid[c] < 0) fr[n++] = c;
    }
    for (int i = 0; i < n; i++) w->frk[seat][i] = constraint_of(w, fr[i]);
    w->nfr[seat] = n;
    w->fr_version[seat] = w->version;
}

/* ------------------------------------------------------------------ Python state in and out */
static int card_id(W *w, PyObject *code) {
    DT *t = w->t;  /* (a state's cards are mostly the core's own code objects: no hashing) */
    for (unsigned slot = ptr_slot(code); t->by_ptr[slot] != NULL; slot = (slot + 1) & (4 * DMAXC - 1))
        if (t->by_ptr[slot] == code) return t->id_by_ptr[slot];
    return code_id(t->ids, code);
}

/* a list of codes into ids (0; 1: more than max; -1: error) */
static int read_cards(W *w, PyObject *list, int *out, int *n, int max) {
    Py_ssize_t len = PyList_GET_SIZE(list);
    if (len > max) return 1;
    for (Py_ssize_t i = 0; i < len; i++) {
        int id = card_id(w, PyList_GET_ITEM(list, i));
        if (id < 0) return -1;
        out[i] = id;
    }
    *n = (int)len;
    return 0;
}

static int read_cells(PyObject *o, CellList *l) {  /* a dict {cell: int} or a set of cells */
    l->n = 0;
    if (PyDict_Check(o)) {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &k, &v)) {
            long pc = PyLong_AsLong(k);
            if (l->n >= DMAXLIST || !gi_ok(pc)) return 1;
            l->cell[l->n] = gi_of(pc); l->val[l->n] = (int)PyLong_AsLong(v); l->n++;
        }
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *it = PyObject_GetIter(o), *k;
    if (it == NULL) return -1;
    while ((k = PyIter_Next(it)) != NULL) {
        long pc = PyLong_AsLong(k);
        Py_DECREF(k);
        if (l->n >= DMAXLIST || !gi_ok(pc)) { Py_DECREF(it); return 1; }
        l->cell[l->n] = gi_of(pc); l->val[l->n] = 0; l->n++;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_ints(PyObject *st, const char *name, int *out, int n) {
    PyObject *o = get_attr(st, name);
    if (o == NULL) return -1;
    for (int i = 0; i < n; i++) out[i] = (int)PyLong_AsLong(PyList_GET_ITEM(o, i));
    Py_DECREF(o);
    return PyErr_Occurred() ? -1 : 0;
}

/* a {cell: int} dict of the maze's into the grid (0; 1: off the grid) */
static int read_grid(PyObject *d, uint8_t *grid) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &k, &v)) {
        long pc = PyLong_AsLong(k);
        if (!gi_ok(pc)) return 1;
        int c = gi_of(pc);
        grid[c] = (uint8_t)PyLong_AsLong(v);
        touch(c);
    }
    return 0;
}

static int load_packed(W *w, const int32_t *p);
static int packed_ints(DT *t, PyObject *packed, const int32_t **p);

static int read_maze(W *w) {
    PyObject *maze = get_attr(w->state, "maze");
    if (maze == NULL) return -1;
    int rc = -1;
    if (Py_TYPE(maze) == (PyTypeObject *)w->t->packed_type) {  /* still packed: read as is */
        PyObject *bl = PyObject_GenericGetAttr(maze, name_of("blocks"));  /* (tables, packed, cat) */
        const int32_t *p;
        if (bl != NULL) {
            if (!PyTuple_Check(bl) || PyTuple_GET_SIZE(bl) != 3 || PyTuple_GET_ITEM(bl, 0) != w->t->capsule)
                rc = 1;
            else if (packed_ints(w->t, PyTuple_GET_ITEM(bl, 1), &p) == 0)
                rc = load_packed(w, p);
        }
        Py_XDECREF(bl);
        Py_DECREF(maze);
        return rc;
    }
    PyObject *cells = NULL, *hidden = NULL, *order = NULL, *reachl = NULL, *rinl = NULL,
             *sources = NULL, *blocks = NULL, *version = NULL, *key, *val;
    Py_ssize_t pos = 0;
    if (!(cells = get_attr(maze, "cells")) || !(hidden = get_attr(maze, "hidden"))
        || !(order = get_attr(maze, "order")) || !(reachl = get_attr(maze, "reach"))
        || !(rinl = get_attr(maze, "reach_in")) || !(sources = get_attr(maze, "sources"))
        || !(blocks = get_attr(maze, "blocks")) || !(version = get_attr(maze, "version")))
        goto done;
    rc = 1;
    if (PyList_GET_SIZE(reachl) != w->nctx || PyList_GET_SIZE(order) >= DMAXORDER - 8
        || PyDict_GET_SIZE(hidden) > DMAXHID)
        goto done;
    w->version = PyLong_AsLongLong(version);
    while (PyDict_Next(cells, &pos, &key, &val)) {
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) goto done;
        int c = gi_of(pc);
        tile[c] = (int16_t)PyLong_AsLong(val);
        touch(c);
    }
    w->norder = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(order); i++)
        w->order[w->norder++] = gi_of(PyLong_AsLong(PyList_GET_ITEM(order, i)));
    pos = 0; w->nh = 0;
    while (PyDict_Next(hidden, &pos, &key, &val)) {
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) goto done;
        int c = gi_of(pc), id = card_id(w, val);
        if (id < 0) { rc = -1; goto done; }
        hid[c] = (int16_t)id;
        touch(c);
        w->hcell[w->nh] = c; w->hcard[w->nh] = id; w->nh++;
    }
    for (int k = 0; k < w->nctx; k++) {
        if (read_grid(PyList_GET_ITEM(reachl, k), reach[k]) || read_grid(PyList_GET_ITEM(rinl, k), rin[k])
            || read_grid(PyList_GET_ITEM(blocks, k), blk[k]))
            goto done;
        pos = 0; w->ns[k] = 0;
        while (PyDict_Next(PyList_GET_ITEM(sources, k), &pos, &key, &val)) {
            long pc = PyLong_AsLong(key);
            if (w->ns[k] >= DMAXSRC || !gi_ok(pc)) goto done;
            w->scell[k][w->ns[k]] = gi_of(pc); w->smask[k][w->ns[k]] = (int)PyLong_AsLong(val);
            w->ns[k]++;
        }
    }
    rc = PyErr_Occurred() ? -1 : 0;
done:
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(order); Py_XDECREF(reachl);
    Py_XDECREF(rinl); Py_XDECREF(sources); Py_XDECREF(blocks); Py_XDECREF(version);
    Py_DECREF(maze);
    return rc;
}

/* the state's round into the working state: 0; 1: a position the core does not take (played
   in Python); -1: error */
static int sync_in(W *w) {
    PyObject *st = w->state, *o;
    int rc;
    grid_reset();
    w->maze_dirty = w->front_dirty = w->lists_dirty = w->pools_dirty = w->made_dirty = 0;
    w->bail = 0;
    w->fr_version[0] = w->fr_version[1] = -1;
    if (!(o = get_attr(st, "hands"))) return -1;
    if (PyList_GET_SIZE(o) != w->seats) { Py_DECREF(o); return 1; }
    for (int s = 0; s < w->seats; s++)
        if ((rc = read_cards(w, PyList_GET_ITEM(o, s), w->hand[s], &w->hn[s], DMAXHAND - DMAXDECK))) {
            Py_DECREF(o); return rc;
        }
    Py_DECREF(o);
    if (!(o = get_attr(st, "in_front"))) return -1;
    for (int s = 0; s < w->seats; s++)
        if ((rc = read_cards(w, PyList_GET_ITEM(o, s), w->front[s], &w->nfront[s], DMAXFRONT - 1))) {
            Py_DECREF(o); return rc;
        }
    Py_DECREF(o);
    if (!(o = get_attr(st, "deck"))) return -1;
    rc = read_cards(w, o, w->deck, &w->ndeck, DMAXDECK);
    Py_DECREF(o);
    if (rc) return rc;
    w->ndeck0 = w->ndeck;
    static const char *lists[6] = {"markers", "bribes", "keys", "forced", "unclaimed_gold", "trolls"};
    CellList *ls[6] = {&w->markers, &w->bribes, &w->keys, &w->forced, &w->gold, &w->trolls};
    for (int i = 0; i < 6; i++) {
        if (!(o = get_attr(st, lists[i]))) return -1;
        rc = read_cells(o, ls[i]);
        Py_DECREF(o);
        if (rc) return rc;
    }
    if (read_ints(st, "pools", w->pools, w->npools) || read_ints(st, "bribes_made", w->bribes_made, w->seats)
        || attr_int(st, "keys_left", &w->keys_left) || attr_int(st, "phase", &w->phase)
        || attr_int(st, "resume", &w->resume) || attr_int(st, "pending_draw", &w->pending_draw)
        || attr_int(st, "current", &w->current) || attr_int(st, "turn", &w->turn))
        return -1;
    w->pend_n = 0;
    if (w->phase == ORIENT) {
        PyObject *p = get_attr(st, "pending");
        if (p == NULL) return -1;
        PyObject *opts = PyTuple_GET_ITEM(p, 1);
        w->pend_g = gi_of(PyLong_AsLong(PyTuple_GET_ITEM(p, 0)));
        w->pend_n = (int)PyTuple_GET_SIZE(opts);
        for (int i = 0; i < w->pend_n && i < 2; i++) w->pend_opt[i] = PyObject_IsTrue(PyTuple_GET_ITEM(opts, i));
        Py_DECREF(p);
        if (w->pend_n > 2) return 1;
    } else if (w->phase != MAIN && w->phase != AFTER) return 1;
    rc = read_maze(w);
    if (rc) return rc;
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *codes_list(DT *t, const int *ids, int n) {
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) { Py_INCREF(t->codes[ids[i]]); PyList_SET_ITEM(l, i, t->codes[ids[i]]); }
    return l;
}

/* a list of the state's lists (hands, in_front), each changed in place to ours: seat s's
   cards are rows[s * stride ...], ns[s] of them */
static int write_rows(W *w, const char *name, const int *rows, int stride, const int *ns) {
    PyObject *o = get_attr(w->state, name);
    if (o == NULL) return -1;
    for (int s = 0; s < w->seats; s++) {
        PyObject *nl = codes_list(w->t, rows + s * stride, ns[s]);
        int r = nl == NULL ? -1 : PyList_SetSlice(PyList_GET_ITEM(o, s), 0, PY_SSIZE_T_MAX, nl);
        Py_XDECREF(nl);
        if (r < 0) { Py_DECREF(o); return -1; }
    }
    Py_DECREF(o);
    return 0;
}

static PyObject *cell_dict(const CellList *l) {
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < l->n; i++)
        if (dict_set_ll(d, py_of(l->cell[i]), l->val[i]) < 0) { Py_DECREF(d); d = NULL; }
    return d;
}

static PyObject *cell_set(const CellList *l) {
    PyObject *s = PySet_New(NULL);
    for (int i = 0; s != NULL && i < l->n; i++) {
        PyObject *pc = PyLong_FromLong(py_of(l->cell[i]));
        if (pc == NULL || PySet_Add(s, pc) < 0) { Py_XDECREF(pc); Py_DECREF(s); return NULL; }
        Py_DECREF(pc);
    }
    return s;
}

static PyObject *int_list(const int *v, int n) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

/* ------------------------------------------------------------------ the packed maze */
/* A maze the core writes is packed, as classic.c's: int32s, the version (low, high), the
   contexts, the face-up cards in the order laid (cell, oriented tile), the face-down cards
   (cell, card id), then each context's sources (cell, segments), reached segments (cell,
   bits), the reach_in edges of empty cells (cell, bits) and the passage flags of face-up
   cells (cell, flags), each list after its length; cells are the grid's (gi); a context's
   last three lists in the order of the cells touched (the order its dictionaries had when
   the maze was written whole).  core/duel.py's PackedMaze holds it and makes it a plain
   Maze (duel_unpack_maze) the first time anything reads it; the core reads it back
   directly (load_packed), so a maze nobody reads (a play-out's last, a state dropped after
   its play-out, the first round of a match played out at once) is never made into
   dictionaries. */
static PyObject *pack_maze(W *w) {
    int cnt[NCTX][3] = {{0}};
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        for (int k = 0; k < w->nctx; k++) {
            cnt[k][0] += reach[k][c] != 0;
            cnt[k][1] += rin[k][c] && tile[c] < 0;
            cnt[k][2] += blk[k][c] && tile[c] >= 0;
        }
    }
    Py_ssize_t n = 5 + 2 * ((Py_ssize_t)w->norder + w->nh);
    for (int k = 0; k < w->nctx; k++) n += 4 + 2 * (w->ns[k] + cnt[k][0] + cnt[k][1] + cnt[k][2]);
    PyObject *b = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    if (b == NULL) return NULL;
    int32_t *p = (int32_t *)PyBytes_AS_STRING(b);
    *p++ = (int32_t)(uint32_t)w->version; *p++ = (int32_t)(w->version >> 32); *p++ = w->nctx;
    *p++ = w->norder;
    for (int i = 0; i < w->norder; i++) { *p++ = w->order[i]; *p++ = tile[w->order[i]]; }
    *p++ = w->nh;
    for (int i = 0; i < w->nh; i++) { *p++ = w->hcell[i]; *p++ = w->hcard[i]; }
    for (int k = 0; k < w->nctx; k++) {
        *p++ = w->ns[k];
        for (int i = 0; i < w->ns[k]; i++) { *p++ = w->scell[k][i]; *p++ = w->smask[k][i]; }
        *p++ = cnt[k][0];
        for (int i = 0; i < ntouched; i++) if (reach[k][touched[i]]) { *p++ = touched[i]; *p++ = reach[k][touched[i]]; }
        *p++ = cnt[k][1];
        for (int i = 0; i < ntouched; i++) {
            int c = touched[i];
            if (rin[k][c] && tile[c] < 0) { *p++ = c; *p++ = rin[k][c]; }
        }
        *p++ = cnt[k][2];
        for (int i = 0; i < ntouched; i++) {
            int c = touched[i];
            if (blk[k][c] && tile[c] >= 0) { *p++ = c; *p++ = blk[k][c]; }
        }
    }
    return b;
}

/* a packed maze's int32s, checked (the contexts 1 to NCTX, every length within the bytes,
   every cell on the grid, every tile and card known): 0, or -1 (a ValueError) */
static int packed_ints(DT *t, PyObject *packed, const int32_t **p) {
    if (!PyBytes_Check(packed) || PyBytes_GET_SIZE(packed) % (Py_ssize_t)sizeof(int32_t)) goto bad;
    const int32_t *v = (const int32_t *)PyBytes_AS_STRING(packed);
    Py_ssize_t n = PyBytes_GET_SIZE(packed) / (Py_ssize_t)sizeof(int32_t), at = 3;
    if (n < 3 || v[2] < 1 || v[2] > NCTX) goto bad;
    for (int part = 0; part < 2 + 4 * v[2]; part++) {
        if (at >= n) goto bad;
        int32_t k = v[at++];
        if (k < 0 || at + 2 * (Py_ssize_t)k > n) goto bad;
        for (int32_t i = 0; i < k; i++) {
            int32_t c = v[at + 2 * i], x = v[at + 2 * i + 1];
            if (c < 0 || c >= NCELLS || (part == 0 && (x < 0 || x >= t->notiles))
                || (part == 1 && (x < 0 || x >= t->ncards)))
                goto bad;
        }
        at += 2 * (Py_ssize_t)k;
    }
    if (at != n) goto bad;
    *p = v;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "duel core: a packed maze");
    return -1;
}

/* the grid of w from a packed maze (after grid_reset), the cells touched in read_maze's
   order for the same maze unpacked: 0; 1: more than the core takes */
static int load_packed(W *w, const int32_t *p) {
    w->version = (long long)(uint32_t)p[0] | ((long long)p[1] << 32);
    if (p[2] != w->nctx) return 1;
    p += 3;
    int k = *p++;
    if (k >= DMAXORDER - 8) return 1;
    w->norder = 0;
    for (int i = 0; i < k; i++, p += 2) { tile[p[0]] = (int16_t)p[1]; touch(p[0]); w->order[w->norder++] = p[0]; }
    k = *p++;
    if (k > DMAXHID) return 1;
    w->nh = 0;
    for (int i = 0; i < k; i++, p += 2) {
        hid[p[0]] = (int16_t)p[1]; touch(p[0]);
        w->hcell[w->nh] = p[0]; w->hcard[w->nh] = p[1]; w->nh++;
    }
    for (int x = 0; x < w->nctx; x++) {
        k = *p++;
        if (k > DMAXSRC) return 1;
        w->ns[x] = k;
        for (int i = 0; i < k; i++, p += 2) { w->scell[x][i] = p[0]; w->smask[x][i] = p[1]; }
        uint8_t *grids[3] = {reach[x], rin[x], blk[x]};
        for (int g = 0; g < 3; g++) {
            k = *p++;
            for (int i = 0; i < k; i++, p += 2) { grids[g][p[0]] = (uint8_t)p[1]; touch(p[0]); }
        }
    }
    return 0;
}

/* a cell's Python int (py_of), made once and kept: the maze's dicts are keyed by them */
static PyObject *cell_objs[NCELLS];
static inline PyObject *cell_obj(int c) {
    if (cell_objs[c] == NULL) cell_objs[c] = PyLong_FromLong(py_of(c));
    return cell_objs[c];
}

/* d[cell] = v (a small int: one of CPython's own) */
static inline int cell_set_small(PyObject *d, int c, long v) {
    PyObject *k = cell_obj(c), *x = PyLong_FromLong(v);
    int r = (k && x) ? PyDict_SetItem(d, k, x) : -1;
    Py_XDECREF(x);
    return r;
}

/* duel_unpack_maze(tables, packed) -> (cells, hidden, constraint, order, sources, blocks,
   reach, reach_in, version): a packed maze's dictionaries (the lists per context), the same
   entries in the same order as the maze the core wrote whole before it packed them
   (core/duel.py: PackedMaze) */
static int16_t utile[NCELLS], uhid[NCELLS];
static uint32_t umark[NCELLS], umgen;
static PyObject *duel_unpack_maze(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *caps, *packed;
    if (!PyArg_ParseTuple(args, "OO", &caps, &packed)) return NULL;
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    const int32_t *p;
    if (t == NULL || packed_ints(t, packed, &p) < 0) return NULL;
    static int ready, order[DMAXORDER], hcell[DMAXHID], hcard[DMAXHID];
    if (!ready) {
        for (int i = 0; i < NCELLS; i++) { utile[i] = -1; uhid[i] = -1; }
        ready = 1;
    }
    long long version = (long long)(uint32_t)p[0] | ((long long)p[1] << 32);
    int nctx = p[2], norder = p[3];
    const int32_t *laid = p + 4, *hidden_at = laid + 2 * norder + 1, *at;
    int nh = hidden_at[-1];
    if (norder > DMAXORDER || nh > DMAXHID) {
        PyErr_SetString(PyExc_ValueError, "duel core: a packed maze");
        return NULL;
    }
    for (int i = 0; i < norder; i++) { order[i] = laid[2 * i]; utile[order[i]] = (int16_t)laid[2 * i + 1]; }
    for (int i = 0; i < nh; i++) {
        hcell[i] = hidden_at[2 * i]; hcard[i] = hidden_at[2 * i + 1]; uhid[hcell[i]] = (int16_t)hcard[i];
    }
    PyObject *cells = PyDict_New(), *hidden = PyDict_New(), *cons = PyDict_New(),
             *orderl = PyList_New(norder), *lists[4] = {PyList_New(nctx), PyList_New(nctx),
                                                         PyList_New(nctx), PyList_New(nctx)},
             *out = NULL;
    int ok = cells && hidden && cons && orderl && lists[0] && lists[1] && lists[2] && lists[3];
    Board b = {utile, uhid, order, hcell, hcard, norder, nh, t->codes, t->open_mask, umark, &umgen};
    if (ok && board_dicts(&b, cells, orderl, hidden, cons) < 0) ok = 0;
    at = hidden_at + 2 * nh;
    /* each context's sources, reach, reach_in, blocks: packed in that order; returned as
       (sources, blocks, reach, reach_in) */
    static const int slot[4] = {0, 2, 3, 1};
    for (int k = 0; ok && k < nctx; k++)
        for (int g = 0; ok && g < 4; g++) {
            int m = *at++;
            PyObject *d = PyDict_New();
            if (d == NULL) { ok = 0; break; }
            PyList_SET_ITEM(lists[slot[g]], k, d);
            for (int i = 0; ok && i < m; i++, at += 2)
                if (cell_set_small(d, at[0], at[1]) < 0) ok = 0;
        }
    if (ok) out = Py_BuildValue("(OOOOOOOOL)", cells, hidden, cons, orderl, lists[0], lists[1],
                                lists[2], lists[3], version);
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(cons); Py_XDECREF(orderl);
    for (int g = 0; g < 4; g++) Py_XDECREF(lists[g]);
    for (int i = 0; i < norder; i++) utile[order[i]] = -1;
    for (int i = 0; i < nh; i++) uhid[hcell[i]] = -1;
    return out;
}

/* the state's new maze and its memo (a new (maze, memo) tuple): the maze packed (a
   PackedMaze, its blocks holding the tables, the packing and the catalogue), the Memo made
   by its class (a call into Python: release makes them while the state is still held,
   then writes them with no Python run between its class going back and the maze
   written) */
static PyObject *make_maze(W *w) {
    DT *t = w->t;
    PyTypeObject *tp = (PyTypeObject *)t->packed_type;
    PyObject *packed = pack_maze(w), *m = NULL, *blocks = NULL, *memo = NULL, *r = NULL;
    if (packed == NULL || !(m = tp->tp_alloc(tp, 0))
        || !(blocks = PyTuple_Pack(3, t->capsule, packed, t->catalogue))
        || PyObject_GenericSetAttr(m, name_of("blocks"), blocks) < 0
        || !(memo = PyObject_CallNoArgs(t->memo_type)))
        goto done;
    r = PyTuple_Pack(2, m, memo);
done:
    Py_XDECREF(packed); Py_XDECREF(m); Py_XDECREF(blocks); Py_XDECREF(memo);
    return r;
}

/* a (maze, memo) made written into the state: the maze and _mt into its dict, past a held
   state's properties; the maze's kept values dropped */
static int put_maze(W *w, PyObject *made) {
    DT *t = w->t;
    PyObject *st = w->state, *none = t->kept_none[w->seats > 1];
    PyObject *d = PyObject_GenericGetDict(st, NULL);
    int bad = d == NULL || PyDict_SetItem(d, name_of("maze"), PyTuple_GET_ITEM(made, 0)) < 0
              || PyDict_SetItem(d, name_of("_mt"), PyTuple_GET_ITEM(made, 1)) < 0;
    Py_XDECREF(d);
    if (bad || set_attr(st, "_forbidden", t->unkept) < 0 || set_attr(st, "_front", none) < 0
        || set_attr(st, "_doors", none) < 0 || set_attr(st, "_ladders", t->unkept) < 0)
        return -1;
    return 0;
}

static PyObject *made_maze;  /* (maze, memo) made ahead by release, or NULL */

static int write_maze(W *w) {
    PyObject *made = made_maze != NULL ? made_maze : make_maze(w);
    made_maze = NULL;
    if (made == NULL) return -1;
    int r = put_maze(w, made);
    Py_DECREF(made);
    if (r < 0) return -1;
    w->maze_dirty = 0;
    return 0;
}

/* the working state back into the Python state (the fields that change rarely as new
   objects: clones share the old ones) */
static int sync_out(W *w) {
    PyObject *st = w->state;
    if (write_rows(w, "hands", &w->hand[0][0], DMAXHAND, w->hn) < 0) return -1;
    if (w->front_dirty) {
        if (write_rows(w, "in_front", &w->front[0][0], DMAXFRONT, w->nfront) < 0) return -1;
        w->front_dirty = 0;
    }
    if (w->deck_full) {
        if (set_obj(st, "deck", codes_list(w->t, w->deck, w->ndeck)) < 0) return -1;
        w->deck_full = 0;
        w->ndeck0 = w->ndeck;
    } else if (w->ndeck != w->ndeck0) {
        if (trim_list(st, "deck", w->ndeck) < 0) return -1;
        w->ndeck0 = w->ndeck;
    }
    if (set_int(st, "phase", w->phase) || set_int(st, "resume", w->resume)
        || set_int(st, "pending_draw", w->pending_draw) || set_int(st, "current", w->current)
        || set_int(st, "turn", w->turn) || set_int(st, "keys_left", w->keys_left))
        return -1;
    if (write_pending(st, w->phase == ORIENT, w->pend_g, w->pend_n, w->pend_opt) < 0) return -1;
    if (w->pools_dirty) {
        if (set_obj(st, "pools", int_list(w->pools, w->npools)) < 0) return -1;
        w->pools_dirty = 0;
    }
    if (w->made_dirty) {
        if (set_obj(st, "bribes_made", int_list(w->bribes_made, w->seats)) < 0) return -1;
        w->made_dirty = 0;
    }
    if (w->lists_dirty) {
        if (set_obj(st, "markers", cell_dict(&w->markers)) < 0
            || set_obj(st, "bribes", cell_dict(&w->bribes)) < 0
            || set_obj(st, "keys", cell_dict(&w->keys)) < 0
            || set_obj(st, "forced", cell_dict(&w->forced)) < 0
            || set_obj(st, "unclaimed_gold", cell_set(&w->gold)) < 0
            || set_obj(st, "trolls", cell_set(&w->trolls)) < 0)
            return -1;
        w->lists_dirty = 0;
    }
    if (w->maze_dirty && write_maze(w) < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------------ the rules (DuelState) */
static int hand_remove(W *w, int seat, int card) {
    return remove_card(w->hand[seat], &w->hn[seat], card);
}

static int front_remove(W *w, int seat, int k) {
    memmove(&w->front[seat][k], &w->front[seat][k + 1], sizeof(int) * (size_t)(w->nfront[seat] - k - 1));
    w->nfront[seat]--;
    w->front_dirty = 1;
    return 0;
}

static inline int broken(W *w, int seat) {  /* DuelState.broken: a bit per tool */
    int b = 0;
    for (int i = 0; i < w->nfront[seat]; i++) b |= 1 << w->t->tools[w->front[seat][i]][0];
    return b;
}

static inline int discard(W *w, int card) {
    return w->discards == NULL ? 0 : PyList_Append(w->discards, w->t->codes[card]);
}

static inline int any_pools(W *w) {
    for (int i = 0; i < w->npools; i++) if (w->pools[i]) return 1;
    return 0;
}

static inline int hands_empty(W *w) {
    for (int s = 0; s < w->seats; s++) if (w->hn[s]) return 0;
    return 1;
}

/* DuelState._blocks: a tile's passage flags per context (0: None) */
static int blocks_of(W *w, int c, int otile, int *out) {
    DT *t = w->t;
    if (t->door[otile] >= 0) {
        int locked = list_find(&w->keys, c) < 0;
        for (int k = 0; k < w->nctx; k++) out[k] = locked && w->colour[k] != t->door[otile] ? NO_ENTER : 0;
        return 1;
    }
    if (t->troll[otile] && list_find(&w->bribes, c) < 0) {
        for (int k = 0; k < w->nctx; k++) out[k] = NO_LEAVE;
        return 1;
    }
    return 0;
}

static void refresh_blocks(W *w, int c) {
    int b[NCTX] = {0, 0};
    blocks_of(w, c, tile[c], b);
    for (int k = 0; k < w->nctx; k++) change_block(w, k, c, b[k]);
}

/* DuelState._is_joined_ladder (card): needs no connection */
static inline int joined_ladder(W *w, int card) {
    int colour = w->t->ladder[card];
    return colour >= 0 && (!w->solo || colour == w->colour[0]);
}

static void lay(W *w, int c, int otile) {
    DT *t = w->t;
    int source_for = 0, b[NCTX] = {0, 0};
    if (t->oladder[otile] >= 0 && joined_ladder(w, t->otile_card[otile]))
        for (int k = 0; k < w->nctx; k++) if (w->colour[k] == t->oladder[otile]) source_for = 1 << k;
    int has = (t->door[otile] >= 0 || t->troll[otile]) && blocks_of(w, c, otile, b);
    place(w, c, otile, has ? b : NULL, source_for);
    if (t->gold[otile]) list_put(w, &w->gold, c, 0);
    else if (t->troll[otile] && list_find(&w->bribes, c) < 0) list_put(w, &w->trolls, c, 0);
}

static int rockfall(W *w, int c) {
    int otile = remove_tile(w, c);
    if (discard(w, w->t->otile_card[otile]) < 0) return -1;
    if (list_find(&w->keys, c) >= 0) {  /* the key returns to the supply */
        list_drop(w, &w->keys, c);
        w->keys_left++;
    }
    return 0;
}

static inline int reaches(W *w, int ctx, int c) {  /* DuelState._reaches */
    if (reach[ctx][c]) return 1;
    int i = list_find(&w->forced, c);
    return i >= 0 && ((w->forced.val[i] >> ctx) & 1) && !(blk[ctx][c] & NO_ENTER);
}

static void claim(W *w, int actor) {
    DT *t = w->t;
    if (!w->gold.n) return;
    for (int j = 0; j < w->seats; j++) {
        int seat = j == 0 ? actor : (j <= actor ? j - 1 : j);
        int found[DMAXLIST], nf = 0;
        for (int i = 0; i < w->gold.n; i++)
            if (reaches(w, seat, w->gold.cell[i])) found[nf++] = w->gold.cell[i];
        if (!nf) continue;
        w->pools_dirty = 1; w->lists_dirty = 1;
        for (int a = 1; a < nf; a++) {  /* by gold, most first, then by cell */
            int c = found[a], g = t->gold[tile[c]], b = a;
            while (b > 0 && (t->gold[tile[found[b - 1]]] < g
                             || (t->gold[tile[found[b - 1]]] == g && found[b - 1] > c))) {
                found[b] = found[b - 1]; b--;
            }
            found[b] = c;
        }
        int pool = w->pool_of[seat];
        for (int i = 0; i < nf; i++) {
            if (!w->pools[pool]) break;
            w->pools[pool]--;
            list_put(w, &w->markers, found[i], seat);
            list_drop(w, &w->gold, found[i]);
        }
    }
}

/* goal_orientations: the rotated flags the face-down goal on g may lie */
static int goal_ways(W *w, int g, int *opts) {
    DT *t = w->t;
    int card = hid[g], facing = 0;
    for (int x = 0; x < w->nctx; x++) facing |= rin[x][g];  /* every context's */
    return goal_ways_of(t->norient[card], t->orot[card], t->ootile[card], t->open_mask, t->fits,
                        constraint_of(w, g), facing, opts);
}

static int reveal(W *w, int g, int rotated) {
    DT *t = w->t;
    int card = hid[g], reached_by = 0, b[NCTX] = {0, 0};
    for (int k = 0; k < w->nctx; k++) if (rin[k][g]) reached_by |= 1 << k;
    int otile = t->otile_of[card][rotated ? 1 : 0];
    int has = blocks_of(w, g, otile, b);
    place(w, g, otile, has ? b : NULL, 0);
    list_put(w, &w->forced, g, reached_by);
    if (t->gold[otile]) list_put(w, &w->gold, g, 0);
    if (w->state == NULL) return 0;  /* a search's sample: no Python state to tell */
    /* goals_seen = [*goals_seen, code] */
    PyObject *seen = get_attr(w->state, "goals_seen");
    if (seen == NULL) return -1;
    PyObject *ns = PyList_GetSlice(seen, 0, PY_SSIZE_T_MAX);
    Py_DECREF(seen);
    if (ns == NULL || PyList_Append(ns, t->codes[card]) < 0 || set_obj(w->state, "goals_seen", ns) < 0)
        return -1;
    return 0;
}

/* DuelState._settle: claims and reveals until nothing changes; GO_ON, STOP (a goal's
   orientation to decide) or ROUND_END (-1: error) */
static int settle(W *w, int actor) {
    for (;;) {
        if (!any_pools(w)) return ROUND_END;
        claim(w, actor);
        if (!any_pools(w)) return ROUND_END;
        int g = -1;
        for (int i = 0; i < w->nh; i++) {
            int c = w->hcell[i], hit = 0;
            for (int k = 0; k < w->nctx; k++) hit |= rin[k][c];
            if (hit && (g < 0 || c < g)) g = c;
        }
        if (g < 0) break;
        int opts[2] = {0, 0}, n = goal_ways(w, g, opts);
        if (n > 1) {
            w->phase = ORIENT;
            w->pend_g = g; w->pend_n = n; w->pend_opt[0] = opts[0]; w->pend_opt[1] = opts[1];
            w->current = actor;
            return STOP;
        }
        if (reveal(w, g, opts[0]) < 0) return -1;
    }
    return w->nh ? GO_ON : ROUND_END;
}

/* DuelState._bribable: the trolls the seat reaches, sorted, when it has markers */
static int bribable(W *w, int seat, int *out) {
    if (!w->trolls.n || !w->pools[w->pool_of[seat]]) return 0;
    int n = 0;
    for (int i = 0; i < w->trolls.n; i++) {
        int c = w->trolls.cell[i];
        if (!reach[seat][c]) continue;
        int j = n++;
        while (j > 0 && out[j - 1] > c) { out[j] = out[j - 1]; j--; }
        out[j] = c;
    }
    return n;
}

/* DuelState._solo_draw: sabotage and rockfall act when drawn and are replaced */
static int solo_draw(W *w, int seat, int n) {
    DT *t = w->t;
    for (int k = 0; k < n; k++)
        while (w->ndeck > 0) {
            int card = w->deck[--w->ndeck];
            if (t->effect[card] == D_BREAK) {
                if ((broken(w, seat) >> t->tools[card][0]) & 1) {
                    if (discard(w, card) < 0) return -1;  /* a duplicate has no effect */
                } else {
                    w->front[seat][w->nfront[seat]++] = card;
                    w->front_dirty = 1;
                    if (w->nfront[seat] >= DMAXFRONT - 1) w->bail = 1;
                }
                continue;
            }
            if (t->effect[card] == D_ROCKFALL) {
                if (discard(w, card) < 0) return -1;
                for (int i = w->norder - 1; i >= 0; i--)
                    if (t->removable[tile[w->order[i]]]) {
                        if (rockfall(w, w->order[i]) < 0) return -1;
                        break;
                    }
                continue;
            }
            w->hand[seat][w->hn[seat]++] = card;
            break;
        }
    return 0;
}

/* DuelState._end_turn: GO_ON or ROUND_END (-1: error) */
static int end_turn(W *w) {
    if (w->solo) {
        if (solo_draw(w, w->turn, w->pending_draw) < 0) return -1;
    } else
        for (int k = 0; k < w->pending_draw && w->ndeck > 0; k++)
            w->hand[w->turn][w->hn[w->turn]++] = w->deck[--w->ndeck];
    w->pending_draw = 0;
    if (!w->ndeck && hands_empty(w)) return ROUND_END;
    int nxt = (w->turn + 1) % w->seats;
    while (!w->hn[nxt]) nxt = (nxt + 1) % w->seats;
    w->turn = w->current = nxt;
    w->phase = MAIN;
    return GO_ON;
}

static int after_main(W *w) {
    static int cells[DMAXLIST];
    if (!w->ndeck && hands_empty(w)) return ROUND_END;
    if (w->trolls.n && bribable(w, w->turn, cells)) {
        w->phase = AFTER;
        w->current = w->turn;
        return GO_ON;
    }
    return end_turn(w);
}

static int resume(W *w) {
    if (w->resume == RESUME_MAIN) {
        w->phase = MAIN;
        w->current = w->turn;
        return GO_ON;
    }
    return after_main(w);
}

static int bribe(W *w, int seat, int c) {
    list_put(w, &w->bribes, c, seat);
    list_drop(w, &w->trolls, c);
    w->bribes_made[seat]++;
    w->made_dirty = 1;
    w->pools[w->pool_of[seat]]--;
    w->pools_dirty = 1;
    refresh_blocks(w, c);
    w->resume = w->phase == MAIN ? RESUME_MAIN : RESUME_AFTER;
    int r = settle(w, seat);
    return r == GO_ON ? resume(w) : r == STOP ? GO_ON : r;
}

/* ------------------------------------------------------------------ the menu */
typedef struct { int count, tag, a, off; } Entry;

typedef struct {
    Entry e[DMAXMENU];
    int n;
    int buf[DMAXORDER * 8], nbuf;        /* cells (and repairs' tools) of the entries */
    int fitc[DMAXORDER * 4], nfit;       /* the placements' cells, with their tiles */
    uint64_t fitm[DMAXORDER * 4];
    int fitn[DMAXORDER * 4];             /* (how many tiles each) */
    int hd[DMAXHAND], mult[DMAXHAND], nk;
    unsigned gen;                        /* which menu this is (build_menu's count) */
} Menu;

/* the bits set in x (inline: without -mpopcnt, __builtin_popcountll is a libgcc call) */
static inline int bits64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* core.h's kinds_of for card ids below 64 (DMAXC): a hand's distinct cards, sorted, each
   with its count, read off a bit set */
static inline int hand_kinds(const int *cards, int n, int *hd, int *mult) {
    static int count[DMAXC];
    uint64_t seen = 0;
    for (int i = 0; i < n; i++) { seen |= 1ULL << cards[i]; count[cards[i]]++; }
    int nk = 0;
    while (seen) {
        int id = __builtin_ctzll(seen);
        seen &= seen - 1;
        hd[nk] = id; mult[nk] = count[id]; count[id] = 0; nk++;
    }
    return nk;
}

/* a few ints sorted in place (insertion: the lists are short and nearly sorted) */
static inline void sort_ints(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int x = a[i], j = i;
        while (j > 0 && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
}

static inline void add(Menu *m, int count, int tag, int a, int off) {
    m->e[m->n++] = (Entry){count, tag, a, off};
}

/* the cells a ladder may not take (DuelState._ladder_forbidden): marked */
static void mark_forbidden(W *w) {
    next_mark();
    for (int i = 0; i < w->nnear; i++) mark[w->near[i]] = mgen;
    const CellList *ls[2] = {&w->gold, &w->markers};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < ls[l]->n; i++)
            for (int e = 0; e < 4; e++) mark[ls[l]->cell[i] + DELTA[e]] = mgen;
}

static int placement_menu(W *w, int seat, Menu *m) {
    DT *t = w->t;
    int colour = w->colour[seat], ladders[4], nl = 0;
    uint64_t tiles = 0;
    for (int i = 0; i < m->nk; i++) {
        int c = m->hd[i];
        if (t->tiles_for[colour][c]) tiles |= t->tiles_for[colour][c];
        else if (t->ladder_for[colour][c] && nl < 4) ladders[nl++] = c;
    }
    if (!tiles && !nl) return 0;
    frontier(w, seat);
    int *fr = w->fr[seat], *frk = w->frk[seat], nfr = w->nfr[seat];
    if (tiles) {
        int total = 0, first = m->nfit;
        for (int j = 0; j < nfr; j++) {
            uint64_t f = t->fitset[frk[j]] & tiles;
            if (f) {
                int k = bits64(f);
                m->fitc[m->nfit] = fr[j]; m->fitm[m->nfit] = f; m->fitn[m->nfit] = k; m->nfit++;
                total += k;
            }
        }
        if (total) add(m, total, T_FIT, m->nfit - first, first);
    }
    for (int l = 0; l < nl; l++) {
        int card = ladders[l], cells[DMAXORDER * 4], nc = 0;
        mark_forbidden(w);
        if (joined_ladder(w, card)) {  /* _ladder_cells: empty cells next to a face-up card */
            int stamp2 = mgen;
            next_mark();  /* (the forbidden marks kept apart: a second generation) */
            for (int i = 0; i < w->norder; i++)
                for (int e = 0; e < 4; e++) {
                    int c = w->order[i] + DELTA[e];
                    if (tile[c] >= 0 || hid[c] >= 0 || mark[c] == mgen || mark[c] == (uint32_t)stamp2) continue;
                    mark[c] = mgen;
                    cells[nc++] = c;
                }
            sort_ints(cells, nc);
        } else  /* solo: the other colour's ladder, a path card with a ladder's limits */
            for (int j = 0; j < nfr; j++) if (mark[fr[j]] != mgen) cells[nc++] = fr[j];
        for (int o = 0; o < t->norient[card]; o++) {
            int otile = t->ootile[card][o], om = t->open_mask[otile], off = m->nbuf, k = 0;
            for (int j = 0; j < nc; j++)
                if (t->fits[constraint_of(w, cells[j])][om]) m->buf[m->nbuf + k++] = cells[j];
            if (k) { m->nbuf += k; add(m, k, T_PLACE, otile, off); }
        }
    }
    return 0;
}

static void action_menu(W *w, int seat, int card, Menu *m) {
    DT *t = w->t;
    int off = m->nbuf, n = 0;
    switch (t->effect[card]) {
    case D_BREAK:
        if (!w->solo && !((broken(w, 1 - seat) >> t->tools[card][0]) & 1)) add(m, 1, T_BREAK, card, 0);
        return;
    case D_REPAIR: {
        if (!w->nfront[seat]) return;
        int b = broken(w, seat);
        for (int k = 0; k < t->ntools[card]; k++) if ((b >> t->tools[card][k]) & 1) m->buf[off + n++] = k;
        if (n) { m->nbuf += n; add(m, n, T_REPAIR, card, off); }
        return;
    }
    case D_KEY:  /* the other colour's doors without a key, in the maze's order */
        if (!w->keys_left) return;
        for (int i = 0; i < w->norder; i++) {
            int c = w->order[i], d = t->door[tile[c]];
            if (d >= 0 && d != w->colour[seat] && list_find(&w->keys, c) < 0) m->buf[off + n++] = c;
        }
        break;
    case D_ROCKFALL:
        for (int i = 0; i < w->norder; i++)
            if (t->removable[tile[w->order[i]]]) m->buf[off + n++] = w->order[i];
        break;
    case D_MAP:
        for (int i = 0; i < w->nh; i++) m->buf[off + n++] = w->hcell[i];
        sort_ints(m->buf + off, n);
        break;
    default:
        return;
    }
    if (n) { m->nbuf += n; add(m, n, T_CELL, card, off); }
}


/* DuelState._menu */
static int build_menu(W *w, Menu *m) {
    DT *t = w->t;
    int seat = w->current;
    static unsigned menus;
    m->n = 0; m->nbuf = 0; m->nfit = 0; m->nk = 0;
    m->gen = ++menus ? menus : ++menus;  /* (0: none yet) */
    if (w->phase == ORIENT) { add(m, w->pend_n, T_ORIENT, 0, 0); return 0; }
    if (w->trolls.n) {
        int n = bribable(w, seat, m->buf);
        if (n) { m->nbuf = n; add(m, n, T_BRIBE, 0, 0); }
    }
    if (w->phase == AFTER) { add(m, 1, T_END, 0, 0); return 0; }
    m->nk = hand_kinds(w->hand[seat], w->hn[seat], m->hd, m->mult);
    if (!w->nfront[seat] && placement_menu(w, seat, m) < 0) return -1;
    for (int i = 0; i < m->nk; i++)
        if (t->category[m->hd[i]] == C_ACTION) action_menu(w, seat, m->hd[i], m);
    if (w->nfront[seat] && w->hn[seat] >= 2) {  /* discard 2 to remove a card in front */
        int off = m->nbuf, n = 0;
        for (int i = 0; i < w->nfront[seat]; i++) {  /* sorted(set(front)) */
            int id = w->front[seat][i], j, dup = 0;
            for (j = 0; j < n; j++) if (m->buf[off + j] == id) dup = 1;
            if (dup) continue;
            j = n++;
            while (j > 0 && m->buf[off + j - 1] > id) { m->buf[off + j] = m->buf[off + j - 1]; j--; }
            m->buf[off + j] = id;
        }
        m->nbuf += n;
        add(m, pair_count(m->mult, m->nk) * n, T_DISCARD, n, off);
    }
    if (m->nk) add(m, m->nk + pair_count(m->mult, m->nk), T_PASS, 0, 0);
    return 0;
}

/* ------------------------------------------------------------------ one decision */
static PyObject *placement(DT *t, int c, int otile) {
    PyObject *key = PyLong_FromLong((py_of(c) << 8) | otile);
    if (key == NULL) return NULL;
    PyObject *a = PyObject_GetItem(t->place, key);
    Py_DECREF(key);
    return a;
}

static PyObject *cell_action(DT *t, int card, int c) {
    PyObject *k = PyLong_FromLong(py_of(c));
    if (k == NULL) return NULL;
    PyObject *a = PyObject_GetItem(t->cell_acts[card], k);
    Py_DECREF(k);
    return a;
}

/* the main option's end (DuelState._apply after its effect): settled, then the turn goes on */
static int main_done(W *w, int seat, int settle_now) {
    w->resume = RESUME_AFTER;
    if (settle_now) {
        int r = settle(w, seat);
        if (r != GO_ON) return r == STOP ? GO_ON : r;
    }
    return after_main(w);
}

/* the cell and oriented tile of a placement entry's i-th action (-1: none) */
static int placement_at(const Menu *m, const Entry *e, int i, int *otile) {
    if (e->tag == T_PLACE) { *otile = e->a; return m->buf[e->off + i]; }
    /* (a decision asks twice: for its action, then to apply it) */
    static unsigned last_gen;
    static const Entry *last_e;
    static int last_i = -1, last_c, last_ot;
    if (m->gen == last_gen && e == last_e && i == last_i) { *otile = last_ot; return last_c; }
    last_gen = m->gen; last_e = e; last_i = i;
    for (int j = e->off, at = i; j < e->off + e->a; j++) {
        if (at < m->fitn[j]) {
            uint64_t f = m->fitm[j];
            for (int d = 0; d < at; d++) f &= f - 1;  /* drop the lowest tiles */
            *otile = last_ot = __builtin_ctzll(f);
            return last_c = m->fitc[j];
        }
        at -= m->fitn[j];
    }
    last_i = -1;
    return -1;
}

/* the cards of a pass entry's i-th action: how many (1 or 2) */
static inline int pass_at(const Menu *m, int i, int *cs) {
    if (i < m->nk) { cs[0] = m->hd[i]; return 1; }
    nth_pair(m->hd, m->mult, m->nk, i - m->nk, cs);
    return 2;
}

/* a menu entry's i-th action as one number: two actions have the same key exactly when the
   Python actions they are equal (the search's tree keys its moves by it) */
static int64_t action_key(const W *w, const Menu *m, const Entry *e, int i) {
    switch (e->tag) {
    case T_ORIENT: return (int64_t)w->pend_opt[i];
    case T_BRIBE: return (int64_t)1 << 56 | m->buf[e->off + i];
    case T_END: return (int64_t)2 << 56;
    case T_FIT: case T_PLACE: {
        int otile = 0, c = placement_at(m, e, i, &otile);
        return (int64_t)3 << 56 | (int64_t)c << 8 | otile;
    }
    case T_BREAK: return (int64_t)4 << 56 | e->a << 8 | (1 - w->current) << 4;
    case T_REPAIR: return (int64_t)4 << 56 | e->a << 8 | w->current << 4 | m->buf[e->off + i];
    case T_CELL: return (int64_t)5 << 56 | (int64_t)e->a << 20 | m->buf[e->off + i];
    case T_DISCARD: {
        int np = pair_count(m->mult, m->nk), pair[2] = {0, 0};
        nth_pair(m->hd, m->mult, m->nk, i % np, pair);
        return (int64_t)6 << 56 | pair[0] << 16 | pair[1] << 8 | m->buf[e->off + i / np];
    }
    default: {  /* T_PASS */
        int cs[2] = {0, 0}, n = pass_at(m, i, cs);
        return (int64_t)7 << 56 | (n == 1 ? cs[0] + 1 : (cs[0] + 1) << 8 | (cs[1] + 1));
    }
    }
}

/* the actions made from a table look-up or a call (placements, cell actions, bribes,
   discards, passes of two), kept by action_key: the same object for the same action, as the
   pure menus' tables hand out (bribes and discards, made anew there, are equal values) */
#define ACACHE_MOST (1 << 20)
typedef struct { int64_t key; PyObject *action; } CachedAction;
static CachedAction *acache;
static size_t acache_cap, acache_used;

static PyObject *cached_action(int64_t key) {
    if (acache == NULL) return NULL;
    size_t mask = acache_cap - 1, i = (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
    for (;;) {
        CachedAction *a = &acache[i];
        if (a->action == NULL) return NULL;
        if (a->key == key) return a->action;
        i = (i + 1) & mask;
    }
}

static void keep_action(int64_t key, PyObject *action) {  /* kept for the process's life */
    if (acache_used >= ACACHE_MOST) return;
    if (2 * (acache_used + 1) > acache_cap) {
        size_t cap = acache_cap ? 2 * acache_cap : 4096;
        CachedAction *na = PyMem_RawCalloc(cap, sizeof(CachedAction));
        if (na == NULL) return;
        for (size_t j = 0; j < acache_cap; j++) {
            if (acache[j].action == NULL) continue;
            size_t i = (size_t)(((uint64_t)acache[j].key * 0x9E3779B97F4A7C15ULL) >> 20) & (cap - 1);
            while (na[i].action != NULL) i = (i + 1) & (cap - 1);
            na[i] = acache[j];
        }
        PyMem_RawFree(acache);
        acache = na; acache_cap = cap;
    }
    size_t mask = acache_cap - 1, i = (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
    while (acache[i].action != NULL) i = (i + 1) & mask;
    acache[i].key = key; acache[i].action = action;
    Py_INCREF(action);
    acache_used++;
}

static PyObject *make_action(const W *w, const Menu *m, const Entry *e, int i);

/* a menu entry's i-th action: the Python action the pure menus hand out (a new reference) */
static PyObject *action_of(const W *w, const Menu *m, const Entry *e, int i) {
    PyObject *action;
    switch (e->tag) {
    case T_ORIENT:
        action = w->t->orient_obj[w->pend_opt[i]];
        break;
    case T_END:
        action = w->t->end_turn;
        break;
    case T_BREAK: case T_REPAIR: {
        int card = e->a, target = e->tag == T_BREAK ? 1 - w->current : w->current;
        int k = e->tag == T_BREAK ? 0 : m->buf[e->off + i];
        action = w->t->on_player[card][target][w->t->ntools[card] > 1 ? k : 0];
        break;
    }
    case T_PASS:
        if (i < m->nk) { action = w->t->single[m->hd[i]]; break; }
        /* fall through: a pair */
    default: {
        int64_t key = action_key(w, m, e, i);
        action = cached_action(key);
        if (action == NULL) {
            action = make_action(w, m, e, i);
            if (action != NULL) keep_action(key, action);
            return action;
        }
    }
    }
    Py_INCREF(action);
    return action;
}

/* a menu entry's i-th action made (a new reference) */
static PyObject *make_action(const W *w, const Menu *m, const Entry *e, int i) {
    DT *t = w->t;
    PyObject *action;
    switch (e->tag) {
    case T_ORIENT:
        action = t->orient_obj[w->pend_opt[i]]; Py_INCREF(action);
        return action;
    case T_BRIBE: {
        int c = m->buf[e->off + i];
        return PyObject_CallFunction(t->bribe_type, "ll", (long)((c >> 8) - OFF), (long)((c & 255) - OFF));
    }
    case T_END:
        Py_INCREF(t->end_turn);
        return t->end_turn;
    case T_FIT: case T_PLACE: {
        int otile = 0, c = placement_at(m, e, i, &otile);
        if (c < 0) { PyErr_SetString(PyExc_AssertionError, "duel core: placement"); return NULL; }
        return placement(t, c, otile);
    }
    case T_BREAK: case T_REPAIR: {
        int card = e->a, target = e->tag == T_BREAK ? 1 - w->current : w->current;
        int k = e->tag == T_BREAK ? 0 : m->buf[e->off + i];
        action = t->on_player[card][target][t->ntools[card] > 1 ? k : 0]; Py_INCREF(action);
        return action;
    }
    case T_CELL:
        return cell_action(t, e->a, m->buf[e->off + i]);
    case T_DISCARD: {  /* by card removed, then pair */
        int np = pair_count(m->mult, m->nk), pair[2] = {0, 0}, gone = m->buf[e->off + i / np];
        nth_pair(m->hd, m->mult, m->nk, i % np, pair);
        return PyObject_CallFunction(t->tuple_new, "O((OO)O)", t->discard_type, t->codes[pair[0]],
                                     t->codes[pair[1]], t->codes[gone]);
    }
    case T_PASS: {
        int cs[2] = {0, 0}, n = pass_at(m, i, cs);
        if (n == 1) { action = t->single[cs[0]]; Py_INCREF(action); return action; }
        PyObject *combo = Py_BuildValue("(OO)", t->codes[cs[0]], t->codes[cs[1]]);
        if (combo == NULL) return NULL;
        action = PyObject_GetItem(t->passes, combo);  /* moves._PASSES: made once */
        Py_DECREF(combo);
        return action;
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "duel core: menu tag");
        return NULL;
    }
}

/* a menu entry's i-th action applied (the state's _apply): GO_ON or ROUND_END (-1: error) */
static int apply_entry(W *w, const Menu *m, const Entry *e, int i) {
    DT *t = w->t;
    int seat = w->current;
    switch (e->tag) {
    case T_ORIENT: {  /* GoalReveals._orient, then DuelState._resume */
        int rotated = w->pend_opt[i];
        w->phase = MAIN;
        w->pend_n = 0;
        if (reveal(w, w->pend_g, rotated) < 0) return -1;
        int res = settle(w, seat);
        return res == GO_ON ? resume(w) : res == STOP ? GO_ON : res;
    }
    case T_BRIBE:
        return bribe(w, seat, m->buf[e->off + i]);
    case T_END:
        return end_turn(w);
    case T_FIT: case T_PLACE: {
        int otile = 0, c = placement_at(m, e, i, &otile);
        if (c < 0) { PyErr_SetString(PyExc_AssertionError, "duel core: placement"); return -1; }
        w->pending_draw = 1;
        if (hand_remove(w, seat, t->otile_card[otile]) < 0) return -1;
        lay(w, c, otile);
        return main_done(w, seat, 1);
    }
    case T_BREAK: case T_REPAIR: {
        int card = e->a, target = e->tag == T_BREAK ? 1 - seat : seat;
        int k = e->tag == T_BREAK ? 0 : m->buf[e->off + i];
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0) return -1;
        if (e->tag == T_BREAK) {
            w->front[target][w->nfront[target]++] = card;
            w->front_dirty = 1;
            if (w->nfront[target] >= DMAXFRONT - 1) w->bail = 1;
        } else {
            int tool = t->tools[card][k], j = 0;
            while (t->tools[w->front[target][j]][0] != tool) j++;
            int gone = w->front[target][j];
            front_remove(w, target, j);
            if (discard(w, card) < 0 || discard(w, gone) < 0) return -1;
        }
        return main_done(w, seat, 0);
    }
    case T_CELL: {
        int card = e->a, c = m->buf[e->off + i], settle_now = 0;
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || discard(w, card) < 0) return -1;
        if (t->effect[card] == D_MAP) {
            if (w->state != NULL && see_card(w->state, seat, py_of(c), t->codes[hid[c]]) < 0) return -1;
        } else if (t->effect[card] == D_ROCKFALL) {
            if (rockfall(w, c) < 0) return -1;
        } else {  /* a key */
            w->keys_left--;
            list_put(w, &w->keys, c, seat);
            refresh_blocks(w, c);
            settle_now = 1;
        }
        return main_done(w, seat, settle_now);
    }
    case T_DISCARD: {  /* by card removed, then pair */
        int np = pair_count(m->mult, m->nk), pair[2] = {0, 0}, gone = m->buf[e->off + i / np];
        nth_pair(m->hd, m->mult, m->nk, i % np, pair);
        w->pending_draw = 1;
        if (hand_remove(w, seat, pair[0]) < 0 || hand_remove(w, seat, pair[1]) < 0) return -1;
        int j = 0;
        while (w->front[seat][j] != gone) j++;
        front_remove(w, seat, j);
        if (discard(w, pair[0]) < 0 || discard(w, pair[1]) < 0 || discard(w, gone) < 0) return -1;
        return main_done(w, seat, 0);
    }
    case T_PASS: {
        int cs[2] = {0, 0}, n = pass_at(m, i, cs);
        PyObject *mine = w->passed != NULL ? PyList_GET_ITEM(w->passed, seat) : NULL;
        for (int k = 0; k < n; k++)
            if (hand_remove(w, seat, cs[k]) < 0
                || (mine != NULL && PyList_Append(mine, t->codes[cs[k]]) < 0))
                return -1;
        w->pending_draw = n;
        w->resume = RESUME_AFTER;
        return after_main(w);
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "duel core: menu tag");
        return -1;
    }
}

/* the i-th action of the menu's entry e applied for the seat deciding, and logged (the
   actor; the caller appends the action to the history): GO_ON or ROUND_END (-1: error) */
static int act(W *w, const Menu *m, const Entry *e, int i, PyObject **action_out) {
    PyObject *actor = PyLong_FromLong(w->current);  /* the actor is logged first (DuelState._apply) */
    if (actor == NULL || PyList_Append(w->actors, actor) < 0) { Py_XDECREF(actor); return -1; }
    Py_DECREF(actor);
    PyObject *action = action_of(w, m, e, i);
    if (action == NULL) return -1;
    int res = apply_entry(w, m, e, i);
    if (res < 0 || PyErr_Occurred()) { Py_DECREF(action); return -1; }
    *action_out = action;
    return res;
}

/* one decision: picks, applies and logs its action; GO_ON or ROUND_END (-1: error) */
static int decide(W *w, int even, PyObject **action_out) {
    static Menu m;
    if (build_menu(w, &m) < 0) return -1;
    if (m.n == 0) { PyErr_SetString(PyExc_AssertionError, "duel core: no legal action"); return -1; }
    int i, k = core_pick(&w->rng, m.e, sizeof(Entry), m.n, even, &i);
    return act(w, &m, &m.e[k], i, action_out);
}

/* ------------------------------------------------------------------ a round's set-up */
/* DuelState._setup_round's marker: the state's _end_round calls it (an instance attribute
   for the call's length) where Python would set the next round up; the core does that */
static int setup_called;
static PyObject *setup_marker(PyObject *self, PyObject *noargs) {
    (void)self; (void)noargs;
    setup_called = 1;
    Py_RETURN_NONE;
}
static PyMethodDef marker_def = {"_setup_round", setup_marker, METH_NOARGS, NULL};
static PyObject *marker;

static PyObject *empty_rows(int n, PyObject *(*make)(void)) {  /* [make() for each seat] */
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *x = make();
        if (x == NULL) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}
static PyObject *new_list(void) { return PyList_New(0); }
/* a round's log (each seat's passes, the discards): with room for most rounds' */
#define ROUND_LOG 32
static PyObject *new_log(void) { return list_with_room(ROUND_LOG); }

static int read_piles(W *w);

/* DuelState._setup_round for a round without a fixed deal (the state's generator ``rs``):
   the same numbers drawn, the same cards, the same maze */
static int setup_round(W *w, uint64_t *rs) {
    DT *t = w->t;
    PyObject *st = w->state;
    int round_no;
    if (attr_int(st, "_round", &round_no) < 0 || set_int(st, "_round", round_no + 1) < 0) return -1;
    grid_reset();
    w->maze_dirty = 1; w->front_dirty = 1; w->lists_dirty = 1; w->pools_dirty = 1; w->made_dirty = 1;
    w->bail = 0; w->fr_version[0] = w->fr_version[1] = -1;
    w->norder = 0; w->nh = 0; w->version = 0;
    for (int k = 0; k < w->nctx; k++) {
        w->ns[k] = 0;
        place(w, w->start_cell[k], w->start_tile[k], NULL, 1 << k);
    }
    /* the next goals: goals_left = goals_left.copy(); round_goals = the last ones popped */
    PyObject *left = get_attr(st, "goals_left");
    if (left == NULL) return -1;
    Py_ssize_t nl = PyList_GET_SIZE(left);
    if (nl < w->ngoal) { Py_DECREF(left); PyErr_SetString(PyExc_ValueError, "duel core: goals"); return -1; }
    PyObject *rest = PyList_GetSlice(left, 0, nl - w->ngoal), *goals = PyList_New(w->ngoal);
    if (rest == NULL || goals == NULL) { Py_DECREF(left); Py_XDECREF(rest); Py_XDECREF(goals); return -1; }
    for (int i = 0; i < w->ngoal; i++) {
        PyObject *code = PyList_GET_ITEM(left, nl - 1 - i);
        Py_INCREF(code);
        PyList_SET_ITEM(goals, i, code);
        int id = card_id(w, code), c = w->goal_cell[i];
        if (id < 0) { Py_DECREF(left); Py_DECREF(rest); Py_DECREF(goals); return -1; }
        w->version++;  /* put_hidden */
        hid[c] = (int16_t)id;
        touch(c);
        w->hcell[w->nh] = c; w->hcard[w->nh] = id; w->nh++;
    }
    Py_DECREF(left);
    if (set_obj(st, "goals_left", rest) < 0 || set_obj(st, "round_goals", goals) < 0) return -1;
    /* the round's cards, less the gold taken out of the game (the players', the paid) */
    int n = t->nround;
    memcpy(w->deck, t->round_cards, sizeof(int) * (size_t)n);
    PyObject *gold = get_attr(st, "gold"), *paid = get_attr(st, "paid");
    if (gold == NULL || paid == NULL) { Py_XDECREF(gold); Py_XDECREF(paid); return -1; }
    for (Py_ssize_t p = 0; p <= PyList_GET_SIZE(gold); p++) {
        PyObject *pile = p < PyList_GET_SIZE(gold) ? PyList_GET_ITEM(gold, p) : paid;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pile); i++) {
            int id = card_id(w, PyList_GET_ITEM(pile, i));
            if (id < 0) { Py_DECREF(gold); Py_DECREF(paid); return -1; }
            if (!t->deck_path[id]) continue;
            for (int j = 0; j < n; j++)
                if (w->deck[j] == id) {
                    memmove(w->deck + j, w->deck + j + 1, sizeof(int) * (size_t)(n - j - 1));
                    n--;
                    break;
                }
        }
    }
    Py_DECREF(gold); Py_DECREF(paid);
    shuffle_ids(rs, w->deck, n);
    w->ndeck = n;
    w->deck_full = 1;
    /* the round's fresh fields */
    for (int s = 0; s < w->seats; s++) { w->hn[s] = 0; w->nfront[s] = 0; w->bribes_made[s] = 0; }
    w->markers.n = w->bribes.n = w->keys.n = w->forced.n = w->gold.n = w->trolls.n = 0;
    w->keys_left = t->key_tokens;
    for (int i = 0; i < w->npools; i++) w->pools[i] = w->pools0[i];
    w->phase = MAIN; w->pend_n = 0; w->resume = RESUME_AFTER; w->pending_draw = 0;
    if (set_obj(st, "hands", empty_rows(w->seats, new_list)) < 0
        || set_obj(st, "discards", new_log()) < 0
        || set_obj(st, "passed", empty_rows(w->seats, new_log)) < 0
        || set_obj(st, "in_front", empty_rows(w->seats, new_list)) < 0
        || set_obj(st, "seen", empty_rows(w->seats, PyDict_New)) < 0
        || read_piles(w) < 0)
        return -1;
    PyObject *aside = PyList_New(0);
    if (aside == NULL) return -1;
    if (w->solo) {  /* cards set aside from the top; the hand drawn by solo's rules */
        for (int i = 0; i < t->solo_aside && w->ndeck > 0; i++)
            if (PyList_Append(aside, t->codes[w->deck[--w->ndeck]]) < 0) { Py_DECREF(aside); return -1; }
        for (int i = 0; i < t->hand_size; i++)
            if (solo_draw(w, w->turn, 1) < 0) { Py_DECREF(aside); return -1; }
    } else {  /* deal_round: the j-th card from the top to seat turn + j % seats */
        int k = t->hand_size * w->seats < w->ndeck ? t->hand_size * w->seats : w->ndeck;
        for (int j = 0; j < k; j++) {
            int seat = (w->turn + j % w->seats) % w->seats;
            w->hand[seat][w->hn[seat]++] = w->deck[w->ndeck - 1 - j];
        }
        w->ndeck -= k;
    }
    if (set_obj(st, "aside", aside) < 0) return -1;
    w->current = w->turn;
    return 0;
}

/* a list's first ``code`` out (list.remove) */
static int list_remove(PyObject *list, PyObject *code) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        int eq = PyObject_RichCompareBool(PyList_GET_ITEM(list, i), code, Py_EQ);
        if (eq < 0) return -1;
        if (eq) return PyList_SetSlice(list, i, i + 1, NULL);
    }
    PyErr_SetString(PyExc_ValueError, "duel core: a payment not in hand");
    return -1;
}

static int card_value(W *w, PyObject *code) {
    int id = card_id(w, code);
    return id < 0 ? -1 : w->t->value[id];
}

/* games/duel/state.py's choose_payment: the gold cards (``mine``, their values ``v``) paying
   ``debt`` with no change, least excess, then fewest cards, the first such in the order
   itertools.product tries the counts of each value (values ascending, the last fastest);
   among equal cards the oldest go.  A new list (NULL: error). */
static PyObject *choose_payment(PyObject *mine, const int *v, int n, int debt) {
    int sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    if (sum <= debt) return PyList_GetSlice(mine, 0, PY_SSIZE_T_MAX);
    int vals[8], size[8], nv = 0;  /* the distinct values, ascending, with their counts */
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < nv && vals[j] < v[i]) j++;
        if (j < nv && vals[j] == v[i]) { size[j]++; continue; }
        if (nv == 8) { PyErr_SetString(PyExc_ValueError, "duel core: gold values"); return NULL; }
        memmove(vals + j + 1, vals + j, sizeof(int) * (size_t)(nv - j));
        memmove(size + j + 1, size + j, sizeof(int) * (size_t)(nv - j));
        vals[j] = v[i]; size[j] = 1; nv++;
    }
    int counts[8] = {0}, best[8] = {0}, best_excess = -1, best_cards = 0;
    for (;;) {
        int total = 0, cards = 0;
        for (int j = 0; j < nv; j++) { total += vals[j] * counts[j]; cards += counts[j]; }
        if (total >= debt && (best_excess < 0 || total - debt < best_excess
                              || (total - debt == best_excess && cards < best_cards))) {
            best_excess = total - debt; best_cards = cards;
            memcpy(best, counts, sizeof counts);
        }
        int j = nv - 1;  /* the next counts, the last value fastest */
        while (j >= 0 && counts[j] == size[j]) counts[j--] = 0;
        if (j < 0) break;
        counts[j]++;
    }
    PyObject *pay = PyList_New(0);
    for (int j = 0; pay != NULL && j < nv; j++)
        for (int i = 0, taken = 0; i < n && taken < best[j]; i++)
            if (v[i] == vals[j]) {
                if (PyList_Append(pay, PyList_GET_ITEM(mine, i)) < 0) { Py_DECREF(pay); return NULL; }
                taken++;
            }
    return pay;
}

/* last_round's holder (DuelState._round_end): views.LaterRoundEnd.by(core/duel.py's _ended,
   round_no, pieces), the round's pieces packed in one bytes object of C ints that _ended reads
   when last_round is first read (most rounds' ends, a play-out's, never are): the reason
   (0 markers, 1 goals, 2 exhausted, as DuelState._round_end decides), the face-up cells
   (cell, oriented tile) as laid, the face-down ones (cell, card id), the markers, bribes and
   keys (cell, seat), each seat's cards in front (ids); each list after its length */
static PyObject *round_end_record(W *w, int round_no) {
    DT *t = w->t;
    const CellList *lists[3] = {&w->markers, &w->bribes, &w->keys};
    Py_ssize_t n = 4 + 2 * (Py_ssize_t)(w->norder + w->nh) + w->seats;
    for (int l = 0; l < 3; l++) n += 1 + 2 * lists[l]->n;
    for (int s = 0; s < w->seats; s++) n += w->nfront[s];
    PyObject *blob = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int));
    if (blob == NULL) return NULL;
    int *v = (int *)PyBytes_AS_STRING(blob), k = 0, left = 0;
    for (int p = 0; p < w->npools; p++) left |= w->pools[p];
    v[k++] = !left ? 0 : w->nh == 0 ? 1 : 2;
    v[k++] = w->norder;
    for (int i = 0; i < w->norder; i++) { v[k++] = (int)py_of(w->order[i]); v[k++] = tile[w->order[i]]; }
    v[k++] = w->nh;
    for (int i = 0; i < w->nh; i++) { v[k++] = (int)py_of(w->hcell[i]); v[k++] = w->hcard[i]; }
    for (int l = 0; l < 3; l++) {
        v[k++] = lists[l]->n;
        for (int i = 0; i < lists[l]->n; i++) { v[k++] = (int)py_of(lists[l]->cell[i]); v[k++] = lists[l]->val[i]; }
    }
    v[k++] = w->seats;
    for (int s = 0; s < w->seats; s++) {
        v[k++] = w->nfront[s];
        for (int i = 0; i < w->nfront[s]; i++) v[k++] = w->front[s][i];
    }
    /* LaterRoundEnd.by(_ended, round_no, blob) without a Python frame: its instance made by
       its type's tp_new and its three slots set as ``by`` sets them (core/duel.py checks the
       class is still that) */
    PyTypeObject *type = (PyTypeObject *)t->later;
    PyObject *args = Py_BuildValue("(iN)", round_no, blob), *empty = PyTuple_New(0), *r = NULL;
    if (args != NULL && empty != NULL && (r = type->tp_new(type, empty, NULL)) != NULL
        && (PyObject_GenericSetAttr(r, name_of("make"), t->ended) < 0
            || PyObject_GenericSetAttr(r, name_of("args"), args) < 0
            || PyObject_GenericSetAttr(r, name_of("made"), Py_None) < 0))
        Py_CLEAR(r);
    Py_XDECREF(args); Py_XDECREF(empty);
    return r;
}

/* RoundResult(round, earned, {"bribes": made, "paid": fees, "totals": totals}) (made
   stolen), without the call of its dataclass __init__ (a Python frame and a dict of keyword
   arguments, a third of a round's end in C): the instance made by its type's tp_new and its
   three fields set in __init__'s order, what that __init__ does (core/duel.py checks that the
   class is still the plain dataclass of these three fields, without __post_init__) */
static PyObject *round_result(DT *t, int round_no, PyObject *earned, PyObject *made,
                              PyObject *fees, PyObject *totals) {
    PyTypeObject *type = (PyTypeObject *)t->round_result;
    PyObject *details = made == NULL ? NULL : PyDict_New(), *round = PyLong_FromLong(round_no),
             *empty = PyTuple_New(0), *rr = NULL;
    if (details == NULL || round == NULL || empty == NULL
        || PyDict_SetItem(details, name_of("bribes"), made) < 0
        || PyDict_SetItem(details, name_of("paid"), fees) < 0
        || PyDict_SetItem(details, name_of("totals"), totals) < 0
        || (rr = type->tp_new(type, empty, NULL)) == NULL)
        goto done;
    if (set_attr(rr, "round", round) < 0 || set_attr(rr, "gold", earned) < 0
        || set_attr(rr, "details", details) < 0)
        Py_CLEAR(rr);
done:
    Py_XDECREF(made); Py_XDECREF(details); Py_XDECREF(round); Py_XDECREF(empty);
    return rr;
}

/* DuelState._end_round (the gold claimed, the trolls paid, the goals left out, the round's
   record; who begins the next round, or the match over), written into the state; the next
   round is the caller's */
static int end_round(W *w) {
    DT *t = w->t;
    PyObject *st = w->state, *gold = NULL, *paid = NULL, *out = NULL, *results = NULL,
             *goals = NULL, *earned = NULL, *fees = NULL, *totals = NULL, *x;
    int round_no, rc = -1, earn[2] = {0, 0}, fee[2] = {0, 0}, total[2] = {0, 0};
    if (attr_int(st, "_round", &round_no) < 0) return -1;
    if (!(x = get_attr(st, "gold"))) return -1;
    gold = PyList_New(w->seats);
    for (int s = 0; gold != NULL && s < w->seats; s++)
        PyList_SET_ITEM(gold, s, PyList_GetSlice(PyList_GET_ITEM(x, s), 0, PY_SSIZE_T_MAX));
    Py_DECREF(x);
    if (gold == NULL) return -1;
    for (int s = 0; s < w->seats; s++) if (PyList_GET_ITEM(gold, s) == NULL) goto done;
    if (!(x = get_attr(st, "paid"))) goto done;
    paid = PyList_GetSlice(x, 0, PY_SSIZE_T_MAX);
    Py_DECREF(x);
    if (paid == NULL) goto done;
    for (int i = 0; i < w->markers.n; i++) {  /* the claimed gold, in the markers' order */
        int seat = w->markers.val[i], card = t->otile_card[tile[w->markers.cell[i]]];
        if (PyList_Append(PyList_GET_ITEM(gold, seat), t->codes[card]) < 0) goto done;
        earn[seat] += t->value[card];
    }
    for (int s = 0; s < w->seats; s++) {  /* the bribes paid: choose_payment */
        PyObject *mine = PyList_GET_ITEM(gold, s);
        if (w->bribes_made[s] > 0) {
            int v[DMAXDECK], n = (int)PyList_GET_SIZE(mine);
            if (n > DMAXDECK) { PyErr_SetString(PyExc_ValueError, "duel core: gold"); goto done; }
            for (int i = 0; i < n; i++) if ((v[i] = card_value(w, PyList_GET_ITEM(mine, i))) < 0) goto done;
            PyObject *pay = choose_payment(mine, v, n, w->bribes_made[s]);
            if (pay == NULL) goto done;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(pay); i++) {
                PyObject *code = PyList_GET_ITEM(pay, i);
                int v = card_value(w, code);
                if (v < 0 || list_remove(mine, code) < 0 || PyList_Append(paid, code) < 0) {
                    Py_DECREF(pay); goto done;
                }
                fee[s] += v;
            }
            Py_DECREF(pay);
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(mine); i++) {
            int v = card_value(w, PyList_GET_ITEM(mine, i));
            if (v < 0) goto done;
            total[s] += v;
        }
    }
    /* the round's goals not claimed leave the game (the last board stays on show) */
    int last = round_no >= t->rounds;
    if (!(x = get_attr(st, "out"))) goto done;
    out = PyList_GetSlice(x, 0, PY_SSIZE_T_MAX);
    Py_DECREF(x);
    if (out == NULL || !(goals = get_attr(st, "round_goals"))) goto done;
    for (Py_ssize_t i = 0; !last && i < PyList_GET_SIZE(goals); i++) {
        PyObject *code = PyList_GET_ITEM(goals, i);
        int claimed = 0, id = card_id(w, code);  /* (equal codes: the same id) */
        if (id < 0) goto done;
        for (int k = 0; k < w->markers.n && !claimed; k++)
            claimed = t->otile_card[tile[w->markers.cell[k]]] == id;
        if (!claimed && PyList_Append(out, code) < 0) goto done;
    }
    /* the round's record: RoundResult(round, earned, {bribes, paid, totals}) */
    if (!(x = get_attr(st, "results"))) goto done;
    results = PyList_GetSlice(x, 0, PY_SSIZE_T_MAX);
    Py_DECREF(x);
    if (results == NULL || !(earned = int_list(earn, w->seats)) || !(fees = int_list(fee, w->seats))
        || !(totals = int_list(total, w->seats)))
        goto done;
    PyObject *rr = round_result(t, round_no, earned, int_list(w->bribes_made, w->seats), fees, totals);
    if (rr == NULL || PyList_Append(results, rr) < 0) { Py_XDECREF(rr); goto done; }
    Py_DECREF(rr);
    if (set_attr(st, "gold", gold) < 0 || set_attr(st, "paid", paid) < 0
        || set_attr(st, "out", out) < 0 || set_attr(st, "results", results) < 0
        || set_obj(st, "_last_round", round_end_record(w, round_no)) < 0)
        goto done;
    if (last) {  /* the match is over */
        w->phase = MAIN;
        w->pend_n = 0;
        if (set_attr(st, "terminal", Py_True) < 0) goto done;
    } else if (!w->solo) {  /* the poorer seat begins the next round; on a tie, the tie colour's */
        int lo = total[0] < total[1] ? total[0] : total[1], n = 0, who = 0;
        for (int s = 0; s < w->seats; s++) if (total[s] == lo) { n++; who = s; }
        if (n != 1)
            for (int s = 0; s < w->seats; s++) if (w->colour[s] == t->tie_colour) who = s;
        w->turn = who;
    }
    rc = 0;
done:
    Py_XDECREF(gold); Py_XDECREF(paid); Py_XDECREF(out); Py_XDECREF(results); Py_XDECREF(goals);
    Py_XDECREF(earned); Py_XDECREF(fees); Py_XDECREF(totals);
    return rc;
}

/* the state's generator through a set-up: the chooser's when it is the state's own */
static int setup_with(W *w, int shared) {
    if (shared) return setup_round(w, &w->rng);
    uint64_t s;
    PyObject *srng = get_attr(w->state, "rng");
    if (srng == NULL) return -1;
    int bad = get_rng(srng, &s) < 0 || setup_round(w, &s) < 0 || put_rng(srng, s) < 0;
    Py_DECREF(srng);
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ the play-out */
static int release_resident(void);  /* the rollout API's state given back (it uses the grid) */
static int hold_state(W *w, PyObject *ctx, int terminal, int said_ok);  /* a state left there */
static int is_resident(PyObject *state);  /* is ``state`` the rollout API's? */

static int read_game(W *w, PyObject *game) {
    /* (solo, each seat's colour, each seat's pool, the cells next to a goal, each context's
       start (cell, tile), the goals' cells, the pools of a new round) */
    PyObject *colours = PyTuple_GET_ITEM(game, 1), *pools = PyTuple_GET_ITEM(game, 2),
             *near = PyTuple_GET_ITEM(game, 3);
    w->solo = PyObject_IsTrue(PyTuple_GET_ITEM(game, 0));
    w->seats = w->nctx = (int)PyTuple_GET_SIZE(colours);
    w->nnear = (int)PyTuple_GET_SIZE(near);
    if (w->seats < 1 || w->seats > 2 || w->nnear > DMAXNEAR) return 1;
    w->npools = 1;
    for (int s = 0; s < w->seats; s++) {
        w->colour[s] = (int)tuple_long(colours, s);
        w->pool_of[s] = (int)tuple_long(pools, s);
        if (w->pool_of[s] + 1 > w->npools) w->npools = w->pool_of[s] + 1;
    }
    for (int i = 0; i < w->nnear; i++) {
        long pc = tuple_long(near, i);
        if (!gi_ok(pc)) return 1;
        w->near[i] = gi_of(pc);
    }
    PyObject *starts = PyTuple_GET_ITEM(game, 4), *goals = PyTuple_GET_ITEM(game, 5),
             *pools0 = PyTuple_GET_ITEM(game, 6);
    for (int k = 0; k < w->nctx; k++) {
        PyObject *st = PyTuple_GET_ITEM(starts, k);
        w->start_cell[k] = gi_of(tuple_long(st, 0));
        w->start_tile[k] = (int)tuple_long(st, 1);
    }
    w->ngoal = (int)PyTuple_GET_SIZE(goals);
    if (w->ngoal != w->t->goals_per_round) return 1;
    for (int i = 0; i < w->ngoal; i++) w->goal_cell[i] = gi_of(tuple_long(goals, i));
    for (int i = 0; i < w->npools; i++) w->pools0[i] = (int)tuple_long(pools0, i);
    return PyErr_Occurred() ? -1 : 0;
}

static int read_piles(W *w) {
    Py_XDECREF(w->discards); Py_XDECREF(w->passed);
    w->discards = get_attr(w->state, "discards");
    w->passed = get_attr(w->state, "passed");
    return w->discards && w->passed ? 0 : -1;
}

static int adopt(PyObject *state);  /* the rollout API's state taken over by a play-out */
static W rw;                        /* the rollout API's working state (below) */
static int rfixed;       /* the resident state's match has a fixed deal (Python ends its rounds) */
static int rterminal;    /* the resident state's match is over (a play-out's last position) */

/* ``ctx``: core/duel.py's rollout context (the state left held when the play-out stops:
   hold_state), or None (written back) */
static PyObject *play(PyObject *state, PyObject *rng, int until, int even, DT *t, PyObject *game,
                      PyObject *ctx) {
    /* a state the rollout API holds (a new match's first round, a play-out's last position
       are left there) is played on from the core's copy, read from nothing: its class
       back; any other is read into rw (nothing is held: duel_play_out gave it back) */
    int adopted = adopt(state), held = 0, over = 0, said_ok = adopted;  /* (said[]: hold_state) */
    if (adopted < 0) return NULL;
    W *w = &rw;
    if (!adopted) {
        w->t = t; w->state = state; w->deck_full = 0;
        w->discards = w->passed = w->history = w->actors = NULL;
    }
    int shared, fixed;
    {
        PyObject *own = get_attr(state, "rng"), *deal = get_attr(state, "deal");
        shared = own == rng;
        fixed = deal != Py_None;
        Py_XDECREF(own); Py_XDECREF(deal);
        if (own == NULL || deal == NULL) goto error;
    }
    long played = 0;
    int finished = 1, terminal, round0, round_no, rc;
    if (state_flags(state, &terminal, &round0) < 0) goto error;
    round_no = round0;
    if (!adopted) {
        if (terminal) return Py_BuildValue("(lO)", 0L, Py_True);
        if ((rc = read_game(w, game)) != 0) {
            if (rc < 0) return NULL;
            return Py_BuildValue("(lO)", 0L, Py_False);
        }
        if (read_piles(w) < 0 || !(w->history = get_attr(state, "history"))
            || !(w->actors = get_attr(state, "actors")))
            goto error;
    }
    if (get_rng(rng, &w->rng) < 0) goto error;
    /* the logs with room for most play-outs' decisions (a round's, a match's) */
    Py_ssize_t more = until ? 64 : 160;
    if (list_reserve(w->history, PyList_GET_SIZE(w->history) + more) < 0
        || list_reserve(w->actors, PyList_GET_SIZE(w->actors) + more) < 0)
        goto error;
    if (!adopted) {
        rc = sync_in(w);
        if (rc < 0) goto error;
        if (rc > 0) { finished = 0; goto out; }
    }
    for (;;) {
        PyObject *action = NULL;
        int res = decide(w, even, &action);
        if (res < 0) goto error;
        played++;
        if (res == ROUND_END && (!fixed || round_no == t->rounds)) {
            /* the round ended here and, where the match goes on, the next set up (the
               state's maze, hands and the round's fields are written when the core stops) */
            int bad = end_round(w) < 0 || PyList_Append(w->history, action) < 0;
            Py_DECREF(action);
            if (bad) goto error;
            if (round_no == t->rounds) { over = 1; break; }  /* the match is over: written back below */
            if (setup_with(w, shared) < 0) goto error;
            round_no++;
            if (until) break;  /* written back below */
            continue;
        }
        if (res == ROUND_END) {
            /* the state as Python's has it when _end_round is called; then the action logged */
            said_ok = 0;
            if (sync_out(w) < 0 || put_rng(rng, w->rng) < 0) { Py_DECREF(action); goto error; }
            /* where the match has no fixed deal, the next round is set up here: the
               state's call of _setup_round is answered by the marker */
            setup_called = 0;
            int bad = !fixed && set_attr(state, "_setup_round", marker) < 0;
            PyObject *r = bad ? NULL : PyObject_CallMethod(state, "_end_round", NULL);
            bad = r == NULL || (!fixed && del_attr(state, "_setup_round") < 0)
                  || PyList_Append(w->history, action) < 0;
            Py_XDECREF(r);
            Py_DECREF(action);
            if (bad || get_rng(rng, &w->rng) < 0 || state_flags(state, &terminal, &round_no) < 0)
                goto error;
            if (setup_called) {  /* (_end_round chose who begins it) */
                if (attr_int(state, "turn", &w->turn) < 0 || setup_with(w, shared) < 0) goto error;
                if (until) { finished = 1; break; }  /* written back below */
                continue;
            }
            if (terminal || (until && round_no != round0)) goto done;  /* Python's state is whole */
            if (read_piles(w) < 0) goto error;
            rc = sync_in(w);
            if (rc < 0) goto error;
            if (rc > 0) { finished = 0; goto out; }
            continue;
        }
        int a = PyList_Append(w->history, action);
        Py_DECREF(action);
        if (a < 0) goto error;
        if (w->bail) { finished = 0; break; }
    }
    if (!w->bail && ctx != Py_None) {  /* left on the core, written when read (hold_state) */
        if (hold_state(w, ctx, over, said_ok) < 0) goto error;
        rfixed = fixed;
        held = 1;
    } else if (sync_out(w) < 0) goto error;
out:
    if (put_rng(rng, w->rng) < 0) goto error;
done:
    if (!held) { Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors); }
    return Py_BuildValue("(lO)", played, finished ? Py_True : Py_False);
error:
    Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors);
    return NULL;
}

/* duel_play_out(state, rng, until_round_end, even, tables, game, ctx=None) -> (played,
 * finished); with ``ctx`` (core/duel.py's rollout context) the state is left held where the
 * play-out stops (hold_state).  finished False: the core stopped at a position it does not
 * take (written back), and the caller plays the rest in Python. */
static PyObject *duel_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *rng, *caps, *game, *ctx = Py_None;
    int until, even;
    if (!PyArg_ParseTuple(args, "OOppOO!|O", &state, &rng, &until, &even, &caps, &PyTuple_Type, &game, &ctx))
        return NULL;
    if (ctx != Py_None && (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != 3)) {
        PyErr_SetString(PyExc_TypeError, "duel core: the rollout API's context");
        return NULL;
    }
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    if (t == NULL) return NULL;
    /* one working state for the process: a play-out asked for while another thread's work is
       in a call into Python waits for it; one asked for from this thread's own call into
       Python is played in Python instead */
    if (wait_core()) return Py_BuildValue("(lO)", 0L, Py_False);
    take_busy();
    PyObject *result;
    if (is_resident(state) && rterminal)  /* a held match over: nothing to play */
        result = Py_BuildValue("(lO)", 0L, Py_True);
    else if (!is_resident(state) && release_resident() < 0)
        result = NULL;
    else
        result = play(state, rng, until, even, t, game, ctx);
    busy = 0;
    return result;
}

/* the match's goals (goals_left) shuffled in place with the state's generator, as
   DuelState.__init__'s rng.shuffle(goals) draws (Fisher-Yates, below(i + 1) from the last) */
static int shuffle_goals(PyObject *state) {
    PyObject *srng = get_attr(state, "rng"), *left = get_attr(state, "goals_left"), *old = NULL;
    int rc = -1, idx[DMAXHAND];
    uint64_t s;
    if (srng == NULL || left == NULL || !PyList_Check(left) || get_rng(srng, &s) < 0) goto done;
    Py_ssize_t n = PyList_GET_SIZE(left);
    if (n > DMAXHAND) { PyErr_SetString(PyExc_ValueError, "duel core: goals"); goto done; }
    for (int i = 0; i < n; i++) idx[i] = i;
    shuffle_ids(&s, idx, (int)n);
    if (!(old = PyList_GetSlice(left, 0, n))) goto done;
    for (int i = 0; i < n; i++) {
        PyObject *o = PyList_GET_ITEM(old, idx[i]);
        Py_INCREF(o);
        PyList_SetItem(left, i, o);
    }
    rc = put_rng(srng, s);
done:
    Py_XDECREF(srng); Py_XDECREF(left); Py_XDECREF(old);
    return rc;
}

/* duel_first_round(state, tables, game, shuffle, ctx=None) -> bool: a new match's first
 * round set up by the core (DuelState._setup_round for a match without a fixed deal: the
 * same numbers drawn from the state's generator, the same cards); with ``shuffle``, the
 * match's goals shuffled first (DuelState.__init__'s shuffle); with ``ctx`` (core/duel.py's
 * rollout context), the round left on the core, the state resident (hold_state: a
 * play-out or the rollout API goes on from there without reading it), else the state and
 * its maze written; False: the core is busy (the caller shuffles and sets the round up in
 * Python). */
static PyObject *duel_first_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *caps, *game, *ctx = Py_None;
    int shuffle = 0;
    if (!PyArg_ParseTuple(args, "OOO!|pO", &state, &caps, &PyTuple_Type, &game, &shuffle, &ctx)) return NULL;
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    if (t == NULL) return NULL;
    int hold = ctx != Py_None;
    if (hold && (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != 3)) {
        PyErr_SetString(PyExc_TypeError, "duel core: the rollout API's context");
        return NULL;
    }
    if (wait_core()) Py_RETURN_FALSE;
    take_busy();
    if (release_resident() < 0) { busy = 0; return NULL; }
    static W fw;
    W *w = hold ? &rw : &fw;
    PyObject *result = NULL;
    w->t = t; w->state = state; w->deck_full = 0;
    w->discards = w->passed = w->history = w->actors = NULL;
    int rc = read_game(w, game);
    if (rc > 0) result = Py_False;
    else if (rc == 0 && (!shuffle || shuffle_goals(state) == 0) && attr_int(state, "turn", &w->turn) == 0
             && setup_with(w, 0) == 0
             && (hold ? (w->history = get_attr(state, "history")) != NULL
                        && (w->actors = get_attr(state, "actors")) != NULL && hold_state(w, ctx, 0, 0) == 0
                        && (rfixed = 0) == 0
                      : sync_out(w) == 0))
        result = Py_True;
    Py_XINCREF(result);
    if (!hold || result != Py_True) {
        Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors);
    }
    busy = 0;
    return result;
}

/* ------------------------------------------------------------------ the rollout API */
/* legal_actions, legal_count, legal_action, random_action and apply on the core, as
 * classic.c's: the position of the state played a decision at a time stays here between
 * calls (the "resident" state: rw and the grid), so that a call costs what the decision
 * costs, not a reading of the whole position.  While it is resident the state's class is
 * core/duel.py's resident subclass of its own (core/resident.py); everything a decision
 * changes is written back into it as it is applied (hands, pile, cards in front, markers,
 * bribes, keys, pools, the phase and the seats, the logs), but for the maze, which is
 * written when something reads it (the subclass's properties, __dict__ and setters give the
 * state back to Python first: release) or another state comes to the core.  A round's end
 * sets the next round up here as play() does (the state kept resident) where the match has
 * no fixed deal; a fixed deal's round end, the match's end, a position the core does not
 * take (the grid's edge) and anything else give the state back; Python goes on from there
 * exactly as it would have.  A new match's first round set up by the core is left here
 * too, its state resident from the start (duel_first_round), and a play-out of the
 * resident state plays on from the core's copy (adopt). */
/* the resident state (a weak reference: the core does not keep a state alive; one that dies
   resident leaves nothing to write back) and its own class */
static PyObject *res_ref, *res_plain;
static Menu rmenu;
static int rmenu_ok;
static PyObject *rlist;  /* rmenu's actions, in order (the core's own list, never handed out) */
static PyObject *rlast;  /* the action legal_action or random_action handed out last, */
static int rlast_at;     /* at this index of the menu (apply finds it without a list) */
/* what the resident state was last told (write_step): the hands, and the scalars */
static int said_hand[2][DMAXHAND], said_hn[2], said[6];

/* a placement (cell c, oriented tile otile) as action_of keys and keeps it */
static PyObject *placed(const W *w, int c, int otile) {
    int64_t key = (int64_t)3 << 56 | (int64_t)c << 8 | otile;
    PyObject *a = cached_action(key);
    if (a != NULL) { Py_INCREF(a); return a; }
    a = placement(w->t, c, otile);
    if (a != NULL) keep_action(key, a);
    return a;
}

/* the menu's pairs of cards (passes of two, the pairs a discard gives up) in nth_pair's
   order, into out: how many */
static int menu_pairs(const Menu *m, int (*out)[2]) {
    int n = 0;
    for (int a = 0; a < m->nk; a++)
        for (int b = a; b < m->nk; b++) {
            if (b == a && m->mult[a] < 2) continue;
            out[n][0] = m->hd[a]; out[n][1] = m->hd[b]; n++;
        }
    return n;
}

/* the entry's i-th action, its action_key ``key`` known: the kept object, else action_of's */
static PyObject *keyed(const W *w, const Menu *m, const Entry *e, int i, int64_t key) {
    PyObject *a = cached_action(key);
    if (a == NULL) return action_of(w, m, e, i);
    Py_INCREF(a);
    return a;
}

/* every action of the menu, in order: the list legal_actions() gives */
static PyObject *menu_list(W *w, Menu *m) {
    static int pairs[DMAXHAND * (DMAXHAND + 1) / 2][2];
    int total = 0, at = 0;
    for (int k = 0; k < m->n; k++) total += m->e[k].count;
    PyObject *list = PyList_New(total), *a;
    if (list == NULL) return NULL;
#define PUT(x) do { if ((a = (x)) == NULL) goto fail; PyList_SET_ITEM(list, at++, a); } while (0)
    for (int k = 0; k < m->n; k++) {
        Entry *e = &m->e[k];
        if (e->tag == T_FIT) {  /* by cell, each cell's tiles ascending (placement_at's order) */
            for (int j = e->off; j < e->off + e->a; j++)
                for (uint64_t f = m->fitm[j]; f; f &= f - 1)
                    PUT(placed(w, m->fitc[j], __builtin_ctzll(f)));
        } else if (e->tag == T_PASS || e->tag == T_DISCARD) {
            /* the pairs listed once, each action's key made here as action_key makes it
               (action_key finds a pair by nth_pair, a walk over the pairs before it: over
               the whole list, quadratic in the hand's kinds) */
            int np = menu_pairs(m, pairs);
            if (e->tag == T_PASS) {
                for (int i = 0; i < m->nk; i++) PUT(action_of(w, m, e, i));
                for (int p = 0; p < np; p++)
                    PUT(keyed(w, m, e, m->nk + p, (int64_t)7 << 56 | (pairs[p][0] + 1) << 8 | (pairs[p][1] + 1)));
            } else  /* by card removed, then pair */
                for (int g = 0; g < e->a; g++)
                    for (int p = 0; p < np; p++)
                        PUT(keyed(w, m, e, g * np + p, (int64_t)6 << 56 | pairs[p][0] << 16 | pairs[p][1] << 8
                                                       | m->buf[e->off + g]));
        } else
            for (int i = 0; i < e->count; i++) PUT(action_of(w, m, e, i));
    }
#undef PUT
    if (at != total) {
        PyErr_SetString(PyExc_AssertionError, "duel core: the menu's count");
        goto fail;
    }
    return list;
fail:
    for (int i = at; i < total; i++) { Py_INCREF(Py_None); PyList_SET_ITEM(list, i, Py_None); }
    Py_DECREF(list);
    return NULL;
}

/* the resident state's own field ``name`` (a new reference): read from its dict, past its
   class's properties (which give the state back to Python) */
static PyObject *own_field(PyObject *st, const char *name) {
    PyObject *d = PyObject_GenericGetDict(st, NULL), *v = NULL;
    if (d == NULL) return NULL;
    PyObject *k = name_of(name);
    if (k != NULL && (v = PyDict_GetItemWithError(d, k)) == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_AttributeError, name);
    Py_XINCREF(v);
    Py_DECREF(d);
    return v;
}

/* the resident state's field ``name`` set to v (stolen) in its dict, past its class's
   properties */
static int own_put(PyObject *st, const char *name, PyObject *v) {
    if (v == NULL) return -1;
    PyObject *d = PyObject_GenericGetDict(st, NULL), *k = name_of(name);
    int r = d == NULL || k == NULL ? -1 : PyDict_SetItem(d, k, v);
    Py_XDECREF(d);
    Py_DECREF(v);
    return r;
}

/* what the state has now been told (hands, scalars) */
static void told(W *w) {
    for (int s = 0; s < w->seats; s++) {
        said_hn[s] = w->hn[s];
        memcpy(said_hand[s], w->hand[s], sizeof(int) * (size_t)w->hn[s]);
    }
    said[0] = w->phase; said[1] = w->resume; said[2] = w->pending_draw;
    said[3] = w->current; said[4] = w->turn; said[5] = w->keys_left;
}

/* in place: the state's list of lists ``name``'s row s made ours */
static int own_row(PyObject *rows, DT *t, const int *ids, int n, int s) {
    PyObject *row = PyList_GET_ITEM(rows, s);
    if (PyList_Check(row) && PyList_GET_SIZE(row) == n) {  /* (a card played, one drawn): what changed */
        for (int i = 0; i < n; i++) {
            PyObject *code = t->codes[ids[i]];
            if (PyList_GET_ITEM(row, i) == code) continue;
            Py_INCREF(code);
            if (PyList_SetItem(row, i, code) < 0) return -1;
        }
        return 0;
    }
    PyObject *nl = codes_list(t, ids, n);
    int r = nl == NULL ? -1 : PyList_SetSlice(PyList_GET_ITEM(rows, s), 0, PY_SSIZE_T_MAX, nl);
    Py_XDECREF(nl);
    return r;
}

/* what a decision changed written into the resident state: all but the maze (sync_out's
   writes, only of what changed) */
static int write_step(W *w) {
    DT *t = w->t;
    PyObject *st = w->state, *rows = NULL;
    for (int s = 0; s < w->seats; s++) {
        if (w->hn[s] == said_hn[s] && !memcmp(w->hand[s], said_hand[s], sizeof(int) * (size_t)w->hn[s]))
            continue;
        if (rows == NULL && (rows = own_field(st, "hands")) == NULL) return -1;
        if (own_row(rows, t, w->hand[s], w->hn[s], s) < 0) { Py_DECREF(rows); return -1; }
        said_hn[s] = w->hn[s];
        memcpy(said_hand[s], w->hand[s], sizeof(int) * (size_t)w->hn[s]);
    }
    Py_XDECREF(rows);
    if (w->front_dirty) {
        if ((rows = own_field(st, "in_front")) == NULL) return -1;
        for (int s = 0; s < w->seats; s++)
            if (own_row(rows, t, w->front[s], w->nfront[s], s) < 0) { Py_DECREF(rows); return -1; }
        Py_DECREF(rows);
        w->front_dirty = 0;
    }
    if (w->deck_full) {  /* a new round's pile (a first round's left on the core) */
        if (own_put(st, "deck", codes_list(t, w->deck, w->ndeck)) < 0) return -1;
        w->deck_full = 0;
        w->ndeck0 = w->ndeck;
    } else if (w->ndeck != w->ndeck0) {
        PyObject *deck = own_field(st, "deck");
        int r = deck == NULL ? -1 : PyList_SetSlice(deck, w->ndeck, PY_SSIZE_T_MAX, NULL);
        Py_XDECREF(deck);
        if (r < 0) return -1;
        w->ndeck0 = w->ndeck;
    }
    static const char *names[6] = {"phase", "resume", "pending_draw", "current", "turn", "keys_left"};
    int now[6] = {w->phase, w->resume, w->pending_draw, w->current, w->turn, w->keys_left};
    int orienting = w->phase == ORIENT, was = said[0] == ORIENT;
    for (int k = 0; k < 6; k++)
        if (now[k] != said[k]) {
            if (set_int(st, names[k], now[k]) < 0) return -1;
            said[k] = now[k];
        }
    if ((orienting || was) && write_pending(st, orienting, w->pend_g, w->pend_n, w->pend_opt) < 0)
        return -1;
    if (w->pools_dirty) {
        if (own_put(st, "pools", int_list(w->pools, w->npools)) < 0) return -1;
        w->pools_dirty = 0;
    }
    if (w->made_dirty) {
        if (own_put(st, "bribes_made", int_list(w->bribes_made, w->seats)) < 0) return -1;
        w->made_dirty = 0;
    }
    if (w->lists_dirty) {
        if (own_put(st, "markers", cell_dict(&w->markers)) < 0
            || own_put(st, "bribes", cell_dict(&w->bribes)) < 0
            || own_put(st, "keys", cell_dict(&w->keys)) < 0
            || own_put(st, "forced", cell_dict(&w->forced)) < 0
            || own_put(st, "unclaimed_gold", cell_set(&w->gold)) < 0
            || own_put(st, "trolls", cell_set(&w->trolls)) < 0)
            return -1;
        w->lists_dirty = 0;
    }
    return 0;
}

/* nothing resident any more */
static void forget(void) {
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    Py_CLEAR(rw.discards); Py_CLEAR(rw.passed); Py_CLEAR(rw.history); Py_CLEAR(rw.actors);
}

/* the resident state (borrowed), or NULL (none, or it died) */
static PyObject *resident_state(void) {
    if (res_ref == NULL) return NULL;
    PyObject *st = PyWeakref_GET_OBJECT(res_ref);
    if (st == Py_None) { forget(); return NULL; }
    return st;
}

/* the resident state given back to Python: its own class again, the maze written if it
   changed (everything else was written as the decisions were applied) */
static int release(void) {
    PyObject *st = resident_state();
    if (st == NULL) return 0;
    Py_INCREF(st);
    PyObject *plain = res_plain;
    Py_INCREF(plain);
    rw.state = st;
    int r = 0;
    if (rw.maze_dirty && (made_maze = make_maze(&rw)) == NULL) r = -1;  /* (while still held) */
    if (r == 0) r = set_attr(st, "__class__", plain);
    if (r == 0) r = sync_out(&rw);  /* (no Python run: the maze made is written) */
    Py_CLEAR(made_maze);
    forget();
    Py_DECREF(st); Py_DECREF(plain);
    return r;
}

static int release_resident(void) { return release(); }

static int is_resident(PyObject *state) { return res_ref != NULL && resident_state() == state; }

/* the resident state taken over by a play-out of it (play(): rw its working state from
   here, the logs' references its own): its own class again, nothing written (the play-out
   writes it when it stops, as it writes any state it read); 1: taken; 0: not resident */
static int adopt(PyObject *state) {
    if (!is_resident(state)) return 0;
    if (set_attr(state, "__class__", res_plain) < 0) return -1;
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    return 1;
}

/* rw's state left on the core (held, as the rollout API holds a state: ``ctx`` is
   core/duel.py's (tables, held class, ...)) with only what the held class does not guard
   written: the phase and the seats, and the values kept beside the maze (forgotten: the
   maze changed); its hands, pile, cards in front, markers, pools and maze are written when
   read (release), by the first decision applied (write_step), or by its next play-out
   (adopt).  A new match's first round (duel_first_round) and a play-out's last position
   (play) are left so: a state dropped after its play-out is never written, and one played
   on is never read back.  ``terminal``: the match is over (the rollout API gives such a
   state back before anything else); ``said_ok``: the state has the phase and seats said[]
   says (held since: only those that changed are written) */
static int hold_state(W *w, PyObject *ctx, int terminal, int said_ok) {
    PyObject *st = w->state;
    DT *t = w->t;
    static const char *names[6] = {"phase", "resume", "pending_draw", "current", "turn", "keys_left"};
    int now[6] = {w->phase, w->resume, w->pending_draw, w->current, w->turn, w->keys_left};
    for (int k = 0; k < 6; k++)
        if ((!said_ok || now[k] != said[k]) && set_int(st, names[k], now[k]) < 0) return -1;
    if ((!said_ok || w->phase == ORIENT || said[0] == ORIENT)
        && write_pending(st, w->phase == ORIENT, w->pend_g, w->pend_n, w->pend_opt) < 0)
        return -1;
    /* the values DuelState._forget_kept sets, as put_maze writes them (its own class yet) */
    PyObject *none = t->kept_none[w->seats > 1];
    if (set_attr(st, "_forbidden", t->unkept) < 0 || set_attr(st, "_front", none) < 0
        || set_attr(st, "_doors", none) < 0 || set_attr(st, "_ladders", t->unkept) < 0)
        return -1;
    told(w);
    for (int s = 0; s < w->seats; s++) said_hn[s] = -1;  /* (the state's hands not written yet) */
    PyObject *plain = (PyObject *)Py_TYPE(st), *ref = PyWeakref_NewRef(st, NULL);
    if (ref == NULL) return -1;
    Py_INCREF(plain);
    if (set_attr(st, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) { Py_DECREF(ref); Py_DECREF(plain); return -1; }
    res_ref = ref; res_plain = plain;
    rterminal = terminal;
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast);
    return 0;
}

/* ``state`` made the resident one (``ctx``: core/duel.py's (tables, resident class, the
   state's game as read_game reads it)): 1; 0 where the core does not take it now (the match
   ended, the grid's edge, the core busy with a play-out); -1 on an error */
static int enter(PyObject *state, PyObject *ctx) {
    if (res_ref != NULL && resident_state() == state && !rterminal) return 1;
    int rc = release();
    if (rc < 0) return -1;
    W *w = &rw;
    DT *t = PyCapsule_GetPointer(PyTuple_GET_ITEM(ctx, 0), "pysaboteur._core.DuelTables");
    if (t == NULL) return -1;
    w->t = t; w->state = state; w->deck_full = 0;
    PyObject *game = NULL, *deal = NULL;
    int terminal, round_no;
    rc = -1;
    if (state_flags(state, &terminal, &round_no) < 0) goto out;
    if (terminal) { rc = 0; goto out; }
    if ((game = PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, 2), state)) == NULL) goto out;
    if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != 7) {
        PyErr_SetString(PyExc_TypeError, "duel core: the game's tuple");
        goto out;
    }
    if ((rc = read_game(w, game)) != 0) { rc = rc < 0 ? -1 : 0; goto out; }
    rc = -1;
    if ((deal = get_attr(state, "deal")) == NULL) goto out;
    rfixed = deal != Py_None;
    if (read_piles(w) < 0 || !(w->history = get_attr(state, "history"))
        || !(w->actors = get_attr(state, "actors")))
        goto out;
    if ((rc = sync_in(w)) != 0) { rc = rc < 0 ? -1 : 0; goto out; }
    rc = -1;
    told(w);
    PyObject *plain = (PyObject *)Py_TYPE(state);
    Py_INCREF(plain);
    PyObject *ref = PyWeakref_NewRef(state, NULL);
    if (ref == NULL || set_attr(state, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) {
        Py_XDECREF(ref); Py_DECREF(plain); goto out;
    }
    res_ref = ref; res_plain = plain;
    rterminal = 0;
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast);
    rc = 1;
out:
    if (rc != 1) { Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors); }
    Py_XDECREF(game); Py_XDECREF(deal);
    return rc;
}

static Menu *resident_menu(void) {
    if (!rmenu_ok) {
        if (build_menu(&rw, &rmenu) < 0) return NULL;
        if (rmenu.n == 0) {
            PyErr_SetString(PyExc_AssertionError, "duel core: no legal action");
            return NULL;
        }
        rmenu_ok = 1;
    }
    return &rmenu;
}

static int menu_total(Menu *m) {
    int total = 0;
    for (int k = 0; k < m->n; k++) total += m->e[k].count;
    return total;
}

/* the entry holding the menu's index-th action, index made the entry's own */
static Entry *entry_of(Menu *m, int *index) {
    Entry *e = m->e;
    while (*index >= e->count) { *index -= e->count; e++; }
    return e;
}

/* the menu's index-th action, kept as the one handed out last */
static PyObject *handed(Menu *m, int index) {
    int i = index;
    Entry *e = entry_of(m, &i);
    PyObject *a = action_of(&rw, m, e, i);
    if (a != NULL) {
        Py_XSETREF(rlast, a);
        Py_INCREF(a);
        rlast_at = index;
    }
    return a;
}



/* the resident state's round ended with ``action`` (applied, not logged yet): the round's
   end as play() has it, then either the next round set up on the core, the state written
   whole and kept resident (a match without a fixed deal), or the state given back (the
   match ended, or a fixed deal's round ended by the state's own _end_round) */
static int step_round_end(PyObject *state, PyObject *ctx, PyObject *action) {
    W *w = &rw;
    DT *t = w->t;
    PyObject *st = resident_state();
    if (st != state) { PyErr_SetString(PyExc_AssertionError, "duel core: not the resident state"); return -1; }
    /* Python reads the state from here: its own class, the core's copy kept */
    if (set_attr(st, "__class__", res_plain) < 0) return -1;
    int round_no, rc = -1, keep = 0;
    if (attr_int(st, "_round", &round_no) < 0) goto out;
    if (!rfixed || round_no == t->rounds) {  /* the core's round end (as play()) */
        if (end_round(w) < 0 || PyList_Append(w->history, action) < 0) goto out;
        if (round_no < t->rounds) {  /* the next round set up, the state written whole */
            if (setup_with(w, 0) < 0) goto out;
            keep = 1;
        }
        if (sync_out(w) < 0) goto out;
    } else {  /* the state as Python's has it when _end_round is called; then the action logged */
        if (sync_out(w) < 0) goto out;
        PyObject *r = PyObject_CallMethod(st, "_end_round", NULL);
        if (r == NULL) goto out;
        Py_DECREF(r);
        if (PyList_Append(w->history, action) < 0) goto out;
    }
    rc = 0;
out:
    if (rc == 0 && keep) {  /* resident in the new round */
        told(w);
        rmenu_ok = 0;
        Py_CLEAR(rlist); Py_CLEAR(rlast);
        if (set_attr(st, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) { forget(); return -1; }
        return 0;
    }
    forget();  /* Python's state is whole (or an error left it as it is) */
    return rc;
}

/* duel_legal(state, ctx) -> list, or None (not taken: Python lists them) */
static PyObject *duel_legal_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    ENTER(args[0], args[1], Py_RETURN_NONE);
    if (rlist == NULL) {
        Menu *m = resident_menu();
        if (m == NULL || (rlist = menu_list(&rw, m)) == NULL) return NULL;
    }
    return PyList_GetSlice(rlist, 0, PY_SSIZE_T_MAX);  /* the caller's own copy */
}

/* duel_count(state, ctx) -> int, or -1 (not taken) */
static PyObject *duel_count_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    ENTER(args[0], args[1], return PyLong_FromLong(-1));
    Menu *m = resident_menu();
    return m == NULL ? NULL : PyLong_FromLong(menu_total(m));
}

/* duel_nth(state, ctx, index) -> the action, or None (not taken) */
static PyObject *duel_nth_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    Py_ssize_t index = PyNumber_AsSsize_t(args[2], PyExc_IndexError);
    if (index == -1 && PyErr_Occurred()) return NULL;
    ENTER(args[0], args[1], Py_RETURN_NONE);
    Menu *m = resident_menu();
    if (m == NULL) return NULL;
    if (index < 0 || index >= menu_total(m)) {
        PyErr_SetString(PyExc_IndexError, "legal action index out of range");
        return NULL;
    }
    return handed(m, (int)index);
}

/* duel_random(state, ctx, rng) -> rng.below(legal_count()) drawn, that action; None (not
   taken: nothing drawn) */
static PyObject *duel_random_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    PyObject *rng = args[2];
    ENTER(args[0], args[1], Py_RETURN_NONE);
    Menu *m = resident_menu();
    uint64_t s;
    if (m == NULL || get_rng(rng, &s) < 0) return NULL;
    int i = (int)below(&s, (uint64_t)menu_total(m));
    if (put_rng(rng, s) < 0) return NULL;
    return handed(m, i);
}

/* duel_apply(state, ctx, action) -> 0: applied (and logged); 1: not among the legal actions
   (nothing changed); 2: not taken (nothing changed: Python applies it) */
static PyObject *duel_apply_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    PyObject *state = args[0], *ctx = args[1], *action = args[2];
    ENTER(state, ctx, return PyLong_FromLong(2));
    Menu *m = resident_menu();
    if (m == NULL) return NULL;
    Py_ssize_t index = -1;
    if (action == rlast && rlast != NULL) index = rlast_at;  /* the one just handed out */
    else {
        if (rlist == NULL && (rlist = menu_list(&rw, m)) == NULL) return NULL;
        Py_ssize_t n = PyList_GET_SIZE(rlist);
        for (Py_ssize_t k = 0; k < n; k++)  /* the kept action itself, as a rule */
            if (PyList_GET_ITEM(rlist, k) == action) { index = k; break; }
        for (Py_ssize_t k = 0; index < 0 && k < n; k++) {  /* else an equal one (is_listed: */
            PyObject *a = PyList_GET_ITEM(rlist, k);      /* of the same type) */
            if (Py_TYPE(a) != Py_TYPE(action)) continue;
            int eq = PyObject_RichCompareBool(a, action, Py_EQ);
            if (eq < 0) return NULL;
            if (eq) index = k;
        }
    }
    if (index < 0) return PyLong_FromLong(1);
    int i = (int)index;
    Entry *e = entry_of(m, &i);
    PyObject *played = NULL;
    int res = act(&rw, m, e, i, &played);
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast);
    if (res < 0) return NULL;
    Py_DECREF(played);  /* the history logs the caller's action, as State.apply does */
    PyObject *history = rw.history;
    Py_INCREF(history);
    int bad;
    if (res == ROUND_END) bad = step_round_end(state, ctx, action) < 0;  /* (logged there) */
    else {
        bad = write_step(&rw) < 0;  /* all but the maze written now */
        if (!bad && rw.bail) bad = release() < 0;  /* near the grid's edge: Python's from here */
        bad = bad || PyList_Append(history, action) < 0;
    }
    Py_DECREF(history);
    if (bad) return NULL;
    return PyLong_FromLong(0);
}

/* each call holds the core from start to end: its calls into Python let other threads run,
   which wait for it (wait_core) */
HELD(duel_legal, Py_RETURN_NONE)
HELD(duel_count, return PyLong_FromLong(-1))
HELD(duel_nth, Py_RETURN_NONE)
HELD(duel_random, Py_RETURN_NONE)
HELD(duel_apply, return PyLong_FromLong(2))

/* duel_release(state): the state given back to Python if it is the resident one (None:
   whichever is) */
static PyObject *duel_release(PyObject *self, PyObject *state) {
    (void)self;
    if (wait_core()) {
        PyErr_SetString(PyExc_RuntimeError, "duel core: a held state read while the core plays it");
        return NULL;
    }
    PyObject *st = resident_state();
    if (st == NULL || (state != Py_None && st != state)) Py_RETURN_NONE;
    take_busy();
    int r = release();
    busy = 0;
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ the held class's methods */
/* legal_actions, legal_count, legal_action and apply of the held class (core.h's) */
HELD_METHODS(duel)

/* ------------------------------------------------------------------ determinization */
/* The numbers of engine.rng.Draws([RAW, len(cards), len(goals)]).take(rng) and the two
   reorderings they give (engine.rng.reorder): ``words`` 64-bit numbers in turn, a Lehmer
   code made of ``wc`` of them (the first the most significant) and of the next ``wg``.  A
   code's digits are those of the big number itself (its remainder by n! has the same first
   n digits): divided by n, n - 1, ... 1, in 32-bit limbs by as many radixes at once as keep
   their product below 2**32.  ``items`` reordered in place (pool.pop(digit), in turn). */
#define DMAXWORDS 16
static uint64_t next64(uint64_t *s) {
    uint64_t z = (*s += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void lehmer_ids(const uint64_t *words, int nw, int *items, int n) {
    uint32_t limb[2 * DMAXWORDS];
    int nl = 2 * nw, top = 0, pool[DMAXHAND], out = 0;
    for (int k = 0; k < nw; k++) { limb[2 * k] = (uint32_t)(words[k] >> 32); limb[2 * k + 1] = (uint32_t)words[k]; }
    memcpy(pool, items, sizeof(int) * (size_t)n);
    int left = n;
    for (int i = n; i >= 2;) {
        uint64_t radix = i;
        int k = 1;
        while (i - k >= 2 && radix * (uint64_t)(i - k) < (1ULL << 32)) { radix *= (uint64_t)(i - k); k++; }
        uint64_t r = 0;
        while (top < nl && limb[top] == 0) top++;
        for (int j = top; j < nl; j++) {
            uint64_t cur = r << 32 | limb[j];
            limb[j] = (uint32_t)(cur / radix);
            r = cur % radix;
        }
        for (int d = 0; d < k; d++, i--) {  /* digits of the remainder, radix i first */
            int j = (int)(r % (uint64_t)i);
            r /= (uint64_t)i;
            items[out++] = pool[j];
            memmove(pool + j, pool + j + 1, sizeof(int) * (size_t)(left - j - 1));
            left--;
        }
    }
    if (left == 1) items[out++] = pool[0];
}

/* the numbers of one sample: the state's seed, the cards' and the goals' orders (in place) */
static uint64_t deal_ids(uint64_t *rng, int *cards, int nc, int wc, int *goals, int ng, int wg) {
    uint64_t seed = next64(rng), words[DMAXWORDS];
    for (int k = 0; k < wc; k++) words[k] = next64(rng);
    if (nc >= 2) lehmer_ids(words, wc, cards, nc);
    for (int k = 0; k < wg; k++) words[k] = next64(rng);
    if (ng >= 2) lehmer_ids(words, wg, goals, ng);
    return seed;
}

/* duel_deal(rng, cards, wc, goals, wg) -> (seed, cards, goals): Draws.take and the two
   reorders of games/duel/determinize.py's sample (cards and goals: tuples of codes) */
static PyObject *duel_deal(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rng, *cards, *goals;
    int wc, wg;
    if (!PyArg_ParseTuple(args, "OO!iO!i", &rng, &PyTuple_Type, &cards, &wc, &PyTuple_Type, &goals, &wg))
        return NULL;
    Py_ssize_t nc = PyTuple_GET_SIZE(cards), ng = PyTuple_GET_SIZE(goals);
    if (nc > DMAXHAND || ng > DMAXHAND || wc < 0 || wg < 0 || wc > DMAXWORDS || wg > DMAXWORDS
        || (nc >= 2 && wc < 1) || (ng >= 2 && wg < 1)) {
        PyErr_SetString(PyExc_ValueError, "duel core: deal");
        return NULL;
    }
    int ci[DMAXHAND], gi[DMAXHAND];
    for (int i = 0; i < nc; i++) ci[i] = i;
    for (int i = 0; i < ng; i++) gi[i] = i;
    uint64_t s;
    if (get_rng(rng, &s) < 0) return NULL;
    uint64_t seed = deal_ids(&s, ci, (int)nc, wc, gi, (int)ng, wg);
    if (put_rng(rng, s) < 0) return NULL;
    PyObject *cl = PyList_New(nc), *gl = PyList_New(ng);
    if (cl == NULL || gl == NULL) { Py_XDECREF(cl); Py_XDECREF(gl); return NULL; }
    for (int i = 0; i < nc; i++) { PyObject *o = PyTuple_GET_ITEM(cards, ci[i]); Py_INCREF(o); PyList_SET_ITEM(cl, i, o); }
    for (int i = 0; i < ng; i++) { PyObject *o = PyTuple_GET_ITEM(goals, gi[i]); Py_INCREF(o); PyList_SET_ITEM(gl, i, o); }
    return Py_BuildValue("(KNN)", (unsigned long long)seed, cl, gl);
}

/* items[ids[0..n)] as a new list */
static PyObject *picked(PyObject *items, const int *ids, int n) {
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(items, ids[i]);
        Py_INCREF(o);
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

static inline int dict_put(PyObject *d, const char *name, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = PyDict_SetItem(d, name_of(name), v);
    Py_DECREF(v);
    return r;
}

/* duel_sample(plan, rng) -> state: games/duel/determinize.py's Determinizer.sample, the same
 * state field by field (its Python body is the reference: tests/test_ismcts_duel.py).
 * plan: (template, DuelState, Rng, Memo, cards, wc, goals, wg, ((seat, hand, passed)...),
 * deck size, seat, hidden keys, hidden values, unseen places, goals left size, seen out,
 * board goals, looked ((seat, cell)...), the template maze's with_hidden) */
static PyObject *duel_sample_held(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *plan, *rng;
    if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &plan, &rng)) return NULL;
    if (PyTuple_GET_SIZE(plan) != 19) { PyErr_SetString(PyExc_ValueError, "duel core: sample plan"); return NULL; }
#define P(k) PyTuple_GET_ITEM(plan, k)
    PyObject *tmpl = P(0), *cls = P(1), *rng_type = P(2), *memo_type = P(3), *cards = P(4),
             *goals = P(6), *sizes = P(8), *hkeys = P(11), *hvals = P(12), *unseen = P(13),
             *seen_out = P(15), *board_goals = P(16), *looked = P(17), *with_hidden = P(18);
    int wc = (int)PyLong_AsLong(P(5)), wg = (int)PyLong_AsLong(P(7)), deck_size = (int)PyLong_AsLong(P(9)),
        seat = (int)PyLong_AsLong(P(10)), gls = (int)PyLong_AsLong(P(14));
#undef P
    int nc = (int)PyTuple_GET_SIZE(cards), ng = (int)PyTuple_GET_SIZE(goals), nh = (int)PyTuple_GET_SIZE(hkeys);
    if (PyErr_Occurred()) return NULL;
    if (nc > DMAXHAND || ng > DMAXHAND || wc > DMAXWORDS || wg > DMAXWORDS || (nc >= 2 && wc < 1)
        || (ng >= 2 && wg < 1) || !PyType_Check(cls)) {
        PyErr_SetString(PyExc_ValueError, "duel core: sample plan");
        return NULL;
    }
    int ci[DMAXHAND], gi[DMAXHAND];
    for (int i = 0; i < nc; i++) ci[i] = i;
    for (int i = 0; i < ng; i++) gi[i] = i;
    uint64_t s;
    if (resident_state() == tmpl && release() < 0) return NULL;  /* (its dict read as it is) */
    if (get_rng(rng, &s) < 0) return NULL;
    uint64_t seed = deal_ids(&s, ci, nc, wc, gi, ng, wg);
    if (put_rng(rng, s) < 0) return NULL;
    PyObject *d = NULL, *td = NULL, *x = NULL, *hands = NULL, *passed = NULL, *values = NULL,
             *hidden = NULL, *state = NULL, *empty = NULL;
    if (!(td = PyObject_GenericGetDict(tmpl, NULL)) || !(d = PyDict_Copy(td))) goto fail;
    /* the clone's fields (DuelState.clone), those it copies made from the deal */
    if (!(x = PyLong_FromUnsignedLongLong(seed))) goto fail;
    if (dict_put(d, "rng", PyObject_CallOneArg(rng_type, x)) < 0) goto fail;
    Py_CLEAR(x);
    if (!(x = PyObject_CallNoArgs(memo_type)) || PyObject_SetAttr(x, name_of("shared"), Py_True) < 0) goto fail;
    if (dict_put(d, "_mt", x) < 0) { x = NULL; goto fail; }
    x = NULL;
    if (dict_put(d, "history", PyList_New(0)) < 0 || dict_put(d, "actors", PyList_New(0)) < 0) goto fail;
    PyObject *o = PyDict_GetItemWithError(td, name_of("discards"));
    if (o == NULL || dict_put(d, "discards", PyList_GetSlice(o, 0, PY_SSIZE_T_MAX)) < 0) goto fail;
    o = PyDict_GetItemWithError(td, name_of("in_front"));
    if (o == NULL) goto fail;
    if (!(x = PyList_New(PyList_GET_SIZE(o)))) goto fail;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
        PyObject *f = PyList_GetSlice(PyList_GET_ITEM(o, i), 0, PY_SSIZE_T_MAX);
        if (f == NULL) goto fail;
        PyList_SET_ITEM(x, i, f);
    }
    if (dict_put(d, "in_front", x) < 0) { x = NULL; goto fail; }
    x = NULL;
    PyObject *th = PyDict_GetItemWithError(td, name_of("hands")), *tp = PyDict_GetItemWithError(td, name_of("passed"));
    if (th == NULL || tp == NULL) goto fail;
    if (!(hands = PyList_GetSlice(th, 0, PY_SSIZE_T_MAX)) || !(passed = PyList_GetSlice(tp, 0, PY_SSIZE_T_MAX))) goto fail;
    if (seat < 0 || seat >= PyList_GET_SIZE(hands) || seat >= PyList_GET_SIZE(passed)) {
        PyErr_SetString(PyExc_ValueError, "duel core: sample seat"); goto fail;
    }
    {
        PyObject *mh = PyList_GetSlice(PyList_GET_ITEM(th, seat), 0, PY_SSIZE_T_MAX),
                 *mp = mh ? PyList_GetSlice(PyList_GET_ITEM(tp, seat), 0, PY_SSIZE_T_MAX) : NULL;
        if (mp == NULL) { Py_XDECREF(mh); goto fail; }
        PyList_SetItem(hands, seat, mh);
        PyList_SetItem(passed, seat, mp);
    }
    int at = 0;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(sizes); j++) {
        PyObject *r = PyTuple_GET_ITEM(sizes, j);
        int who = (int)tuple_long(r, 0), h = (int)tuple_long(r, 1), g = (int)tuple_long(r, 2);
        if (who < 0 || who >= PyList_GET_SIZE(hands) || at + h + g > nc) {
            PyErr_SetString(PyExc_ValueError, "duel core: sample sizes"); goto fail;
        }
        PyObject *ph = picked(cards, ci + at, h), *pp = ph ? picked(cards, ci + at + h, g) : NULL;
        if (pp == NULL) { Py_XDECREF(ph); goto fail; }
        PyList_SetItem(hands, who, ph);
        PyList_SetItem(passed, who, pp);
        at += h + g;
    }
    if (at + deck_size > nc) { PyErr_SetString(PyExc_ValueError, "duel core: sample sizes"); goto fail; }
    if (dict_put(d, "hands", hands) < 0) { hands = NULL; goto fail; }
    hands = NULL;
    if (dict_put(d, "passed", passed) < 0) { passed = NULL; goto fail; }
    passed = NULL;
    if (dict_put(d, "deck", picked(cards, ci + at, deck_size)) < 0
        || dict_put(d, "aside", picked(cards, ci + at + deck_size, nc - at - deck_size)) < 0)
        goto fail;
    /* the goals: each unseen cell takes the last goal left (goals.pop()) */
    if (!(values = PyList_New(nh))) goto fail;
    for (int i = 0; i < nh; i++) {
        PyObject *v = PyTuple_GET_ITEM(hvals, i);
        Py_INCREF(v);
        PyList_SET_ITEM(values, i, v);
    }
    int left = ng;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(unseen); j++) {
        int k = (int)tuple_long(unseen, j);
        if (left < 1 || k < 0 || k >= nh) { PyErr_SetString(PyExc_ValueError, "duel core: sample goals"); goto fail; }
        PyObject *g = PyTuple_GET_ITEM(goals, gi[--left]);
        Py_INCREF(g);
        PyList_SetItem(values, k, g);
    }
    if (!(hidden = PyDict_New())) goto fail;
    for (int i = 0; i < nh; i++)
        if (PyDict_SetItem(hidden, PyTuple_GET_ITEM(hkeys, i), PyList_GET_ITEM(values, i)) < 0) goto fail;
    if (dict_put(d, "maze", PyObject_CallOneArg(with_hidden, hidden)) < 0) goto fail;
    if (gls > left) gls = left;
    if (gls < 0) gls = 0;
    if (dict_put(d, "goals_left", picked(goals, gi, gls)) < 0) goto fail;
    if (!(x = picked(goals, gi + gls, left - gls))) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seen_out); i++)
        if (PyList_Append(x, PyTuple_GET_ITEM(seen_out, i)) < 0) goto fail;
    if (dict_put(d, "out", x) < 0) { x = NULL; goto fail; }
    if (!(x = PySequence_List(board_goals))) goto fail;
    for (int i = 0; i < nh; i++) if (PyList_Append(x, PyList_GET_ITEM(values, i)) < 0) goto fail;
    if (dict_put(d, "round_goals", x) < 0) { x = NULL; goto fail; }
    x = NULL;
    if (PyTuple_GET_SIZE(looked)) {  /* seen = [dict(seen) for seen in t.seen]; the looks */
        o = PyDict_GetItemWithError(td, name_of("seen"));
        if (o == NULL || !(x = PyList_New(PyList_GET_SIZE(o)))) goto fail;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
            PyObject *c = PyDict_Copy(PyList_GET_ITEM(o, i));
            if (c == NULL) goto fail;
            PyList_SET_ITEM(x, i, c);
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(looked); j++) {
            PyObject *r = PyTuple_GET_ITEM(looked, j), *c = PyTuple_GET_ITEM(r, 1);
            long who = PyLong_AsLong(PyTuple_GET_ITEM(r, 0));
            PyObject *code = PyDict_GetItemWithError(hidden, c);
            if (code == NULL || who < 0 || who >= PyList_GET_SIZE(x)) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "duel core: a look");
                goto fail;
            }
            if (PyDict_SetItem(PyList_GET_ITEM(x, who), c, code) < 0) goto fail;
        }
        if (dict_put(d, "seen", x) < 0) { x = NULL; goto fail; }
        x = NULL;
    }
    if (!(empty = PyTuple_New(0))) goto fail;
    state = ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, empty, NULL);
    if (state == NULL || PyObject_GenericSetDict(state, d, NULL) < 0) goto fail;
    Py_DECREF(empty); Py_DECREF(d); Py_DECREF(td); Py_DECREF(values); Py_DECREF(hidden);
    return state;
fail:
    Py_XDECREF(d); Py_XDECREF(td); Py_XDECREF(x); Py_XDECREF(hands); Py_XDECREF(passed);
    Py_XDECREF(values); Py_XDECREF(hidden); Py_XDECREF(state); Py_XDECREF(empty);
    return NULL;
}

/* duel_sample(plan, rng) -> the sampled state, or None (the core busy with this thread's
   own work: the caller samples in Python); held from start to end as the rollout API's calls */
static PyObject *duel_sample(PyObject *self, PyObject *args) {
    if (wait_core()) Py_RETURN_NONE;
    take_busy();
    PyObject *r = duel_sample_held(self, args);
    busy = 0;
    return r;
}

/* ------------------------------------------------------------------ ISMCTS */
/* bots/ismcts.py's IsmctsBot._iterate with play-outs (no leaf values, no root shortlist or
   bias), every iteration on the core: a sample dealt from the determinizer's template (the
   same numbers as its sample()), the tree walked by the moves legal in it (the same order,
   UCB with availability counts, the same floating-point operations in the same order), one
   node added, the round played out at random ("playout" policy), each seat's gold gained
   (the pay-out's choose_payment) relative to the others backed up.  The tree keys moves by
   action_key; the root's moves keep their Python actions.  The bot's generator draws the
   same numbers in the same order as the Python search, so a search decides the same. */
#define SMAXLEGAL 2048
#define SMAXDEPTH 1024
#define SMAXGOLD 64

typedef struct { int64_t key; int parent, node; } Slot;

typedef struct {
    DT *t;
    W tmpl, work;
    /* the template's grid: its cells and what they hold */
    int nsnap, *snap_cell;
    int16_t *snap_tile, *snap_hid;
    uint8_t *snap_grid;  /* per cell: reach, reach_in, blocks per context (3 * NCTX) */
    /* the deal: unknown cards (ids), their places; unknown goals and the cells they go to */
    int ncards, cards[DMAXHAND], wc, ngoals, goals[DMAXHAND], wg;
    int nothers, other[2], other_hand[2], other_passed[2], deck_size;
    int nunseen, unseen[DMAXHID];   /* index in the template's face-down cells */
    int gold_vals[2][SMAXGOLD], ngold[2];
    double explore;
    /* the tree: node 0 the root */
    int nnodes, cap, *visits, *avail;
    double *total;
    Slot *table;
    size_t tcap, tused;
    PyObject *root;  /* {action: node} for the root's children */
} Search;

static void search_free(PyObject *capsule) {
    Search *S = PyCapsule_GetPointer(capsule, "pysaboteur._core.DuelSearch");
    if (S == NULL) { PyErr_Clear(); return; }
    PyMem_RawFree(S->snap_cell); PyMem_RawFree(S->snap_tile); PyMem_RawFree(S->snap_hid);
    PyMem_RawFree(S->snap_grid);
    PyMem_RawFree(S->visits); PyMem_RawFree(S->avail); PyMem_RawFree(S->total);
    PyMem_RawFree(S->table);
    Py_XDECREF(S->root);
    PyMem_RawFree(S);
}

static inline size_t slot_of(int parent, int64_t key, size_t mask) {
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(uint32_t)parent * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (size_t)h & mask;
}

static int find_child(const Search *S, int parent, int64_t key) {
    size_t mask = S->tcap - 1, i = slot_of(parent, key, mask);
    for (;;) {
        const Slot *sl = &S->table[i];
        if (sl->node < 0) return -1;
        if (sl->parent == parent && sl->key == key) return sl->node;
        i = (i + 1) & mask;
    }
}

static int grow_table(Search *S) {
    size_t cap = S->tcap ? S->tcap * 2 : 4096;
    Slot *nt = PyMem_RawMalloc(cap * sizeof(Slot));
    if (nt == NULL) return -1;
    for (size_t i = 0; i < cap; i++) nt[i].node = -1;
    for (size_t j = 0; j < S->tcap; j++) {
        Slot *sl = &S->table[j];
        if (sl->node < 0) continue;
        size_t i = slot_of(sl->parent, sl->key, cap - 1);
        while (nt[i].node >= 0) i = (i + 1) & (cap - 1);
        nt[i] = *sl;
    }
    PyMem_RawFree(S->table);
    S->table = nt; S->tcap = cap;
    return 0;
}

static int new_node(Search *S) {
    if (S->nnodes == S->cap) {
        int cap = S->cap ? S->cap * 2 : 4096;
        int *v = PyMem_RawRealloc(S->visits, sizeof(int) * (size_t)cap);
        if (v == NULL) return -1;
        S->visits = v;
        int *a = PyMem_RawRealloc(S->avail, sizeof(int) * (size_t)cap);
        if (a == NULL) return -1;
        S->avail = a;
        double *tt = PyMem_RawRealloc(S->total, sizeof(double) * (size_t)cap);
        if (tt == NULL) return -1;
        S->total = tt;
        S->cap = cap;
    }
    int n = S->nnodes++;
    S->visits[n] = 0; S->avail[n] = 0; S->total[n] = 0.0;
    return n;
}

static int add_child(Search *S, int parent, int64_t key) {
    if (2 * (S->tused + 1) > S->tcap && grow_table(S) < 0) return -1;
    int n = new_node(S);
    if (n < 0) return -1;
    size_t mask = S->tcap - 1, i = slot_of(parent, key, mask);
    while (S->table[i].node >= 0) i = (i + 1) & mask;
    S->table[i].parent = parent; S->table[i].key = key; S->table[i].node = n;
    S->tused++;
    return n;
}

/* the template's grid back, then the sample's face-down goals */
static void grid_restore(const Search *S) {
    grid_reset();
    for (int j = 0; j < S->nsnap; j++) {
        int c = S->snap_cell[j];
        const uint8_t *g = S->snap_grid + (size_t)j * 3 * NCTX;
        tile[c] = S->snap_tile[j]; hid[c] = S->snap_hid[j];
        for (int k = 0; k < NCTX; k++) { reach[k][c] = g[k]; rin[k][c] = g[NCTX + k]; blk[k][c] = g[2 * NCTX + k]; }
        touch(c);
    }
}

/* choose_payment's total: what paying ``debt`` from gold worth ``v`` costs (its value) */
static int payment_value(const int *v, int n, int debt) {
    if (debt <= 0) return 0;
    int sum = 0;
    for (int i = 0; i < n; i++) sum += v[i];
    if (sum <= debt) return sum;
    /* the least total at or above the debt that some of the cards make */
    static uint8_t can[4096];
    if (sum >= (int)sizeof can) return -1000000;  /* (never: gold is a few cards) */
    memset(can, 0, (size_t)sum + 1);
    can[0] = 1;
    for (int i = 0; i < n; i++)
        for (int x = sum - v[i]; x >= 0; x--) if (can[x]) can[x + v[i]] = 1;
    for (int x = debt; x <= sum; x++) if (can[x]) return x;
    return sum;
}

/* one iteration: 0, 1 (a position the core does not take: the search stops), -1 error */
static int iterate(Search *S, uint64_t *rng) {
    static Menu m;
    static int64_t keys[SMAXLEGAL];
    static int ent[SMAXLEGAL], idx[SMAXLEGAL], child[SMAXLEGAL], untried[SMAXLEGAL];
    static int path[SMAXDEPTH], actor[SMAXDEPTH];
    W *w = &S->work;
    memcpy(w, &S->tmpl, sizeof(W));
    grid_restore(S);
    /* the sample: Determinizer.sample's deal */
    int cards[DMAXHAND], goals[DMAXHAND];
    memcpy(cards, S->cards, sizeof(int) * (size_t)S->ncards);
    memcpy(goals, S->goals, sizeof(int) * (size_t)S->ngoals);
    deal_ids(rng, cards, S->ncards, S->wc, goals, S->ngoals, S->wg);
    int at = 0;
    for (int j = 0; j < S->nothers; j++) {
        int s = S->other[j];
        memcpy(w->hand[s], cards + at, sizeof(int) * (size_t)S->other_hand[j]);
        w->hn[s] = S->other_hand[j];
        at += S->other_hand[j] + S->other_passed[j];
    }
    memcpy(w->deck, cards + at, sizeof(int) * (size_t)S->deck_size);
    w->ndeck = w->ndeck0 = S->deck_size;
    for (int j = 0, left = S->ngoals; j < S->nunseen; j++) {  /* goals.pop() each */
        int g = goals[--left], k = S->unseen[j];
        w->hcard[k] = g;
        hid[w->hcell[k]] = (int16_t)g;
    }
    /* selection and expansion */
    int node = 0, depth = 0, res = GO_ON;
    for (;;) {
        if (build_menu(w, &m) < 0) return -1;
        int n = 0;
        for (int k = 0; k < m.n; k++) {
            if (n + m.e[k].count > SMAXLEGAL) return 1;
            for (int i = 0; i < m.e[k].count; i++) {
                keys[n] = action_key(w, &m, &m.e[k], i); ent[n] = k; idx[n] = i; n++;
            }
        }
        if (n == 0) { PyErr_SetString(PyExc_AssertionError, "duel core: no legal action"); return -1; }
        if (depth >= SMAXDEPTH) return 1;
        int nun = 0, player = w->current, pick;
        for (int j = 0; j < n; j++) if ((child[j] = find_child(S, node, keys[j])) < 0) untried[nun++] = j;
        if (nun) {
            pick = untried[below(rng, (uint64_t)nun)];
            int c = add_child(S, node, keys[pick]);
            if (c < 0) { PyErr_NoMemory(); return -1; }
            S->avail[c] = 1;
            for (int j = 0; j < n; j++) if (j != pick && child[j] >= 0) S->avail[child[j]]++;
            if (node == 0) {  /* the root's moves as the Python search keys them */
                PyObject *a = action_of(w, &m, &m.e[ent[pick]], idx[pick]), *v = PyLong_FromLong(c);
                int bad = a == NULL || v == NULL || PyDict_SetItem(S->root, a, v) < 0;
                Py_XDECREF(a); Py_XDECREF(v);
                if (bad) return -1;
            }
            res = apply_entry(w, &m, &m.e[ent[pick]], idx[pick]);
            if (res < 0) return -1;
            path[depth] = c; actor[depth] = player; depth++;
            break;
        }
        double best_value = -HUGE_VAL;
        pick = 0;
        for (int j = 0; j < n; j++) {
            int c = child[j];
            S->avail[c]++;
            double value = (S->total[c] / (double)S->visits[c] + 0.0)
                           + S->explore * sqrt(log((double)S->avail[c]) / (double)S->visits[c]);
            if (value > best_value) { pick = j; best_value = value; }
        }
        res = apply_entry(w, &m, &m.e[ent[pick]], idx[pick]);
        if (res < 0) return -1;
        node = child[pick];
        path[depth] = node; actor[depth] = player; depth++;
        if (w->bail) return 1;
        if (res == ROUND_END) break;
    }
    if (w->bail) return 1;
    /* simulation: random play to the round's end */
    while (res != ROUND_END) {
        if (build_menu(w, &m) < 0) return -1;
        if (m.n == 0) { PyErr_SetString(PyExc_AssertionError, "duel core: no legal action"); return -1; }
        int i, k = core_pick(rng, m.e, sizeof(Entry), m.n, 1, &i);
        res = apply_entry(w, &m, &m.e[k], i);
        if (res < 0) return -1;
        if (w->bail) return 1;
    }
    /* each seat's gold gained: the claimed gold less the bribes paid (choose_payment) */
    int gain[2] = {0, 0}, total = 0;
    for (int s = 0; s < w->seats; s++) {
        int v[SMAXGOLD * 2], nv = S->ngold[s];
        memcpy(v, S->gold_vals[s], sizeof(int) * (size_t)nv);
        for (int i = 0; i < w->markers.n; i++)
            if (w->markers.val[i] == s) {
                int value = S->t->value[S->t->otile_card[tile[w->markers.cell[i]]]];
                gain[s] += value;
                if (nv < SMAXGOLD * 2) v[nv++] = value;
            }
        gain[s] -= payment_value(v, nv, w->bribes_made[s]);
        total += gain[s];
    }
    double outcome[2];
    for (int s = 0; s < w->seats; s++)  /* ismcts.relative */
        outcome[s] = w->seats == 1 ? (double)gain[s] / 5.0
                     : ((double)gain[s] - (double)(total - gain[s]) / (double)(w->seats - 1)) / 5.0;
    for (int d = 0; d < depth; d++) {
        S->visits[path[d]]++;
        S->total[path[d]] += outcome[actor[d]];
    }
    return 0;
}

/* duel_search(template, tables, game, plan, exploration) -> a search, or None (a position
 * the core does not take).  plan: (unknown cards, wc, unknown goals, wg, ((seat, hand,
 * passed)...), deck size, unseen cells, ((cell, code) of the goals the seat knows), each
 * seat's gold) */
static PyObject *duel_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *caps, *game, *plan;
    double explore;
    if (!PyArg_ParseTuple(args, "OOO!O!d", &state, &caps, &PyTuple_Type, &game, &PyTuple_Type, &plan, &explore))
        return NULL;
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    if (t == NULL) return NULL;
    if (PyTuple_GET_SIZE(plan) != 9) Py_RETURN_NONE;
    if (wait_core()) Py_RETURN_NONE;  /* (this thread's own work on the core: search in Python) */
    take_busy();  /* the grid: the template's read into it, kept as the search's snapshot */
    if (release_resident() < 0) { busy = 0; return NULL; }
    Search *S = PyMem_RawCalloc(1, sizeof(Search));
    if (S == NULL) { busy = 0; return PyErr_NoMemory(); }
    PyObject *capsule = PyCapsule_New(S, "pysaboteur._core.DuelSearch", search_free);
    if (capsule == NULL) { PyMem_RawFree(S); busy = 0; return NULL; }
    S->t = t; S->explore = explore;
    W *w = &S->tmpl;
    w->t = t; w->state = state;
    int rc = read_game(w, game);
    if (rc == 0) rc = sync_in(w);
    w->state = NULL; w->discards = w->passed = w->history = w->actors = NULL;
    if (rc < 0) goto fail;
    if (rc > 0 || (w->phase == ORIENT && w->pend_n < 1)) goto none;
    /* the deal */
    PyObject *o = PyTuple_GET_ITEM(plan, 0);
    if ((rc = read_cards(w, o, S->cards, &S->ncards, DMAXHAND))) { if (rc < 0) goto fail; goto none; }
    S->wc = (int)PyLong_AsLong(PyTuple_GET_ITEM(plan, 1));
    if ((rc = read_cards(w, PyTuple_GET_ITEM(plan, 2), S->goals, &S->ngoals, DMAXHAND))) { if (rc < 0) goto fail; goto none; }
    S->wg = (int)PyLong_AsLong(PyTuple_GET_ITEM(plan, 3));
    if (S->wc > DMAXWORDS || S->wg > DMAXWORDS) goto none;
    o = PyTuple_GET_ITEM(plan, 4);
    S->nothers = (int)PyTuple_GET_SIZE(o);
    int places = 0;
    for (int j = 0; j < S->nothers && j < 2; j++) {
        PyObject *r = PyTuple_GET_ITEM(o, j);
        S->other[j] = (int)tuple_long(r, 0);
        S->other_hand[j] = (int)tuple_long(r, 1);
        S->other_passed[j] = (int)tuple_long(r, 2);
        places += S->other_hand[j] + S->other_passed[j];
        if (S->other_hand[j] > DMAXHAND - DMAXDECK) goto none;
    }
    S->deck_size = (int)PyLong_AsLong(PyTuple_GET_ITEM(plan, 5));
    if (S->nothers > 2 || S->deck_size > DMAXDECK || places + S->deck_size > S->ncards) goto none;
    o = PyTuple_GET_ITEM(plan, 6);
    S->nunseen = (int)PyTuple_GET_SIZE(o);
    if (S->nunseen > S->ngoals) goto none;
    for (int j = 0; j < S->nunseen; j++) {
        int c = gi_of(tuple_long(o, j)), k = -1;
        for (int i = 0; i < w->nh; i++) if (w->hcell[i] == c) k = i;
        if (k < 0) goto none;
        S->unseen[j] = k;
    }
    o = PyTuple_GET_ITEM(plan, 7);
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(o); j++) {
        PyObject *r = PyTuple_GET_ITEM(o, j);
        int c = gi_of(tuple_long(r, 0)), id = card_id(w, PyTuple_GET_ITEM(r, 1)), k = -1;
        if (id < 0) goto fail;
        for (int i = 0; i < w->nh; i++) if (w->hcell[i] == c) k = i;
        if (k < 0) goto none;
        w->hcard[k] = id; hid[c] = (int16_t)id;
    }
    o = PyTuple_GET_ITEM(plan, 8);
    for (int s = 0; s < w->seats; s++) {
        PyObject *g = PyTuple_GET_ITEM(o, s);
        S->ngold[s] = (int)PyTuple_GET_SIZE(g);
        if (S->ngold[s] > SMAXGOLD) goto none;
        for (int i = 0; i < S->ngold[s]; i++) {
            int id = card_id(w, PyTuple_GET_ITEM(g, i));
            if (id < 0) goto fail;
            S->gold_vals[s][i] = t->value[id];
        }
    }
    if (PyErr_Occurred()) goto fail;
    for (int s = 0; s < w->seats; s++) frontier(w, s);  /* kept with the template */
    /* the template's grid */
    S->nsnap = ntouched;
    S->snap_cell = PyMem_RawMalloc(sizeof(int) * (size_t)(ntouched + 1));
    S->snap_tile = PyMem_RawMalloc(sizeof(int16_t) * (size_t)(ntouched + 1));
    S->snap_hid = PyMem_RawMalloc(sizeof(int16_t) * (size_t)(ntouched + 1));
    S->snap_grid = PyMem_RawMalloc((size_t)3 * NCTX * (size_t)(ntouched + 1));
    if (!S->snap_cell || !S->snap_tile || !S->snap_hid || !S->snap_grid) { PyErr_NoMemory(); goto fail; }
    for (int j = 0; j < ntouched; j++) {
        int c = touched[j];
        uint8_t *g = S->snap_grid + (size_t)j * 3 * NCTX;
        S->snap_cell[j] = c; S->snap_tile[j] = tile[c]; S->snap_hid[j] = hid[c];
        for (int k = 0; k < NCTX; k++) { g[k] = reach[k][c]; g[NCTX + k] = rin[k][c]; g[2 * NCTX + k] = blk[k][c]; }
    }
    if (!(S->root = PyDict_New()) || new_node(S) < 0 || grow_table(S) < 0) goto fail;
    busy = 0;
    return capsule;
none:
    busy = 0;
    Py_DECREF(capsule);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
fail:
    busy = 0;
    Py_DECREF(capsule);
    return NULL;
}

/* duel_search_run(search, rng, n) -> n, or -1: a sample the core does not take (the search
 * is spoilt: the caller searches in Python from the generator it had) */
static PyObject *duel_search_run(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *caps, *rng;
    long n;
    if (!PyArg_ParseTuple(args, "OOl", &caps, &rng, &n)) return NULL;
    Search *S = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelSearch");
    if (S == NULL) return NULL;
    if (wait_core()) return PyLong_FromLong(-1);  /* (this thread's own work on the core) */
    take_busy();
    uint64_t s;
    if (release_resident() < 0 || get_rng(rng, &s) < 0) { busy = 0; return NULL; }
    long done = 0;
    int rc = 0;
    while (done < n && (rc = iterate(S, &s)) == 0) done++;
    busy = 0;
    if (rc < 0) return NULL;
    if (put_rng(rng, s) < 0) return NULL;
    return PyLong_FromLong(rc ? -1 : done);
}

/* duel_search_root(search) -> {action: visits} of the root's moves */
static PyObject *duel_search_root(PyObject *self, PyObject *caps) {
    (void)self;
    Search *S = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelSearch");
    if (S == NULL) return NULL;
    PyObject *out = PyDict_New(), *k, *v;
    Py_ssize_t pos = 0;
    while (out != NULL && PyDict_Next(S->root, &pos, &k, &v)) {
        PyObject *x = PyLong_FromLong(S->visits[PyLong_AsLong(v)]);
        if (x == NULL || PyDict_SetItem(out, k, x) < 0) { Py_XDECREF(x); Py_DECREF(out); return NULL; }
        Py_DECREF(x);
    }
    return out;
}

PyMethodDef duel_methods[] = {
    {"duel_first_round", duel_first_round, METH_VARARGS,
     "A new match's first round set up by the core: (state, tables, game) -> bool."},
    {"duel_tables", duel_tables, METH_O, "Compile the Duel's tables (a spec dict)."},
    {"duel_unpack_maze", duel_unpack_maze, METH_VARARGS,
     "A packed maze's dictionaries: (tables, packed) -> (cells, hidden, constraint, order, "
     "sources, blocks, reach, reach_in, version)."},
    {"duel_legal", (PyCFunction)(void (*)(void))duel_legal, METH_FASTCALL,
     "legal_actions() on the core: (state, ctx) -> list, or None (not taken)."},
    {"duel_count", (PyCFunction)(void (*)(void))duel_count, METH_FASTCALL,
     "legal_count() on the core: (state, ctx) -> int, or -1 (not taken)."},
    {"duel_nth", (PyCFunction)(void (*)(void))duel_nth, METH_FASTCALL,
     "legal_action(index) on the core: (state, ctx, index) -> action, or None (not taken)."},
    {"duel_random", (PyCFunction)(void (*)(void))duel_random, METH_FASTCALL,
     "random_action(rng) on the core: (state, ctx, rng) -> action, or None (not taken)."},
    {"duel_apply", (PyCFunction)(void (*)(void))duel_apply, METH_FASTCALL,
     "apply(action) on the core: (state, ctx, action) -> 0 applied, 1 not legal, 2 not taken."},
    {"duel_held_methods", duel_held_methods, METH_O,
     "The rollout API's C methods for the class of a held state: (cls) -> {name: method}."},
    {"duel_release", duel_release, METH_O,
     "The state given back to Python if the core holds its position (the rollout API)."},
    {"duel_deal", duel_deal, METH_VARARGS,
     "A Duel sample's numbers: (rng, cards, wc, goals, wg) -> (seed, cards, goals) reordered."},
    {"duel_sample", duel_sample, METH_VARARGS,
     "Determinizer.sample of the Duel's: (plan, rng) -> a sampled state."},
    {"duel_search", duel_search, METH_VARARGS,
     "An ISMCTS search with play-outs: (template, tables, game, plan, exploration) -> search."},
    {"duel_search_run", duel_search_run, METH_VARARGS,
     "n iterations of a search: (search, rng, n) -> n, or -1 (search in Python)."},
    {"duel_search_root", duel_search_root, METH_O, "A search's root moves: {action: visits}."},
    {"duel_play_out", duel_play_out, METH_VARARGS,
     "The Duel's (or solo's) State.play_out: (state, rng, until_round_end, even, tables, "
     "game) -> (played, finished)."},
    {NULL, NULL, 0, NULL},
};

int duel_init(void) {
    marker = PyCFunction_New(&marker_def, NULL);
    return marker == NULL ? -1 : 0;
}
