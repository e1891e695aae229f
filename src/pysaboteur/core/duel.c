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
#include <sched.h>

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
             *passes, *ids, *put_maze;
    /* a round's set-up (DuelState._setup_round): goals a round, hand size, keys, cards solo
       sets aside, the round's cards (sorted ids), which cards are the pile's path cards */
    int goals_per_round, hand_size, key_tokens, solo_aside, nround, round_cards[DMAXDECK],
        deck_path[DMAXC];
    /* a round's end (DuelState._end_round): rounds a match, each card's gold, the colour
       that begins a round after a tie, the round's records (RoundResult; last_round's
       holder views.LaterRoundEnd.by and core/duel.py's _ended, which reads the pieces) */
    int rounds, value[DMAXC], tie_colour;
    PyObject *round_result, *later_by, *ended;
} DT;

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
    t->later_by = PyTuple_GET_ITEM(o, 4); Py_INCREF(t->later_by);
    t->ended = PyTuple_GET_ITEM(o, 5); Py_INCREF(t->ended);
    o = PyDict_GetItemString(spec, "orient");
    CHECK(o && PyTuple_Check(o), "orient");
    t->orient_obj[0] = PyTuple_GET_ITEM(o, 0); Py_INCREF(t->orient_obj[0]);
    t->orient_obj[1] = PyTuple_GET_ITEM(o, 1); Py_INCREF(t->orient_obj[1]);
    if (!(t->place = kept(spec, "place")) || !(t->end_turn = kept(spec, "end_turn"))
        || !(t->bribe_type = kept(spec, "Bribe")) || !(t->discard_type = kept(spec, "Discard"))
        || !(t->tuple_new = kept(spec, "new")) || !(t->passes = kept(spec, "passes"))
        || !(t->ids = kept(spec, "ids")) || !(t->put_maze = kept(spec, "put_maze")))
        goto fail;
    if (PyErr_Occurred()) goto fail;
    return PyCapsule_New(t, "pysaboteur._core.DuelTables", dt_free);
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
static uint32_t mark[NCELLS], mgen = 1;
static int grid_ready;

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
    if (++gen == 0) { memset(stamp, 0, sizeof stamp); gen = 1; }
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
    return constraint_at(tile, w->t->open_mask, c);
}

/* DuelState._frontier: the empty cells the seat's reach points into, sorted, with their
   fit constraints */
static void frontier(W *w, int seat) {
    if (w->fr_version[seat] == w->version) return;
    int n = 0, *fr = w->fr[seat];
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        if (rin[seat][c] && tile[c] < 0 && hid[c] < 0) {
            int j = n++;
            while (j > 0 && fr[j - 1] > c) { fr[j] = fr[j - 1]; j--; }
            fr[j] = c;
        }
    }
    for (int i = 0; i < n; i++) w->frk[seat][i] = constraint_of(w, fr[i]);
    w->nfr[seat] = n;
    w->fr_version[seat] = w->version;
}

/* ------------------------------------------------------------------ Python state in and out */
static int card_id(W *w, PyObject *code) {
    return code_id(w->t->ids, code);
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

static int read_maze(W *w) {
    PyObject *maze = get_attr(w->state, "maze");
    if (maze == NULL) return -1;
    int rc = -1;
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

static Board board_of(W *w) {
    Board b = {tile, hid, w->order, w->hcell, w->hcard, w->norder, w->nh, w->t->codes,
               w->t->open_mask, mark, &mgen};
    return b;
}

static int write_maze(W *w) {
    DT *t = w->t;
    PyObject *cells = PyDict_New(), *hidden = PyDict_New(), *cons = PyDict_New(),
             *order = PyList_New(w->norder), *src = PyList_New(w->nctx), *bl = PyList_New(w->nctx),
             *rd = PyList_New(w->nctx), *rid = PyList_New(w->nctx);
    int ok = cells && hidden && cons && order && src && bl && rd && rid;
    for (int k = 0; ok && k < w->nctx; k++) {
        PyObject *a = PyDict_New(), *b = PyDict_New(), *c = PyDict_New(), *d = PyDict_New();
        if (!a || !b || !c || !d) { Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c); Py_XDECREF(d); ok = 0; break; }
        PyList_SET_ITEM(src, k, a); PyList_SET_ITEM(bl, k, b);
        PyList_SET_ITEM(rd, k, c); PyList_SET_ITEM(rid, k, d);
        for (int i = 0; ok && i < w->ns[k]; i++)
            if (dict_set_ll(a, py_of(w->scell[k][i]), w->smask[k][i]) < 0) ok = 0;
    }
    Board b = board_of(w);
    if (ok && board_dicts(&b, cells, order, hidden, cons) < 0) ok = 0;
    for (int i = 0; ok && i < ntouched; i++) {
        int c = touched[i];
        for (int k = 0; ok && k < w->nctx; k++) {
            if (reach[k][c] && dict_set_ll(PyList_GET_ITEM(rd, k), py_of(c), reach[k][c]) < 0) ok = 0;
            if (rin[k][c] && tile[c] < 0 && dict_set_ll(PyList_GET_ITEM(rid, k), py_of(c), rin[k][c]) < 0) ok = 0;
            if (blk[k][c] && tile[c] >= 0 && dict_set_ll(PyList_GET_ITEM(bl, k), py_of(c), blk[k][c]) < 0) ok = 0;
        }
    }
    PyObject *r = NULL;
    if (ok) r = PyObject_CallFunction(t->put_maze, "OOOOOOOOOL", w->state, cells, hidden, cons,
                                      order, src, bl, rd, rid, (long long)w->version);
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(cons); Py_XDECREF(order);
    Py_XDECREF(src); Py_XDECREF(bl); Py_XDECREF(rd); Py_XDECREF(rid);
    if (r == NULL) return -1;
    Py_DECREF(r);
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
    return PyList_Append(w->discards, w->t->codes[card]);
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
    /* goals_seen = [*goals_seen, code] */
    PyObject *seen = get_attr(w->state, "goals_seen");
    if (seen == NULL) return -1;
    PyObject *ns = PyList_GetSlice(seen, 0, PY_SSIZE_T_MAX);
    Py_DECREF(seen);
    if (ns == NULL || PyList_Append(ns, t->codes[card]) < 0 || set_obj(w->state, "goals_seen", ns) < 0)
        return -1;
    list_put(w, &w->forced, g, reached_by);
    if (t->gold[otile]) list_put(w, &w->gold, g, 0);
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
    int hd[DMAXHAND], mult[DMAXHAND], nk;
} Menu;

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
            if (f) { m->fitc[m->nfit] = fr[j]; m->fitm[m->nfit] = f; m->nfit++; total += __builtin_popcountll(f); }
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
            qsort(cells, (size_t)nc, sizeof(int), cmp_int);
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
        qsort(m->buf + off, (size_t)n, sizeof(int), cmp_int);
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
    m->n = 0; m->nbuf = 0; m->nfit = 0; m->nk = 0;
    if (w->phase == ORIENT) { add(m, w->pend_n, T_ORIENT, 0, 0); return 0; }
    if (w->trolls.n) {
        int n = bribable(w, seat, m->buf);
        if (n) { m->nbuf = n; add(m, n, T_BRIBE, 0, 0); }
    }
    if (w->phase == AFTER) { add(m, 1, T_END, 0, 0); return 0; }
    m->nk = kinds_of(w->hand[seat], w->hn[seat], m->hd, m->mult);
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

static int act(W *w, Menu *m, Entry *e, int i, PyObject **action_out);

/* one decision: picks, applies and logs its action; GO_ON or ROUND_END (-1: error) */
static int decide(W *w, int even, PyObject **action_out) {
    static Menu m;
    if (build_menu(w, &m) < 0) return -1;
    if (m.n == 0) { PyErr_SetString(PyExc_AssertionError, "duel core: no legal action"); return -1; }
    Entry *e;
    int i;
    if (even) {
        e = &m.e[below(&w->rng, (uint64_t)m.n)];
        i = (int)below(&w->rng, (uint64_t)e->count);
    } else {
        int total = 0;
        for (int k = 0; k < m.n; k++) total += m.e[k].count;
        i = (int)below(&w->rng, (uint64_t)total);
        e = m.e;
        while (i >= e->count) { i -= e->count; e++; }
    }
    return act(w, &m, e, i, action_out);
}

/* the i-th action of the menu's entry e applied for the seat deciding, and logged (the
   actor; the caller appends the action to the history): GO_ON or ROUND_END (-1: error) */
static int act(W *w, Menu *m, Entry *e, int i, PyObject **action_out) {
    DT *t = w->t;
    int seat = w->current, res = GO_ON;
    PyObject *actor = PyLong_FromLong(seat);  /* the actor is logged first (DuelState._apply) */
    if (actor == NULL || PyList_Append(w->actors, actor) < 0) { Py_XDECREF(actor); return -1; }
    Py_DECREF(actor);
    PyObject *action = NULL;
    switch (e->tag) {
    case T_ORIENT: {  /* GoalReveals._orient, then DuelState._resume */
        int rotated = w->pend_opt[i];
        action = t->orient_obj[rotated]; Py_INCREF(action);
        w->phase = MAIN;
        w->pend_n = 0;
        if (reveal(w, w->pend_g, rotated) < 0) break;
        res = settle(w, seat);
        res = res == GO_ON ? resume(w) : res == STOP ? GO_ON : res;
        break;
    }
    case T_BRIBE: {
        int c = m->buf[e->off + i];
        action = PyObject_CallFunction(t->bribe_type, "ll", (long)((c >> 8) - OFF), (long)((c & 255) - OFF));
        if (action == NULL) return -1;
        res = bribe(w, seat, c);
        break;
    }
    case T_END:
        action = t->end_turn; Py_INCREF(action);
        res = end_turn(w);
        break;
    case T_FIT: case T_PLACE: {
        int c = -1, otile = e->a;
        if (e->tag == T_PLACE) c = m->buf[e->off + i];
        else
            for (int j = e->off; j < e->off + e->a; j++) {
                uint64_t f = m->fitm[j];
                int k = __builtin_popcountll(f);
                if (i < k) {
                    for (int d = 0; d < i; d++) f &= f - 1;  /* drop the lowest tiles */
                    c = m->fitc[j]; otile = __builtin_ctzll(f);
                    break;
                }
                i -= k;
            }
        if (c < 0) { PyErr_SetString(PyExc_AssertionError, "duel core: placement"); return -1; }
        if (!(action = placement(t, c, otile))) return -1;
        w->pending_draw = 1;
        if (hand_remove(w, seat, t->otile_card[otile]) < 0) break;
        lay(w, c, otile);
        res = main_done(w, seat, 1);
        break;
    }
    case T_BREAK: case T_REPAIR: {
        int card = e->a, target = e->tag == T_BREAK ? 1 - seat : seat;
        int k = e->tag == T_BREAK ? 0 : m->buf[e->off + i];
        action = t->on_player[card][target][t->ntools[card] > 1 ? k : 0]; Py_INCREF(action);
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0) break;
        if (e->tag == T_BREAK) {
            w->front[target][w->nfront[target]++] = card;
            w->front_dirty = 1;
            if (w->nfront[target] >= DMAXFRONT - 1) w->bail = 1;
        } else {
            int tool = t->tools[card][k], j = 0;
            while (t->tools[w->front[target][j]][0] != tool) j++;
            int gone = w->front[target][j];
            front_remove(w, target, j);
            if (discard(w, card) < 0 || discard(w, gone) < 0) break;
        }
        res = main_done(w, seat, 0);
        break;
    }
    case T_CELL: {
        int card = e->a, c = m->buf[e->off + i], settle_now = 0;
        if (!(action = cell_action(t, card, c))) return -1;
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || discard(w, card) < 0) break;
        if (t->effect[card] == D_MAP) {
            if (see_card(w->state, seat, py_of(c), t->codes[hid[c]]) < 0) break;
        } else if (t->effect[card] == D_ROCKFALL) {
            if (rockfall(w, c) < 0) break;
        } else {  /* a key */
            w->keys_left--;
            list_put(w, &w->keys, c, seat);
            refresh_blocks(w, c);
            settle_now = 1;
        }
        res = main_done(w, seat, settle_now);
        break;
    }
    case T_DISCARD: {  /* by card removed, then pair */
        int np = pair_count(m->mult, m->nk), pair[2] = {0, 0}, gone = m->buf[e->off + i / np];
        nth_pair(m->hd, m->mult, m->nk, i % np, pair);
        action = PyObject_CallFunction(t->tuple_new, "O((OO)O)", t->discard_type, t->codes[pair[0]],
                                       t->codes[pair[1]], t->codes[gone]);
        if (action == NULL) return -1;
        w->pending_draw = 1;
        if (hand_remove(w, seat, pair[0]) < 0 || hand_remove(w, seat, pair[1]) < 0) break;
        int j = 0;
        while (w->front[seat][j] != gone) j++;
        front_remove(w, seat, j);
        if (discard(w, pair[0]) < 0 || discard(w, pair[1]) < 0 || discard(w, gone) < 0) break;
        res = main_done(w, seat, 0);
        break;
    }
    case T_PASS: {
        int cs[2] = {0, 0}, n = 1;
        if (i < m->nk) cs[0] = m->hd[i];
        else { nth_pair(m->hd, m->mult, m->nk, i - m->nk, cs); n = 2; }
        if (n == 1) { action = t->single[cs[0]]; Py_INCREF(action); }
        else {
            PyObject *combo = Py_BuildValue("(OO)", t->codes[cs[0]], t->codes[cs[1]]);
            if (combo == NULL) return -1;
            action = PyObject_GetItem(t->passes, combo);  /* moves._PASSES: made once */
            Py_DECREF(combo);
            if (action == NULL) return -1;
        }
        PyObject *mine = PyList_GET_ITEM(w->passed, seat);
        for (int k = 0; k < n; k++)
            if (hand_remove(w, seat, cs[k]) < 0 || PyList_Append(mine, t->codes[cs[k]]) < 0) goto fail;
        w->pending_draw = n;
        w->resume = RESUME_AFTER;
        res = after_main(w);
        break;
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "duel core: menu tag");
        return -1;
    }
    if (PyErr_Occurred() || res < 0) goto fail;
    *action_out = action;
    return res;
fail:
    Py_XDECREF(action);
    return -1;
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
        || set_obj(st, "discards", PyList_New(0)) < 0
        || set_obj(st, "passed", empty_rows(w->seats, new_list)) < 0
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
    PyObject *round = PyLong_FromLong(round_no), *r = NULL;
    if (round != NULL) r = PyObject_CallFunctionObjArgs(t->later_by, t->ended, round, blob, NULL);
    Py_XDECREF(round);
    Py_DECREF(blob);
    return r;
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
        int claimed = 0;
        for (int k = 0; k < w->markers.n && !claimed; k++)
            claimed = t->codes[t->otile_card[tile[w->markers.cell[k]]]] == code
                      || PyObject_RichCompareBool(t->codes[t->otile_card[tile[w->markers.cell[k]]]], code, Py_EQ) == 1;
        if (!claimed && PyList_Append(out, code) < 0) goto done;
    }
    /* the round's record: RoundResult(round, earned, {bribes, paid, totals}) */
    if (!(x = get_attr(st, "results"))) goto done;
    results = PyList_GetSlice(x, 0, PY_SSIZE_T_MAX);
    Py_DECREF(x);
    if (results == NULL || !(earned = int_list(earn, w->seats)) || !(fees = int_list(fee, w->seats))
        || !(totals = int_list(total, w->seats)))
        goto done;
    PyObject *rr = PyObject_CallFunction(t->round_result, "iO{sNsOsO}", round_no, earned, "bribes",
                                         int_list(w->bribes_made, w->seats), "paid", fees,
                                         "totals", totals);
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
static int busy;  /* the grid and the working states are in use (by busy_owner's thread) */
static unsigned long busy_owner;
static inline void take_busy(void) { busy = 1; busy_owner = PyThread_get_thread_ident(); }
/* another thread's work on the core (in one of its calls into Python) waited for, the
   interpreter's lock let go meanwhile; 1: the core is busy with this thread's own work */
static int wait_core(void) {
    while (busy) {
        if (busy_owner == PyThread_get_thread_ident()) return 1;
        Py_BEGIN_ALLOW_THREADS
        sched_yield();
        Py_END_ALLOW_THREADS
    }
    return 0;
}
static int release_resident(void);  /* the rollout API's state given back (it uses the grid) */

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

static PyObject *play(PyObject *state, PyObject *rng, int until, int even, DT *t, PyObject *game) {
    static W w;
    w.t = t; w.state = state; w.deck_full = 0;
    w.discards = w.passed = w.history = w.actors = NULL;
    int shared, fixed;
    {
        PyObject *own = get_attr(state, "rng"), *deal = get_attr(state, "deal");
        shared = own == rng;
        fixed = deal != Py_None;
        Py_XDECREF(own); Py_XDECREF(deal);
        if (own == NULL || deal == NULL) return NULL;
    }
    long played = 0;
    int finished = 1, terminal, round0, round_no, rc;
    if (state_flags(state, &terminal, &round0) < 0) return NULL;
    if (terminal) return Py_BuildValue("(lO)", 0L, Py_True);
    round_no = round0;
    if ((rc = read_game(&w, game)) != 0) {
        if (rc < 0) return NULL;
        return Py_BuildValue("(lO)", 0L, Py_False);
    }
    if (read_piles(&w) < 0 || !(w.history = get_attr(state, "history"))
        || !(w.actors = get_attr(state, "actors")) || get_rng(rng, &w.rng) < 0)
        goto error;
    rc = sync_in(&w);
    if (rc < 0) goto error;
    if (rc > 0) { finished = 0; goto out; }
    for (;;) {
        PyObject *action = NULL;
        int res = decide(&w, even, &action);
        if (res < 0) goto error;
        played++;
        if (res == ROUND_END && (!fixed || round_no == t->rounds)) {
            /* the round ended here and, where the match goes on, the next set up (the
               state's maze, hands and the round's fields are written when the core stops) */
            int bad = end_round(&w) < 0 || PyList_Append(w.history, action) < 0;
            Py_DECREF(action);
            if (bad) goto error;
            if (round_no == t->rounds) break;  /* the match is over: written back below */
            if (setup_with(&w, shared) < 0) goto error;
            round_no++;
            if (until) break;  /* written back below */
            continue;
        }
        if (res == ROUND_END) {
            /* the state as Python's has it when _end_round is called; then the action logged */
            if (sync_out(&w) < 0 || put_rng(rng, w.rng) < 0) { Py_DECREF(action); goto error; }
            /* where the match has no fixed deal, the next round is set up here: the
               state's call of _setup_round is answered by the marker */
            setup_called = 0;
            int bad = !fixed && set_attr(state, "_setup_round", marker) < 0;
            PyObject *r = bad ? NULL : PyObject_CallMethod(state, "_end_round", NULL);
            bad = r == NULL || (!fixed && del_attr(state, "_setup_round") < 0)
                  || PyList_Append(w.history, action) < 0;
            Py_XDECREF(r);
            Py_DECREF(action);
            if (bad || get_rng(rng, &w.rng) < 0 || state_flags(state, &terminal, &round_no) < 0)
                goto error;
            if (setup_called) {  /* (_end_round chose who begins it) */
                if (attr_int(state, "turn", &w.turn) < 0 || setup_with(&w, shared) < 0) goto error;
                if (until) { finished = 1; break; }  /* written back below */
                continue;
            }
            if (terminal || (until && round_no != round0)) goto done;  /* Python's state is whole */
            if (read_piles(&w) < 0) goto error;
            rc = sync_in(&w);
            if (rc < 0) goto error;
            if (rc > 0) { finished = 0; goto out; }
            continue;
        }
        int a = PyList_Append(w.history, action);
        Py_DECREF(action);
        if (a < 0) goto error;
        if (w.bail) { finished = 0; break; }
    }
    if (sync_out(&w) < 0) goto error;
out:
    if (put_rng(rng, w.rng) < 0) goto error;
done:
    Py_XDECREF(w.discards); Py_XDECREF(w.passed); Py_XDECREF(w.history); Py_XDECREF(w.actors);
    return Py_BuildValue("(lO)", played, finished ? Py_True : Py_False);
error:
    Py_XDECREF(w.discards); Py_XDECREF(w.passed); Py_XDECREF(w.history); Py_XDECREF(w.actors);
    return NULL;
}

/* duel_play_out(state, rng, until_round_end, even, tables, game) -> (played, finished)
 * finished False: the core stopped at a position it does not take (written back), and the
 * caller plays the rest in Python. */
static PyObject *duel_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *rng, *caps, *game;
    int until, even;
    if (!PyArg_ParseTuple(args, "OOppOO!", &state, &rng, &until, &even, &caps, &PyTuple_Type, &game))
        return NULL;
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    if (t == NULL) return NULL;
    /* one working state for the process: a play-out asked for while another thread's work is
       in a call into Python waits for it; one asked for from this thread's own call into
       Python is played in Python instead */
    if (wait_core()) return Py_BuildValue("(lO)", 0L, Py_False);
    take_busy();
    if (release_resident() < 0) { busy = 0; return NULL; }
    PyObject *result = play(state, rng, until, even, t, game);
    busy = 0;
    return result;
}

/* duel_first_round(state, tables, game) -> bool: a new match's first round set up by the
 * core (DuelState._setup_round for a match without a fixed deal: the same numbers drawn
 * from the state's generator, the same cards), the state and its maze written; False: the
 * core is busy (the caller sets the round up in Python). */
static PyObject *duel_first_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *caps, *game;
    if (!PyArg_ParseTuple(args, "OOO!", &state, &caps, &PyTuple_Type, &game)) return NULL;
    DT *t = PyCapsule_GetPointer(caps, "pysaboteur._core.DuelTables");
    if (t == NULL) return NULL;
    if (wait_core()) Py_RETURN_FALSE;
    take_busy();
    if (release_resident() < 0) { busy = 0; return NULL; }
    static W w;
    PyObject *result = NULL;
    w.t = t; w.state = state; w.deck_full = 0;
    w.discards = w.passed = w.history = w.actors = NULL;
    int rc = read_game(&w, game);
    if (rc > 0) result = Py_False;
    else if (rc == 0 && attr_int(state, "turn", &w.turn) == 0 && setup_with(&w, 0) == 0
             && sync_out(&w) == 0)
        result = Py_True;
    Py_XINCREF(result);
    Py_XDECREF(w.discards); Py_XDECREF(w.passed);
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
 * exactly as it would have. */
static W rw;
/* the resident state (a weak reference: the core does not keep a state alive; one that dies
   resident leaves nothing to write back) and its own class */
static PyObject *res_ref, *res_plain;
static Menu rmenu;
static int rmenu_ok;
static int rfixed;       /* the resident state's match has a fixed deal (Python ends its rounds) */
static PyObject *rlist;  /* rmenu's actions, in order (the core's own list, never handed out) */
static PyObject *rlast;  /* the action legal_action or random_action handed out last, */
static int rlast_at;     /* at this index of the menu (apply finds it without a list) */
/* what the resident state was last told (write_step): the hands, and the scalars */
static int said_hand[2][DMAXHAND], said_hn[2], said[6];

/* the actions of the lists, made once and kept (values equal to the pure menus': the
   placements and cell actions are the engine's own interned ones; passes of two, discards
   and bribes made once here), by a key: what they are (the high bits) and their cells and
   cards */
#define RCACHE (1 << 15)
static uint64_t rc_key[RCACHE];
static PyObject *rc_val[RCACHE];
static int rc_fill;
static DT *rc_t;  /* the tables the kept actions are of */

static inline uint64_t rc_slot(DT *t, uint64_t k) {  /* k's slot, or a free one */
    if (t != rc_t) {  /* (the Duel's tables are made once: never, in practice) */
        for (int i = 0; i < RCACHE; i++) Py_CLEAR(rc_val[i]);
        rc_fill = 0;
        rc_t = t;
    }
    uint64_t slot = (k * GAMMA) >> 49;
    while (rc_val[slot] != NULL && rc_key[slot] != k) slot = (slot + 1) & (RCACHE - 1);
    return slot;
}
static inline PyObject *rc_keep(uint64_t slot, uint64_t k, PyObject *a) {  /* a returned */
    if (a != NULL && rc_fill < RCACHE / 2) {  /* (half full at most: short probes) */
        rc_key[slot] = k; rc_val[slot] = a; Py_INCREF(a); rc_fill++;
    }
    return a;
}
#define RC_FIND(t, key)                                                     \
    uint64_t k_ = (key), s_ = rc_slot(t, k_);                               \
    if (rc_val[s_] != NULL) { Py_INCREF(rc_val[s_]); return rc_val[s_]; }

enum { RK_PLACE = 1, RK_PASS, RK_DISCARD, RK_BRIBE, RK_CELL };  /* RK_CELL + card */

static PyObject *r_place(DT *t, int c, int otile) {
    RC_FIND(t, (uint64_t)RK_PLACE << 40 | (uint64_t)((py_of(c) << 8) | otile));
    return rc_keep(s_, k_, placement(t, c, otile));
}
static PyObject *r_cell(DT *t, int card, int c) {
    RC_FIND(t, (uint64_t)(RK_CELL + card) << 40 | (uint64_t)py_of(c));
    return rc_keep(s_, k_, cell_action(t, card, c));
}
static PyObject *r_pass(DT *t, const int *cs, int n) {  /* moves._PASSES' */
    if (n == 1) { Py_INCREF(t->single[cs[0]]); return t->single[cs[0]]; }
    RC_FIND(t, (uint64_t)RK_PASS << 40 | (uint64_t)(cs[0] << 8 | cs[1]));
    PyObject *combo = Py_BuildValue("(OO)", t->codes[cs[0]], t->codes[cs[1]]);
    if (combo == NULL) return NULL;
    PyObject *a = PyObject_GetItem(t->passes, combo);
    Py_DECREF(combo);
    return rc_keep(s_, k_, a);
}
static PyObject *r_discard(DT *t, const int *pair, int gone) {
    RC_FIND(t, (uint64_t)RK_DISCARD << 40 | (uint64_t)(pair[0] << 16 | pair[1] << 8 | gone));
    return rc_keep(s_, k_, PyObject_CallFunction(t->tuple_new, "O((OO)O)", t->discard_type,
                                                 t->codes[pair[0]], t->codes[pair[1]],
                                                 t->codes[gone]));
}
static PyObject *r_bribe(DT *t, int c) {
    RC_FIND(t, (uint64_t)RK_BRIBE << 40 | (uint64_t)py_of(c));
    return rc_keep(s_, k_, PyObject_CallFunction(t->bribe_type, "ll", (long)((c >> 8) - OFF),
                                                 (long)((c & 255) - OFF)));
}

/* the i-th action of the menu's entry e (a new reference), nothing changed: act's */
static PyObject *action_at(W *w, Menu *m, Entry *e, int i) {
    DT *t = w->t;
    int seat = w->current;
    PyObject *a;
    switch (e->tag) {
    case T_ORIENT: a = t->orient_obj[w->pend_opt[i] ? 1 : 0]; Py_INCREF(a); return a;
    case T_BRIBE: return r_bribe(t, m->buf[e->off + i]);
    case T_END: Py_INCREF(t->end_turn); return t->end_turn;
    case T_PLACE: return r_place(t, m->buf[e->off + i], e->a);
    case T_FIT:
        for (int j = e->off; j < e->off + e->a; j++) {
            uint64_t f = m->fitm[j];
            int k = __builtin_popcountll(f);
            if (i < k) {
                for (int d = 0; d < i; d++) f &= f - 1;  /* drop the lowest tiles */
                return r_place(t, m->fitc[j], __builtin_ctzll(f));
            }
            i -= k;
        }
        PyErr_SetString(PyExc_AssertionError, "duel core: placement");
        return NULL;
    case T_BREAK: a = t->on_player[e->a][1 - seat][0]; Py_INCREF(a); return a;
    case T_REPAIR: {
        int card = e->a, k = m->buf[e->off + i];
        a = t->on_player[card][seat][t->ntools[card] > 1 ? k : 0];
        Py_INCREF(a);
        return a;
    }
    case T_CELL: return r_cell(t, e->a, m->buf[e->off + i]);
    case T_DISCARD: {  /* by card removed, then pair */
        int np = pair_count(m->mult, m->nk), pair[2] = {0, 0};
        nth_pair(m->hd, m->mult, m->nk, i % np, pair);
        return r_discard(t, pair, m->buf[e->off + i / np]);
    }
    case T_PASS: {
        int cs[2];
        if (i < m->nk) { cs[0] = m->hd[i]; return r_pass(t, cs, 1); }
        nth_pair(m->hd, m->mult, m->nk, i - m->nk, cs);
        return r_pass(t, cs, 2);
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "duel core: menu tag");
        return NULL;
    }
}

/* every action of the menu, in order: the list legal_actions() gives */
static PyObject *menu_list(W *w, Menu *m) {
    DT *t = w->t;
    int total = 0, at = 0;
    for (int k = 0; k < m->n; k++) total += m->e[k].count;
    PyObject *list = PyList_New(total), *a;
    if (list == NULL) return NULL;
#define PUT(x) do { if ((a = (x)) == NULL) goto fail; PyList_SET_ITEM(list, at++, a); } while (0)
    for (int k = 0; k < m->n; k++) {
        Entry *e = &m->e[k];
        switch (e->tag) {
        case T_FIT:  /* by cell, each cell's tiles ascending */
            for (int j = e->off; j < e->off + e->a; j++)
                for (uint64_t f = m->fitm[j]; f; f &= f - 1)
                    PUT(r_place(t, m->fitc[j], __builtin_ctzll(f)));
            break;
        case T_PASS: {  /* the single cards, then the pairs (engine.moves' templates) */
            int nk = m->nk, cs[2];
            for (int x = 0; x < nk; x++) { cs[0] = m->hd[x]; PUT(r_pass(t, cs, 1)); }
            for (int x = 0; x < nk; x++)
                for (int y = x; y < nk; y++) {
                    if (y == x && m->mult[x] < 2) continue;
                    cs[0] = m->hd[x]; cs[1] = m->hd[y];
                    PUT(r_pass(t, cs, 2));
                }
            break;
        }
        case T_DISCARD: {  /* by card removed, then pair */
            int nk = m->nk, pair[2];
            for (int r = 0; r < e->a; r++)
                for (int x = 0; x < nk; x++)
                    for (int y = x; y < nk; y++) {
                        if (y == x && m->mult[x] < 2) continue;
                        pair[0] = m->hd[x]; pair[1] = m->hd[y];
                        PUT(r_discard(t, pair, m->buf[e->off + r]));
                    }
            break;
        }
        default:
            for (int i = 0; i < e->count; i++) PUT(action_at(w, m, e, i));
        }
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
    if (w->ndeck != w->ndeck0) {
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
    int r = set_attr(st, "__class__", plain);
    rw.state = st;
    if (r == 0) r = sync_out(&rw);
    forget();
    Py_DECREF(st); Py_DECREF(plain);
    return r;
}

static int release_resident(void) { return release(); }

/* ``state`` made the resident one (``ctx``: core/duel.py's (tables, resident class, the
   state's game as read_game reads it)): 1; 0 where the core does not take it now (the match
   ended, the grid's edge, the core busy with a play-out); -1 on an error */
static int enter(PyObject *state, PyObject *ctx) {
    if (res_ref != NULL && resident_state() == state) return 1;
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
    PyObject *a = action_at(&rw, m, e, i);
    if (a != NULL) {
        Py_XSETREF(rlast, a);
        Py_INCREF(a);
        rlast_at = index;
    }
    return a;
}

/* the argument parsing every call shares: (state, ctx, ...) made resident, or not taken */
#define ENTER(state, ctx, not_taken)                       \
    do {                                                   \
        int rc_ = enter(state, ctx);                       \
        if (rc_ < 0) return NULL;                          \
        if (rc_ == 0) { not_taken; }                       \
    } while (0)

/* the calls' arguments: (state, ctx, ...), ctx the (tables, resident class, game) tuple */
static int step_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want) {
    if (nargs != want || !PyTuple_CheckExact(args[1]) || PyTuple_GET_SIZE(args[1]) != 3) {
        PyErr_SetString(PyExc_TypeError, "duel core: the rollout API's arguments");
        return 0;
    }
    return 1;
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
#define HELD(name, not_taken)                                                              \
    static PyObject *name(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {     \
        if (wait_core()) not_taken;                                                       \
        take_busy();                                                                      \
        PyObject *r = name##_held(self, args, nargs);                                     \
        busy = 0;                                                                         \
        return r;                                                                         \
    }
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

PyMethodDef duel_methods[] = {
    {"duel_first_round", duel_first_round, METH_VARARGS,
     "A new match's first round set up by the core: (state, tables, game) -> bool."},
    {"duel_tables", duel_tables, METH_O, "Compile the Duel's tables (a spec dict)."},
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
    {"duel_release", duel_release, METH_O,
     "The state given back to Python if the core holds its position (the rollout API)."},
    {"duel_play_out", duel_play_out, METH_VARARGS,
     "The Duel's (or solo's) State.play_out: (state, rng, until_round_end, even, tables, "
     "game) -> (played, finished)."},
    {NULL, NULL, 0, NULL},
};

int duel_init(void) {
    marker = PyCFunction_New(&marker_def, NULL);
    return marker == NULL ? -1 : 0;
}
