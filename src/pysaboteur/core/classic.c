/* The compiled core's Saboteur family (issue 24; module.c makes the module).
 *
 * The play-outs (State.play_out) of Saboteur (games/classic) and Saboteur 2
 * (games/expansion) in C, playing exactly the games of the pure-Python engine: the same
 * menu order, the same numbers drawn (SplitMix64, as engine/rng.py), the same state written
 * back.  Every card table comes from the Python side (pysaboteur/core/classic.py compiles
 * them from the catalogue and the engine's Tables; core/expansion.py adds Saboteur 2's
 * rules besides its cards): nothing of the rules' data is written here.  One menu and one
 * set of moves serve both games: Saboteur 2 adds ladders, passes of 2 and 3 cards, the
 * discard-2 option and its action cards' targets (seat_targets); the effects that change
 * only what Python keeps are the state's own methods, called from here.  What a person sees
 * (views, records, the thieves' Steal after a round) stays in Python.  Where the core sets
 * the rounds up it also pays them out (end_round_classic: Saboteur's nuggets, Saboteur 2's
 * routes, door rule, shares and crystals); elsewhere it calls the state's own _end_round.
 */
#include "core.h"

#define MAXSEATS 16
#define MAXCARDS 160
#define MAXOT 256
#define MAXDECK 512
#define MAXHAND0 64      /* a hand the core takes; it may grow by the whole pile */
#define MAXHAND (MAXHAND0 + MAXDECK)
#define MAXHID 16
#define MAXORDER 1024
#define MAXFRONT 8
#define MAXSRC 8         /* sources: the start and Saboteur 2's ladders */
#define MAXNEAR 32
#define KWORDS ((MAXCARDS + 63) / 64)
#define MAXNUGGETS 256   /* nugget cards a pay-out takes */
#define LCLATE 8         /* cards laid the ladder cells are updated for, at most */
#define LOGDISC 64       /* cards discarded a play-out logs before it writes them */
#define LOGPASSED 256    /* cards passed a play-out logs before it writes them */
#define LOGN 256         /* decisions a play-out logs before it writes them to the state */

enum { K_PATH = 0, K_LADDER, K_TOOL, K_CELL, K_SEAT };
/* effects (classic.py _EFFECTS): Saboteur's, then Saboteur 2's */
enum { E_NONE = 0, E_BREAK, E_REPAIR, E_MAP, E_ROCKFALL,
       E_REMOVE, E_THEFT, E_TRAPPED, E_SWAP_HAND, E_OTHER_SEAT, E_SWAP_HATS };
enum { T_PATH = 0, T_LADDER, T_SEATS, T_CELL, T_DISCARD, T_PASS, T_ORIENT };
enum { MAIN = 0, ORIENT = 1, STEAL = 2 };
enum { GO_ON = 0, PAUSE = 1, ROUND_END = 2 };
/* ------------------------------------------------------------------ tables */
/* a Python object's number (a card code's id, a nugget's value) by the object's address:
   the codes the core reads are almost always the catalogue's own str objects, so a probe
   here replaces a dictionary look-up (hashing and comparing a str); each key is kept
   alive (a reference) so that its address is never another object's */
#define IDCACHE 1024
typedef struct {
    PyObject *key[IDCACHE];
    long val[IDCACHE];
    int fill;
} IdCache;

static inline uint64_t idcache_slot(const IdCache *c, PyObject *k) {
    uint64_t slot = ((uint64_t)(uintptr_t)k * 0x9E3779B97F4A7C15ULL) >> 54;
    while (c->key[slot] != NULL && c->key[slot] != k) slot = (slot + 1) & (IDCACHE - 1);
    return slot;
}

/* dict[k] as a long through the cache (-1 and an error: not in the dict, or not an int) */
static long idcache_lookup(IdCache *c, PyObject *dict, PyObject *k, const char *what) {
    uint64_t slot = idcache_slot(c, k);
    if (c->key[slot] == k) return c->val[slot];
    PyObject *v = PyDict_GetItemWithError(dict, k);
    if (v == NULL) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "core: %s", what);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (c->fill < IDCACHE / 2) {  /* (half full at most: short probes) */
        Py_INCREF(k);
        c->key[slot] = k; c->val[slot] = x; c->fill++;
    }
    return x;
}

typedef struct {
    int ncards, notiles, tool_mask;
    PyObject *codes[MAXCARDS];
    int kind[MAXCARDS], effect[MAXCARDS], gold[MAXCARDS], front_bit[MAXCARDS],
        break_bit[MAXCARDS];
    unsigned char nfit[MAXCARDS][256];
    int norient[MAXCARDS], orot[MAXCARDS][2], ootile[MAXCARDS][2], otile_of[MAXCARDS][2];
    unsigned char ofit[MAXCARDS][2][256];
    int nrtools[MAXCARDS], rtool_bit[MAXCARDS][2], removes_bit[MAXCARDS];
    PyObject *repair_act[MAXCARDS][MAXSEATS][2];
    PyObject *on_player[MAXCARDS][MAXSEATS];
    PyObject *single[MAXCARDS];
    PyObject *passed_t[MAXSEATS][MAXCARDS];
    PyObject *cell_acts[MAXCARDS];
    int open_mask[MAXOT], nseg[MAXOT], segs[MAXOT][4], seg_of_edge[MAXOT][9],
        is_path[MAXOT], otile_card[MAXOT], is_ladder[MAXOT];
    unsigned char fits[256][16];
    PyObject *place, *orient_obj[2], *ids, *put_maze;
    /* the packed maze's class (core/classic.py's PackedMaze), Memo's, the catalogue; the
       capsule holding these tables (borrowed: it lives as long as they do) */
    PyObject *packed_type, *capsule, *memo_type, *catalogue;
    PyObject *no_fronts;  /* a memo of the cards in front that holds nothing yet */
    /* the game's rules beside its cards (classic.py _rules): passes of 1 to pass_max cards;
       discard_n cards discarded to remove one lying in front (0: no such option); the cards
       in front that still let a seat build (their bits); the cells no ladder may take */
    int pass_max, discard_n, build_ok, nnear, near[MAXNEAR];
    uint64_t near_bits[NCELLS / 64];  /* the near cells as a bit set (lc_update) */
    PyObject *pass_type, *discard_type, *tuple_new, *passes;
    /* the interned actions looked up so far (placements, map and rockfall targets), by key:
       open addressing, kept for the process's life as the Python tables keep them */
    uint64_t akey[1 << 16];
    PyObject *aval[1 << 16];
    int afill;
    IdCache id_of, nugget_of;  /* card codes' ids (ids); nuggets' values (from nugget_src) */
    PyObject *nugget_src;
} Tables;
#define ACACHE (1 << 16)

static void tables_free(PyObject *capsule) {
    Tables *t = PyCapsule_GetPointer(capsule, "pysaboteur._core.Tables");
    if (t == NULL) return;
    /* the Python objects are kept for the process's life (a catalogue's tables live as long) */
    PyMem_RawFree(t);
}


static PyObject *get(PyObject *spec, const char *key) {
    PyObject *o = PyDict_GetItemString(spec, key);  /* borrowed */
    if (o == NULL) PyErr_Format(PyExc_KeyError, "core tables: %s", key);
    return o;
}

#define CHECK(cond, msg) do { if (!(cond)) { PyErr_SetString(PyExc_ValueError, msg); goto fail; } } while (0)

/* make_tables(spec: dict) -> capsule; spec is built by pysaboteur.core.classic._spec */
static PyObject *make_tables(PyObject *self, PyObject *spec) {
    (void)self;
    if (!PyDict_Check(spec)) { PyErr_SetString(PyExc_TypeError, "spec must be a dict"); return NULL; }
    Tables *t = PyMem_RawCalloc(1, sizeof(Tables));
    if (t == NULL) return PyErr_NoMemory();
    PyObject *o, *cards, *otiles;
    if (!(cards = get(spec, "cards")) || !(otiles = get(spec, "otiles"))) goto fail;
    t->ncards = (int)PyList_Size(cards);
    t->notiles = (int)PyList_Size(otiles);
    CHECK(t->ncards > 0 && t->ncards <= MAXCARDS && t->notiles <= MAXOT, "too many cards");
    if (!(o = get(spec, "tool_mask"))) goto fail;
    t->tool_mask = (int)PyLong_AsLong(o);
    for (int c = 0; c < t->ncards; c++) {
        /* (code, kind, effect, gold, front_bit, break_bit, nfit, orientations, repair tools,
            repair actions [seat][tool], on_player [seat], single pass, passed [seat], cell actions) */
        PyObject *row = PyList_GET_ITEM(cards, c);
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 16, "card row");
        t->codes[c] = PyTuple_GET_ITEM(row, 0); Py_INCREF(t->codes[c]);
        t->kind[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 1));
        t->effect[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 2));
        t->gold[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 3));
        t->front_bit[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 4));
        t->break_bit[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 5));
        o = PyTuple_GET_ITEM(row, 6);
        CHECK(PyBytes_Check(o) && PyBytes_GET_SIZE(o) == 256, "nfit");
        memcpy(t->nfit[c], PyBytes_AS_STRING(o), 256);
        o = PyTuple_GET_ITEM(row, 7);  /* ((rotated, otile, fit row bytes), ...) */
        t->norient[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->norient[c] <= 2, "orientations");
        for (int k = 0; k < t->norient[c]; k++) {
            PyObject *v = PyTuple_GET_ITEM(o, k);
            t->orot[c][k] = PyObject_IsTrue(PyTuple_GET_ITEM(v, 0));
            t->ootile[c][k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(v, 1));
            PyObject *b = PyTuple_GET_ITEM(v, 2);
            CHECK(PyBytes_Check(b) && PyBytes_GET_SIZE(b) == 256, "fit row");
            memcpy(t->ofit[c][k], PyBytes_AS_STRING(b), 256);
        }
        o = PyTuple_GET_ITEM(row, 8);
        t->nrtools[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->nrtools[c] <= 2, "repair tools");
        for (int k = 0; k < t->nrtools[c]; k++) t->rtool_bit[c][k] = (int)item_long(o, k);
        o = PyTuple_GET_ITEM(row, 9);
        if (o != Py_None) {
            for (int s = 0; s < MAXSEATS; s++) {
                PyObject *per = PyTuple_GET_ITEM(o, s);
                for (int k = 0; k < t->nrtools[c]; k++) {
                    t->repair_act[c][s][k] = PyTuple_GET_ITEM(per, k);
                    Py_INCREF(t->repair_act[c][s][k]);
                }
            }
        }
        o = PyTuple_GET_ITEM(row, 10);
        if (o != Py_None)
            for (int s = 0; s < MAXSEATS; s++) {
                t->on_player[c][s] = PyTuple_GET_ITEM(o, s); Py_INCREF(t->on_player[c][s]);
            }
        o = PyTuple_GET_ITEM(row, 11);
        if (o != Py_None) { t->single[c] = o; Py_INCREF(o); }
        o = PyTuple_GET_ITEM(row, 12);
        for (int s = 0; s < MAXSEATS; s++) {
            t->passed_t[s][c] = PyTuple_GET_ITEM(o, s); Py_INCREF(t->passed_t[s][c]);
        }
        o = PyTuple_GET_ITEM(row, 13);
        if (o != Py_None) { t->cell_acts[c] = o; Py_INCREF(o); }
        o = PyTuple_GET_ITEM(row, 14);  /* cat.otile[code, False], cat.otile[code, True] */
        t->otile_of[c][0] = (int)item_long(o, 0);
        t->otile_of[c][1] = (int)item_long(o, 1);
        t->removes_bit[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 15));
    }
    for (int k = 0; k < t->notiles; k++) {
        /* (open_mask, segments, seg_of_edge (9), is_path, card id, is a ladder) */
        PyObject *row = PyList_GET_ITEM(otiles, k);
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 6, "otile row");
        t->is_ladder[k] = PyObject_IsTrue(PyTuple_GET_ITEM(row, 5));
        t->open_mask[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 0));
        o = PyTuple_GET_ITEM(row, 1);
        t->nseg[k] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->nseg[k] <= 4, "segments");
        for (int s = 0; s < t->nseg[k]; s++) t->segs[k][s] = (int)item_long(o, s);
        o = PyTuple_GET_ITEM(row, 2);
        for (int e = 0; e < 9; e++) t->seg_of_edge[k][e] = (int)item_long(o, e);
        t->is_path[k] = PyObject_IsTrue(PyTuple_GET_ITEM(row, 3));
        t->otile_card[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 4));
    }
    if (!(o = get(spec, "fits"))) goto fail;
    CHECK(PyBytes_Check(o) && PyBytes_GET_SIZE(o) == 256 * 16, "fits");
    memcpy(t->fits, PyBytes_AS_STRING(o), 256 * 16);
    if (!(t->place = get(spec, "place"))) goto fail;
    if (!(t->ids = get(spec, "ids"))) goto fail;
    if (!(t->put_maze = get(spec, "put_maze"))) goto fail;
    if (!(t->packed_type = get(spec, "PackedMaze")) || !(t->no_fronts = get(spec, "no_fronts"))
        || !(t->memo_type = get(spec, "Memo")) || !(t->catalogue = get(spec, "catalogue")))
        goto fail;
    Py_INCREF(t->packed_type); Py_INCREF(t->no_fronts); Py_INCREF(t->memo_type);
    Py_INCREF(t->catalogue);
    if (!(o = get(spec, "orient"))) goto fail;
    t->orient_obj[0] = PyTuple_GET_ITEM(o, 0);
    t->orient_obj[1] = PyTuple_GET_ITEM(o, 1);
    if (!(o = get(spec, "rules"))) goto fail;  /* (pass_max, discard_n, build_ok, near cells) */
    CHECK(PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 4, "rules");
    t->pass_max = (int)item_long(o, 0);
    t->discard_n = (int)item_long(o, 1);
    t->build_ok = (int)item_long(o, 2);
    {
        PyObject *near = PyTuple_GET_ITEM(o, 3);
        t->nnear = (int)PyTuple_GET_SIZE(near);
        CHECK(t->nnear <= MAXNEAR && t->pass_max >= 1 && t->pass_max <= 3
              && (t->discard_n == 0 || t->discard_n == 2), "rules");
        for (int i = 0; i < t->nnear; i++) {
            long pc = item_long(near, i);
            CHECK(gi_ok(pc), "near cells");
            t->near[i] = gi_of(pc);
            t->near_bits[t->near[i] >> 6] |= 1ULL << (t->near[i] & 63);
        }
    }
    if (!(t->pass_type = get(spec, "Pass")) || !(t->discard_type = get(spec, "Discard"))
        || !(t->tuple_new = get(spec, "new")) || !(t->passes = get(spec, "passes")))
        goto fail;
    Py_INCREF(t->pass_type); Py_INCREF(t->discard_type); Py_INCREF(t->tuple_new);
    Py_INCREF(t->passes);
    Py_INCREF(t->place); Py_INCREF(t->ids); Py_INCREF(t->put_maze);
    Py_INCREF(t->orient_obj[0]); Py_INCREF(t->orient_obj[1]);
    if (PyErr_Occurred()) goto fail;
    t->capsule = PyCapsule_New(t, "pysaboteur._core.Tables", tables_free);
    return t->capsule;
fail:
    PyMem_RawFree(t);
    return NULL;
}

/* ------------------------------------------------------------------ the working state */
static int16_t tile[NCELLS];      /* oriented tile, -1: none */
static int16_t hid[NCELLS];       /* face-down card id, -1: none */
static uint8_t reach[NCELLS];     /* reached segments */
static uint8_t rin[NCELLS];       /* reach_in: edges a reached segment points in through */
static uint32_t stamp[NCELLS], gen = 1;
static int touched[NCELLS], ntouched;
static uint32_t mark[NCELLS], mgen = 1;
static int grid_ready;

typedef struct {
    Tables *t;
    int seats;
    int hand[MAXSEATS][MAXHAND], hn[MAXSEATS];
    /* each hand's cards counted by kind, and its kinds as a bit set (hand_kinds reads the
       menu's sorted kinds off them): kept in step with every change of a hand */
    int kcount[MAXSEATS][MAXCARDS];
    uint64_t kbits[MAXSEATS][KWORDS];
    int ktwice[MAXSEATS], kthrice[MAXSEATS];  /* kinds held twice or more, three times or more */
    int deck[MAXDECK], ndeck, ndeck0;
    int front[MAXSEATS][MAXFRONT], nfront[MAXSEATS], bits[MAXSEATS];
    int order[MAXORDER], norder;
    int hcell[MAXHID], hcard[MAXHID], nh;
    int scell[MAXSRC], smask[MAXSRC], ns;
    long long version;
    int phase, pend_g, pend_n, pend_opt[2];
    int pending_draw, last, finder, turn, current;
    int maze_dirty, tools_seen, bail, deck_full;
    int unwritten;  /* the hands not written into the state yet (a held state: hold_state) */
    unsigned front_dirty;  /* seats whose cards in front Python has not been told (set_front) */
    unsigned hdirty;       /* seats whose hands changed (the rollout API writes only those) */
    int said[6];           /* phase, pending_draw, last, finder, turn, current as last written */
    PyObject *setup;  /* the game's round set-up (classic.py _setup_of), or None */
    PyObject *pay;    /* the base game's pay-out on the core (classic.py _pay_spec), or None */
    int rounds;
    int fr[4 * MAXORDER], frk[4 * MAXORDER], nfr, fr_valid;
    int lc[4 * MAXORDER], lck[4 * MAXORDER], nlc, lc_valid;  /* ladder cells, as fr */
    int lc_late[LCLATE], nlc_late;  /* cells laid on since they were found (lc_update) */
    uint64_t rng;
    PyObject *state, *discards, *passed, *history, *actors;
    /* a play-out's log (play(): ``logging``): the actors and actions of the decisions since
       the last flush_logs, appended to the state's lists in one go before anything reads
       them (a call into Python, a round's end, the play-out's end); the rollout API appends
       as it goes */
    int logging, nactors, nhist, npassed, ndisc;
    int log_actor[LOGN];
    PyObject *log_action[LOGN];  /* new references */
    /* and the cards passed and discarded since (new references), for the state's passed
       and discards as they are (a round's set-up flushes them before it makes new ones) */
    PyObject *log_passed[LOGPASSED], *log_disc[LOGDISC];
    /* Saboteur 2's thefts after a round's end (end_round_classic finds the thieves, steals()
       plays them): the thieves in turn, who is trapped, the round's details["thefts"] */
    int nthieves, thieves[MAXSEATS], trap[MAXSEATS];
    PyObject *thefts;
} W;

static void hand_recount(W *w, int seat);
static void hand_clear(W *w, int seat);
static void hand_count(W *w, int seat);
/* bumped at every change of any working state's cards in front (target_count's memo) */
static uint32_t front_gen = 1;

static inline void touch(int c) {
    if (stamp[c] != gen) { stamp[c] = gen; touched[ntouched++] = c; }
}

/* the play-out's log appended to the state's actors, history, passed and discards (see
   W.logging) */
static PyObject *seat_int[MAXSEATS];  /* the seats' numbers (made once) */
static int flush_logs(W *w) {
    int r = 0;
    if (w->nactors) {
        PyObject *more[LOGN];
        for (int i = 0; i < w->nactors; i++) {
            int s = w->log_actor[i];
            if (seat_int[s] == NULL && (seat_int[s] = PyLong_FromLong(s)) == NULL) {
                for (int j = 0; j < i; j++) Py_DECREF(more[j]);
                r = -1; break;
            }
            Py_INCREF(seat_int[s]);
            more[i] = seat_int[s];
        }
        if (r == 0) r = list_extend(w->actors, more, w->nactors);
        w->nactors = 0;
    }
    if (w->nhist) {
        if (r == 0) r = list_extend(w->history, w->log_action, w->nhist);  /* (stolen) */
        else for (int i = 0; i < w->nhist; i++) Py_DECREF(w->log_action[i]);
        w->nhist = 0;
    }
    if (w->npassed) {
        if (r == 0) r = list_extend(w->passed, w->log_passed, w->npassed);
        else for (int i = 0; i < w->npassed; i++) Py_DECREF(w->log_passed[i]);
        w->npassed = 0;
    }
    if (w->ndisc) {
        if (r == 0) r = list_extend(w->discards, w->log_disc, w->ndisc);
        else for (int i = 0; i < w->ndisc; i++) Py_DECREF(w->log_disc[i]);
        w->ndisc = 0;
    }
    return r;
}

/* an action logged by a play-out (the reference stolen) */
static inline int log_action(W *w, PyObject *action) {
    if (w->nhist == LOGN && flush_logs(w) < 0) { Py_DECREF(action); return -1; }
    w->log_action[w->nhist++] = action;
    return 0;
}

static void grid_reset(void) {
    if (!grid_ready) {
        for (int i = 0; i < NCELLS; i++) { tile[i] = -1; hid[i] = -1; }
        grid_ready = 1;
    }
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        tile[c] = -1; hid[c] = -1; reach[c] = 0; rin[c] = 0;
    }
    ntouched = 0;
    if (++gen == 0) { memset(stamp, 0, sizeof stamp); gen = 1; }
}

/* a cell near the grid's edge: the rest is played in Python (never in Saboteur's 70 cards) */
static inline int near_edge(int gi) {
    int x = gi >> 8, y = gi & 255;
    return x < 3 || x > G - 4 || y < 3 || y > G - 4;
}

/* ------------------------------------------------------------------ the maze */
/* the empty cells a spread reached for the first time (place() adds them to a frontier
   kept up to date); ``fresh_on``: logging, only while place() spreads */
static int fresh[NCELLS], nfresh, fresh_on;

static void spread(W *w, int *stack, int top) {
    Tables *t = w->t;
    while (top > 0) {
        top--;
        int c = stack[2 * top], s = stack[2 * top + 1];
        int bit = 1 << s;
        if (reach[c] & bit) continue;
        reach[c] |= bit;
        touch(c);
        int seg = t->segs[tile[c]][s];
        for (int e = 0; e < 4; e++) {
            if (!(seg & EDGES[e])) continue;
            int n = c + DELTA[e];
            int tn = tile[n];
            if (tn < 0) {
                if (fresh_on && !rin[n] && hid[n] < 0) fresh[nfresh++] = n;
                rin[n] |= OPP[e]; touch(n);
            } else {
                int s2 = t->seg_of_edge[tn][OPP[e]];
                if (s2 >= 0 && !((reach[n] >> s2) & 1)) {
                    stack[2 * top] = n; stack[2 * top + 1] = s2; top++;
                }
            }
        }
    }
}

static int stackbuf[2 * 16 * MAXORDER];

static inline int constraint_of(W *w, int c);
static int fr_find(W *w, int c);
static void fr_update(W *w, int c);
static void lc_update(W *w, int c);

static void place(W *w, int c, int otile) {
    Tables *t = w->t;
    w->version++;
    w->maze_dirty = 1;
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
    if (near_edge(c) || w->norder >= MAXORDER - 1) w->bail = 1;
    int entry = rin[c], top = 0;
    rin[c] = 0;
    if (t->is_ladder[otile]) {  /* a ladder: a source itself, every segment reached */
        if (w->ns >= MAXSRC) w->bail = 1;
        else { w->scell[w->ns] = c; w->smask[w->ns] = (1 << t->nseg[otile]) - 1; w->ns++; }
        for (int s = 0; s < t->nseg[otile]; s++) {
            stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++;
        }
    }
    for (int e = 0; e < 4; e++)  /* entered[entry]: one segment per open edge, N E S W */
        if (entry & EDGES[e]) {
            int s = t->seg_of_edge[otile][EDGES[e]];
            if (s >= 0) { stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++; }
        }
    nfresh = 0;
    fresh_on = w->fr_valid;
    if (top) spread(w, stackbuf, top);
    fresh_on = 0;
    if (w->fr_valid) fr_update(w, c);
    if (w->lc_valid) {  /* updated when next asked for (a ladder card in the hand) */
        if (w->nlc_late < LCLATE) w->lc_late[w->nlc_late++] = c;
        else w->lc_valid = 0;
    }
}

static void recompute(W *w) {
    Tables *t = w->t;
    for (int i = 0; i < ntouched; i++) { reach[touched[i]] = 0; rin[touched[i]] = 0; }
    int top = 0;
    for (int i = 0; i < w->ns; i++)
        for (int s = 0; s < 4; s++)
            if ((w->smask[i] >> s) & 1 && tile[w->scell[i]] >= 0 && s < t->nseg[tile[w->scell[i]]]) {
                stackbuf[2 * top] = w->scell[i]; stackbuf[2 * top + 1] = s; top++;
            }
    spread(w, stackbuf, top);
}

/* Maze.remove: the tile off c; the version as Python's (one more when it recomputes) */
static int remove_tile(W *w, int c) {
    Tables *t = w->t;
    w->version++;
    w->maze_dirty = 1;
    w->fr_valid = w->lc_valid = 0;
    int otile = tile[c];
    tile[c] = -1;
    for (int i = 0; i < w->norder; i++)  /* order.remove(c) */
        if (w->order[i] == c) {
            memmove(w->order + i, w->order + i + 1, sizeof(int) * (size_t)(w->norder - i - 1));
            w->norder--;
            break;
        }
    int source = 0;
    for (int i = 0; i < w->ns; i++) if (w->scell[i] == c) source = 1;
    int stale = source;
    if (!stale && reach[c]) {  /* Maze._lift: more than one reached segment touched? */
        int seen_n[8], seen_s[8], nseen = 0;
        for (int s = 0; s < t->nseg[otile] && nseen <= 1; s++) {
            if (!((reach[c] >> s) & 1)) continue;
            int seg = t->segs[otile][s];
            for (int e = 0; e < 4; e++) {
                if (!(seg & EDGES[e])) continue;
                int n = c + DELTA[e], tn = tile[n];
                if (tn < 0) continue;
                int s2 = t->seg_of_edge[tn][OPP[e]];
                if (s2 >= 0 && ((reach[n] >> s2) & 1)) {
                    int dup = 0;
                    for (int j = 0; j < nseen; j++) if (seen_n[j] == n && seen_s[j] == s2) dup = 1;
                    if (!dup && nseen < 8) { seen_n[nseen] = n; seen_s[nseen] = s2; nseen++; }
                }
            }
        }
        if (nseen > 1) stale = 1;
    }
    if (stale) w->version++;
    if (source) {  /* its sources entry goes, as Maze.remove pops it */
        int j = 0;
        for (int i = 0; i < w->ns; i++)
            if (w->scell[i] != c) { w->scell[j] = w->scell[i]; w->smask[j] = w->smask[i]; j++; }
        w->ns = j;
    }
    recompute(w);  /* the same reach as the lift's (tests/test_maze.py: kept = recomputed) */
    return otile;
}

static inline int constraint_of(W *w, int c) {
    return constraint_at(tile, w->t->open_mask, c);
}

/* where c is in a sorted list of n cells, or where it would go: -1 - that index */
static int cell_find(const int *cells, int n, int c) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (cells[mid] < c) lo = mid + 1; else hi = mid;
    }
    return lo < n && cells[lo] == c ? lo : -1 - lo;
}

/* where c is in the frontier (sorted by cell), or where it would go */
static int fr_find(W *w, int c) { return cell_find(w->fr, w->nfr, c); }

/* the frontier after a tile laid on c: c leaves it, the cells the spread reached first
   join it, and the constraints of c's neighbours change (a constraint is made of the four
   neighbours' tiles only); the same frontier as frontier() would make anew */
static void fr_update(W *w, int c) {
    int at = fr_find(w, c);
    int *fr = w->fr, *frk = w->frk;  /* (a few dozen cells: shifted by hand, not memmove) */
    if (at >= 0) {
        w->nfr--;
        for (int k = at; k < w->nfr; k++) { fr[k] = fr[k + 1]; frk[k] = frk[k + 1]; }
    }
    for (int i = 0; i < nfresh; i++) {
        int n = fresh[i], j = -1 - fr_find(w, n);
        for (int k = w->nfr; k > j; k--) { fr[k] = fr[k - 1]; frk[k] = frk[k - 1]; }
        w->fr[j] = n;
        w->frk[j] = constraint_of(w, n);
        w->nfr++;
    }
    for (int e = 0; e < 4; e++) {
        int j = fr_find(w, c + DELTA[e]);
        if (j >= 0) w->frk[j] = constraint_of(w, c + DELTA[e]);
    }
}

static void frontier(W *w) {
    if (w->fr_valid) return;
    int n = 0;
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        if (rin[c] && tile[c] < 0 && hid[c] < 0) {
            int j = n++;
            while (j > 0 && w->fr[j - 1] > c) { w->fr[j] = w->fr[j - 1]; j--; }
            w->fr[j] = c;
        }
    }
    for (int i = 0; i < n; i++) w->frk[i] = constraint_of(w, w->fr[i]);
    w->nfr = n;
    w->fr_valid = 1;
}

/* ------------------------------------------------------------------ Python state in and out */

static int card_id(W *w, PyObject *code) {
    return (int)idcache_lookup(&w->t->id_of, w->t->ids, code, "unknown card");
}

/* the cards in front of each seat, from the state's in_front (0; 1: more than the core
   takes; -1: error) */
static int load_fronts(W *w) {
    PyObject *o = get_attr(w->state, "in_front");
    if (o == NULL) return -1;
    front_gen++;
    for (int s = 0; s < w->seats; s++) {
        PyObject *f = PyTuple_GET_ITEM(o, s);
        Py_ssize_t n = PyTuple_GET_SIZE(f);
        if (n > MAXFRONT) { Py_DECREF(o); return 1; }
        w->nfront[s] = (int)n;
        w->bits[s] = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            int id = card_id(w, PyTuple_GET_ITEM(f, i));
            if (id < 0) { Py_DECREF(o); return -1; }
            w->front[s][i] = id;
            w->bits[s] += w->t->front_bit[id];
        }
    }
    Py_DECREF(o);
    return 0;
}

/* ------------------------------------------------------------------ the packed maze */
/* A maze the core writes is packed: int32s, the version, then the face-up cards in the
 * order laid (cell, oriented tile), the face-down cards (cell, card id), the reached
 * segments and the reach_in edges (cell, bits; in the order of the cells touched, which is
 * the order of Python's dictionaries), the sources (cell, segments), each list after its
 * length; cells are the grid's (gi).  core/classic.py's PackedMaze holds it and makes it a
 * plain Maze (unpack_maze) the first time anything reads it; the core reads it back
 * directly (load_packed), so a maze nobody reads is never made. */
static PyObject *pack_maze(W *w) {
    int nreach = 0, nrin = 0;
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        nreach += reach[c] != 0;
        nrin += rin[c] && tile[c] < 0;
    }
    Py_ssize_t n = 6 + 2 * ((Py_ssize_t)w->norder + w->nh + nreach + nrin + w->ns);
    PyObject *b = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    if (b == NULL) return NULL;
    int32_t *p = (int32_t *)PyBytes_AS_STRING(b);
    *p++ = (int32_t)w->version;
    *p++ = w->norder;
    for (int i = 0; i < w->norder; i++) { *p++ = w->order[i]; *p++ = tile[w->order[i]]; }
    *p++ = w->nh;
    for (int i = 0; i < w->nh; i++) { *p++ = w->hcell[i]; *p++ = w->hcard[i]; }
    *p++ = nreach;
    for (int i = 0; i < ntouched; i++) if (reach[touched[i]]) { *p++ = touched[i]; *p++ = reach[touched[i]]; }
    *p++ = nrin;
    for (int i = 0; i < ntouched; i++) {
        int c = touched[i];
        if (rin[c] && tile[c] < 0) { *p++ = c; *p++ = rin[c]; }
    }
    *p++ = w->ns;
    for (int i = 0; i < w->ns; i++) { *p++ = w->scell[i]; *p++ = w->smask[i]; }
    return b;
}

/* core/classic.py's PackedMaze holding ``packed`` (blocks
   hold the tables, the packing and the catalogue; its __setattr__, which would unpack it,
   passed by) */
static PyObject *packed_maze(Tables *t, PyObject *packed) {
    PyTypeObject *tp = (PyTypeObject *)t->packed_type;
    PyObject *m = tp->tp_alloc(tp, 0), *blocks = PyTuple_Pack(3, t->capsule, packed, t->catalogue);
    if (m != NULL && (blocks == NULL || PyObject_GenericSetAttr(m, name_of("blocks"), blocks) < 0))
        Py_CLEAR(m);
    Py_XDECREF(blocks);
    return m;
}

/* a packed maze's lists, checked: its int32s, how many; 0, or -1 (a ValueError) */
static int packed_ints(PyObject *packed, const int32_t **p, Py_ssize_t *n) {
    if (!PyBytes_Check(packed) || PyBytes_GET_SIZE(packed) % (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "core: a packed maze");
        return -1;
    }
    *p = (const int32_t *)PyBytes_AS_STRING(packed);
    *n = PyBytes_GET_SIZE(packed) / (Py_ssize_t)sizeof(int32_t);
    /* walk it: every length within the bytes, every cell on the grid */
    Py_ssize_t at = 1;
    for (int part = 0; part < 5; part++) {
        if (at >= *n) goto bad;
        int32_t k = (*p)[at++];
        if (k < 0 || at + 2 * (Py_ssize_t)k > *n) goto bad;
        for (int32_t i = 0; i < k; i++) {
            int32_t c = (*p)[at + 2 * i];
            if (c < 0 || c >= NCELLS) goto bad;
        }
        at += 2 * (Py_ssize_t)k;
    }
    if (at == *n) return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "core: a packed maze");
    return -1;
}

/* the grid of w from a packed maze (after grid_reset): 0; 1: more than the core takes */
static int load_packed(W *w, PyObject *packed) {
    const int32_t *p;
    Py_ssize_t n;
    if (packed_ints(packed, &p, &n) < 0) return -1;
    Tables *t = w->t;
    w->version = *p++;
    int k = *p++;
    if (k >= MAXORDER - 8) return 1;
    w->norder = 0;
    for (int i = 0; i < k; i++, p += 2) {
        if (p[1] < 0 || p[1] >= t->notiles) goto bad;
        tile[p[0]] = (int16_t)p[1]; touch(p[0]); w->order[w->norder++] = p[0];
    }
    k = *p++;
    if (k > MAXHID) return 1;
    w->nh = 0;
    for (int i = 0; i < k; i++, p += 2) {
        if (p[1] < 0 || p[1] >= t->ncards) goto bad;
        hid[p[0]] = (int16_t)p[1]; touch(p[0]);
        w->hcell[w->nh] = p[0]; w->hcard[w->nh] = p[1]; w->nh++;
    }
    k = *p++;
    for (int i = 0; i < k; i++, p += 2) { reach[p[0]] = (uint8_t)p[1]; touch(p[0]); }
    k = *p++;
    for (int i = 0; i < k; i++, p += 2) { rin[p[0]] = (uint8_t)p[1]; touch(p[0]); }
    k = *p++;
    if (k > MAXSRC) return 1;
    w->ns = 0;
    for (int i = 0; i < k; i++, p += 2) { w->scell[w->ns] = p[0]; w->smask[w->ns] = p[1]; w->ns++; }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "core: a packed maze");
    return -1;
}

/* unpack_maze(tables, packed) -> (cells, hidden, constraint, order, reach, reach_in,
   sources, version): a packed maze's dictionaries, the same entries in the same order as
   the maze the core would have written whole (core/classic.py: PackedMaze) */
static int16_t utile[NCELLS], uhid[NCELLS];
static uint32_t umark[NCELLS], umgen;
static PyObject *unpack_maze(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *caps, *packed;
    if (!PyArg_ParseTuple(args, "OO", &caps, &packed)) return NULL;
    Tables *t = PyCapsule_GetPointer(caps, "pysaboteur._core.Tables");
    const int32_t *p;
    Py_ssize_t n;
    if (t == NULL || packed_ints(packed, &p, &n) < 0) return NULL;
    static int ready;
    if (!ready) {
        for (int i = 0; i < NCELLS; i++) { utile[i] = -1; uhid[i] = -1; }
        ready = 1;
    }
    long long version = p[0];
    int norder = p[1];
    const int32_t *laid = p + 2, *hidden_at = laid + 2 * norder + 1;
    int nh = hidden_at[-1];
    const int32_t *reach_at = hidden_at + 2 * nh + 1;
    int nreach = reach_at[-1];
    const int32_t *rin_at = reach_at + 2 * nreach + 1;
    int nrin = rin_at[-1];
    const int32_t *src_at = rin_at + 2 * nrin + 1;
    int ns = src_at[-1];
    static int order[MAXORDER], hcell[MAXHID], hcard[MAXHID];
    if (norder > MAXORDER || nh > MAXHID) {
        PyErr_SetString(PyExc_ValueError, "core: a packed maze");
        return NULL;
    }
    for (int i = 0; i < norder; i++) {
        if (laid[2 * i + 1] < 0 || laid[2 * i + 1] >= t->notiles) goto bad;
        order[i] = laid[2 * i]; utile[order[i]] = (int16_t)laid[2 * i + 1];
    }
    for (int i = 0; i < nh; i++) {
        if (hidden_at[2 * i + 1] < 0 || hidden_at[2 * i + 1] >= t->ncards) goto bad;
        hcell[i] = hidden_at[2 * i]; hcard[i] = hidden_at[2 * i + 1]; uhid[hcell[i]] = (int16_t)hcard[i];
    }
    PyObject *cells = PyDict_New(), *hidden = PyDict_New(), *cons = PyDict_New(),
             *orderl = PyList_New(norder), *rd = PyDict_New(), *rid = PyDict_New(),
             *src = PyDict_New(), *out = NULL;
    int ok = cells && hidden && cons && orderl && rd && rid && src;
    Board b = {utile, uhid, order, hcell, hcard, norder, nh, t->codes, t->open_mask, umark, &umgen};
    if (ok && board_dicts(&b, cells, orderl, hidden, cons) < 0) ok = 0;
    for (int i = 0; ok && i < nreach; i++)
        if (dict_set_ll(rd, py_of(reach_at[2 * i]), reach_at[2 * i + 1]) < 0) ok = 0;
    for (int i = 0; ok && i < nrin; i++)
        if (dict_set_ll(rid, py_of(rin_at[2 * i]), rin_at[2 * i + 1]) < 0) ok = 0;
    for (int i = 0; ok && i < ns; i++)
        if (dict_set_ll(src, py_of(src_at[2 * i]), src_at[2 * i + 1]) < 0) ok = 0;
    if (ok) out = Py_BuildValue("(OOOOOOOL)", cells, hidden, cons, orderl, rd, rid, src, version);
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(cons); Py_XDECREF(orderl);
    Py_XDECREF(rd); Py_XDECREF(rid); Py_XDECREF(src);
    for (int i = 0; i < norder; i++) utile[order[i]] = -1;
    for (int i = 0; i < nh; i++) uhid[hcell[i]] = -1;
    return out;
bad:
    for (int i = 0; i < norder; i++) utile[laid[2 * i]] = -1;
    for (int i = 0; i < nh; i++) uhid[hidden_at[2 * i]] = -1;
    PyErr_SetString(PyExc_ValueError, "core: a packed maze");
    return NULL;
}

/* 0: loaded; 1: a position the core does not take (played in Python); -1: error */
static int sync_in(W *w) {
    PyObject *st = w->state, *o = NULL, *maze = NULL;
    int rc = -1;
    grid_reset();
    w->maze_dirty = 0; w->fr_valid = w->lc_valid = 0; w->bail = 0; w->front_dirty = 0;
    PyObject *hands = get_attr(st, "hands");
    if (hands == NULL) return -1;
    w->seats = (int)PyList_Size(hands);
    if (w->seats <= 0 || w->seats > MAXSEATS) { Py_DECREF(hands); return 1; }
    for (int s = 0; s < w->seats; s++) {
        PyObject *h = PyList_GET_ITEM(hands, s);
        Py_ssize_t n = PyList_GET_SIZE(h);
        if (n > MAXHAND0) { Py_DECREF(hands); return 1; }
        w->hn[s] = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            int id = card_id(w, PyList_GET_ITEM(h, i));
            if (id < 0) { Py_DECREF(hands); return -1; }
            w->hand[s][i] = id;
        }
        hand_recount(w, s);
    }
    Py_DECREF(hands);
    if (!(o = get_attr(st, "deck"))) return -1;
    Py_ssize_t nd = PyList_Size(o);
    if (nd > MAXDECK) { Py_DECREF(o); return 1; }
    for (Py_ssize_t i = 0; i < nd; i++) {
        int id = card_id(w, PyList_GET_ITEM(o, i));
        if (id < 0) { Py_DECREF(o); return -1; }
        w->deck[i] = id;
    }
    w->ndeck = w->ndeck0 = (int)nd;
    Py_DECREF(o);
    int rf = load_fronts(w);
    if (rf) return rf;
    if (attr_int(st, "phase", &w->phase) || attr_int(st, "pending_draw", &w->pending_draw)
        || attr_int(st, "last", &w->last) || attr_int(st, "finder", &w->finder)
        || attr_int(st, "turn", &w->turn) || attr_int(st, "current", &w->current))
        return -1;
    if (w->phase != MAIN && w->phase != ORIENT) return 1;
    if (!(maze = get_attr(st, "maze"))) return -1;
    PyObject *cells = NULL, *hidden = NULL, *order = NULL, *reachl = NULL, *rinl = NULL,
             *sources = NULL, *blocks = NULL, *key, *val;
    Py_ssize_t pos;
    if (Py_TYPE(maze) == (PyTypeObject *)w->t->packed_type) {  /* still packed: read as is */
        blocks = PyObject_GenericGetAttr(maze, name_of("blocks"));  /* (tables, packed, cat) */
        if (blocks == NULL) goto done;
        if (!PyTuple_Check(blocks) || PyTuple_GET_SIZE(blocks) != 3
            || PyTuple_GET_ITEM(blocks, 0) != w->t->capsule) { rc = 1; goto done; }
        rc = load_packed(w, PyTuple_GET_ITEM(blocks, 1));
        if (rc != 0) goto done;
        rc = -1;
        goto pending;
    }
    if (!(cells = get_attr(maze, "cells")) || !(hidden = get_attr(maze, "hidden"))
        || !(order = get_attr(maze, "order")) || !(reachl = get_attr(maze, "reach"))
        || !(rinl = get_attr(maze, "reach_in")) || !(sources = get_attr(maze, "sources"))
        || !(blocks = get_attr(maze, "blocks")))
        goto done;
    if (PyList_GET_SIZE(reachl) != 1 || PyDict_GET_SIZE(PyList_GET_ITEM(blocks, 0)) != 0
        || PyList_GET_SIZE(order) >= MAXORDER - 8 || PyDict_GET_SIZE(hidden) > MAXHID) { rc = 1; goto done; }
    {
        PyObject *v = get_attr(maze, "version");
        if (v == NULL) goto done;
        w->version = PyLong_AsLongLong(v);
        Py_DECREF(v);
    }
    pos = 0;
    while (PyDict_Next(cells, &pos, &key, &val)) {
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) { rc = 1; goto done; }
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
        if (!gi_ok(pc)) { rc = 1; goto done; }
        int c = gi_of(pc), id = card_id(w, val);
        if (id < 0) goto done;
        hid[c] = (int16_t)id;
        touch(c);
        w->hcell[w->nh] = c; w->hcard[w->nh] = id; w->nh++;
    }
    pos = 0;
    while (PyDict_Next(PyList_GET_ITEM(reachl, 0), &pos, &key, &val)) {
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) { rc = 1; goto done; }
        int c = gi_of(pc);
        reach[c] = (uint8_t)PyLong_AsLong(val);
        touch(c);
    }
    pos = 0;
    while (PyDict_Next(PyList_GET_ITEM(rinl, 0), &pos, &key, &val)) {
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) { rc = 1; goto done; }
        int c = gi_of(pc);
        rin[c] = (uint8_t)PyLong_AsLong(val);
        touch(c);
    }
    pos = 0; w->ns = 0;
    while (PyDict_Next(PyList_GET_ITEM(sources, 0), &pos, &key, &val)) {
        if (w->ns >= MAXSRC) { rc = 1; goto done; }
        long pc = PyLong_AsLong(key);
        if (!gi_ok(pc)) { rc = 1; goto done; }
        w->scell[w->ns] = gi_of(pc); w->smask[w->ns] = (int)PyLong_AsLong(val); w->ns++;
    }
pending:
    if (w->phase == ORIENT) {
        PyObject *p = get_attr(st, "pending");
        if (p == NULL) goto done;
        PyObject *opts = PyTuple_GET_ITEM(p, 1);
        w->pend_g = gi_of(PyLong_AsLong(PyTuple_GET_ITEM(p, 0)));
        w->pend_n = (int)PyTuple_GET_SIZE(opts);
        for (int i = 0; i < w->pend_n && i < 2; i++) w->pend_opt[i] = PyObject_IsTrue(PyTuple_GET_ITEM(opts, i));
        Py_DECREF(p);
        if (w->pend_n > 2) { rc = 1; goto done; }
    }
    rc = PyErr_Occurred() ? -1 : 0;
done:
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(order); Py_XDECREF(reachl);
    Py_XDECREF(rinl); Py_XDECREF(sources); Py_XDECREF(blocks); Py_XDECREF(maze);
    if (rc == -1 && !PyErr_Occurred()) rc = 1;
    return rc;
}



static int flush_fronts(W *w);

/* ------------------------------------------------------------------ a state's own fields */
/* The fields a state keeps in its dict, read and written there: past the type's attribute
   look-up (a few of its classes' dictionaries where Python's cache of it misses) and past a
   held state's class's properties (which give the state back to Python).  No state class
   defines these names (tests/test_core_classic_held.py checks it), so this is what getattr
   and setattr do. */

/* the field ``name`` from the state's dict (a new reference), or NULL: not there (no error
   set) or an error */
static PyObject *own_item(PyObject *st, const char *name) {
    PyObject *d = PyObject_GenericGetDict(st, NULL);
    if (d == NULL) return NULL;
    PyObject *v = PyDict_GetItemWithError(d, name_of(name));
    Py_XINCREF(v);
    Py_DECREF(d);
    return v;
}

/* a held state's own field (its hands, its pile), which must be there */
static PyObject *own_field(PyObject *st, const char *name) {
    PyObject *v = own_item(st, name);
    if (v == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, name);
    return v;
}

/* a state's own field, or getattr's where the dict does not have it */
static PyObject *own_attr(PyObject *st, const char *name) {
    PyObject *v = own_item(st, name);
    return v != NULL || PyErr_Occurred() ? v : get_attr(st, name);
}
static int own_int(PyObject *st, const char *name, int *out) {
    return int_of(own_attr(st, name), out);
}

/* a state's own field written into its dict; ``v`` borrowed */
static int own_set(PyObject *st, const char *name, PyObject *v) {
    PyObject *d = PyObject_GenericGetDict(st, NULL);
    if (d == NULL) return -1;
    int r = PyDict_SetItem(d, name_of(name), v);
    Py_DECREF(d);
    return r;
}
static int own_put(PyObject *st, const char *name, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = own_set(st, name, v);
    Py_DECREF(v);
    return r;
}
static int own_set_int(PyObject *st, const char *name, long v) {
    return own_put(st, name, PyLong_FromLong(v));
}

/* ------------------------------------------------------------------ Python state out */
static PyObject *codes_list(Tables *t, const int *ids, int n) {  /* the cards' codes, a new list */
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        Py_INCREF(t->codes[ids[i]]);
        PyList_SET_ITEM(l, i, t->codes[ids[i]]);
    }
    return l;
}

/* every hand and the pile written into the state: a round the core dealt as new lists, else
   the hands whole and the cards drawn from the pile taken off */
static int write_piles(W *w) {
    Tables *t = w->t;
    PyObject *st = w->state;
    if (w->deck_full) {  /* a round the core dealt: its hands and pile, new lists */
        PyObject *hands = PyList_New(w->seats), *deck = codes_list(t, w->deck, w->ndeck);
        for (int s = 0; hands != NULL && s < w->seats; s++) {
            PyObject *h = codes_list(t, w->hand[s], w->hn[s]);
            if (h == NULL) Py_CLEAR(hands);
            else PyList_SET_ITEM(hands, s, h);
        }
        int bad = hands == NULL || deck == NULL || own_set(st, "hands", hands) < 0
                  || own_set(st, "deck", deck) < 0;
        Py_XDECREF(hands); Py_XDECREF(deck);
        if (bad) return -1;
        w->deck_full = 0;
        w->ndeck0 = w->ndeck;
        w->unwritten = 0; w->hdirty = 0;
        return 0;
    }
    PyObject *hands = own_field(st, "hands");
    if (hands == NULL) return -1;
    for (int s = 0; s < w->seats; s++) {
        PyObject *nl = PyList_New(w->hn[s]);
        if (nl == NULL) { Py_DECREF(hands); return -1; }
        for (int i = 0; i < w->hn[s]; i++) {
            PyObject *code = t->codes[w->hand[s][i]];
            Py_INCREF(code);
            PyList_SET_ITEM(nl, i, code);
        }
        int r = PyList_SetSlice(PyList_GET_ITEM(hands, s), 0, PY_SSIZE_T_MAX, nl);
        Py_DECREF(nl);
        if (r < 0) { Py_DECREF(hands); return -1; }
    }
    Py_DECREF(hands);
    if (w->ndeck != w->ndeck0) {
        PyObject *deck = own_field(st, "deck");
        int r = deck == NULL ? -1 : PyList_SetSlice(deck, w->ndeck, PY_SSIZE_T_MAX, NULL);
        Py_XDECREF(deck);
        if (r < 0) return -1;
        w->ndeck0 = w->ndeck;
    }
    w->unwritten = 0; w->hdirty = 0;
    return 0;
}

/* the phase, the seats and a card being oriented written into the state */
static int write_scalars(W *w) {
    PyObject *st = w->state;
    if (own_set_int(st, "phase", w->phase) || own_set_int(st, "pending_draw", w->pending_draw)
        || own_set_int(st, "last", w->last) || own_set_int(st, "finder", w->finder)
        || own_set_int(st, "turn", w->turn) || own_set_int(st, "current", w->current))
        return -1;
    return write_pending(st, w->phase == ORIENT, w->pend_g, w->pend_n, w->pend_opt);
}

static int write_maze(W *w);
static int sync_out(W *w) {
    if (flush_fronts(w) < 0 || write_piles(w) < 0 || write_scalars(w) < 0) return -1;
    return write_maze(w);
}

/* the maze written into the state if it changed */
static int write_maze(W *w) {
    Tables *t = w->t;
    PyObject *st = w->state;
    if (w->maze_dirty) {
        /* the maze packed (made into Python's dictionaries only if read: PackedMaze) */
        PyObject *packed = pack_maze(w), *maze = packed == NULL ? NULL : packed_maze(t, packed),
                 *memo = maze == NULL ? NULL : new_memo(t->memo_type);
        Py_XDECREF(packed);
        /* (maze, memo) into the state's dict: past a held state's properties (release) */
        int bad = memo == NULL || own_set(st, "maze", maze) < 0 || own_set(st, "_mt", memo) < 0;
        Py_XDECREF(maze); Py_XDECREF(memo);
        if (bad) return -1;
        w->maze_dirty = 0;
    }
    return 0;
}

/* ------------------------------------------------------------------ a round's set-up */
/* ClassicState._next_round's marker: _end_round calls it (an instance attribute for the
   call's length) where Python would set up the next round; the core does that itself */
static int next_round_called;
static PyObject *next_round_marker(PyObject *self, PyObject *noargs) {
    (void)self; (void)noargs;
    next_round_called = 1;
    Py_RETURN_NONE;
}
static PyMethodDef marker_def = {"_next_round", next_round_marker, METH_NOARGS, NULL};
static PyObject *marker;



/* a game's own fields of a new round (classic.py's FreshRound): (the fields set to an empty
   list, the fields set to an empty dict per seat), in that order */
static int set_fresh(PyObject *st, PyObject *fresh, int seats) {
    PyObject *lists = PyTuple_GET_ITEM(fresh, 0), *dicts = PyTuple_GET_ITEM(fresh, 1);
    PyObject *own = PyObject_GenericGetDict(st, NULL);  /* (as own_set: its own fields) */
    if (own == NULL) return -1;
    int bad = 0;
    for (Py_ssize_t i = 0; !bad && i < PyTuple_GET_SIZE(lists); i++) {
        PyObject *l = PyList_New(0);
        bad = l == NULL || PyDict_SetItem(own, PyTuple_GET_ITEM(lists, i), l) < 0;
        Py_XDECREF(l);
    }
    for (Py_ssize_t i = 0; !bad && i < PyTuple_GET_SIZE(dicts); i++) {
        PyObject *l = PyList_New(seats);
        for (int s = 0; l && s < seats; s++) {
            PyObject *d = PyDict_New();
            if (d == NULL) { Py_CLEAR(l); break; }
            PyList_SET_ITEM(l, s, d);
        }
        bad = l == NULL || PyDict_SetItem(own, PyTuple_GET_ITEM(dicts, i), l) < 0;
        Py_XDECREF(l);
    }
    Py_DECREF(own);
    return bad ? -1 : 0;
}

/* ClassicState._setup_round for a round without a fixed deal, from w->setup: (start cell,
   start tile, goal cells, goal cards, deck cards (ids, bytes), hand size, cards set aside,
   the dwarf cards sorted,
   Memo) as classic.py's _setup_of gives them; the state's generator is ``rs`` */
static int setup_round(W *w, uint64_t *rs) {
    Tables *t = w->t;
    PyObject *st = w->state, *su = w->setup;
    int round_no;
    if (own_int(st, "_round", &round_no) < 0 || own_set_int(st, "_round", round_no + 1) < 0) return -1;
    PyObject *fresh = PyTuple_GET_ITEM(su, 10);  /* the game's own fields of a new round */
    if (fresh != Py_None && set_fresh(st, fresh, w->seats) < 0) return -1;
    grid_reset();
    w->maze_dirty = 1; w->fr_valid = w->lc_valid = 0; w->bail = 0; w->front_dirty = 0;
    w->norder = 0; w->nh = 0; w->ns = 0; w->version = 0;
    int start = gi_of(PyLong_AsLong(PyTuple_GET_ITEM(su, 0)));
    int sotile = (int)PyLong_AsLong(PyTuple_GET_ITEM(su, 1));
    /* maze.place(start, source_for=(0,)): a source, every segment reached */
    w->version++;
    tile[start] = (int16_t)sotile;
    touch(start);
    w->order[w->norder++] = start;
    w->scell[0] = start; w->smask[0] = (1 << t->nseg[sotile]) - 1; w->ns = 1;
    int top = 0;
    for (int sg = 0; sg < t->nseg[sotile]; sg++) { stackbuf[2 * top] = start; stackbuf[2 * top + 1] = sg; top++; }
    spread(w, stackbuf, top);
    /* the goals, shuffled by the state's generator, face down */
    PyObject *gcells = PyTuple_GET_ITEM(su, 2), *gcards = PyTuple_GET_ITEM(su, 3);
    int ng = (int)PyTuple_GET_SIZE(gcards), goals[MAXHID];
    if (ng > MAXHID) { PyErr_SetString(PyExc_ValueError, "core: goals"); return -1; }
    for (int i = 0; i < ng; i++) goals[i] = (int)item_long(gcards, i);
    shuffle_ids(rs, goals, ng);
    for (int i = 0; i < ng; i++) {
        int c = gi_of(item_long(gcells, i));
        w->version++;
        hid[c] = (int16_t)goals[i];
        touch(c);
        w->hcell[w->nh] = c; w->hcard[w->nh] = goals[i]; w->nh++;
    }
    /* dwarf cards: the game's, sorted, shuffled; one to each seat from the top */
    PyObject *roles = PySequence_List(PyTuple_GET_ITEM(su, 7));  /* sorted already */
    if (roles == NULL) return -1;
    Py_ssize_t nr = PyList_GET_SIZE(roles);
    for (Py_ssize_t i = nr - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(rs, (uint64_t)(i + 1));
        PyObject *x = PyList_GET_ITEM(roles, i);
        PyList_SET_ITEM(roles, i, PyList_GET_ITEM(roles, j));
        PyList_SET_ITEM(roles, j, x);
    }
    if (nr < w->seats) { Py_DECREF(roles); PyErr_SetString(PyExc_ValueError, "core: roles"); return -1; }
    PyObject *dealt = PyList_New(w->seats);
    if (dealt == NULL) { Py_DECREF(roles); return -1; }
    for (int i = 0; i < w->seats; i++) {
        PyObject *x = PyList_GET_ITEM(roles, nr - 1 - i);
        Py_INCREF(x);
        PyList_SET_ITEM(dealt, i, x);
    }
    if (PyList_SetSlice(roles, nr - w->seats, nr, NULL) < 0 || own_put(st, "roles", dealt) < 0
        || own_put(st, "spare_roles", roles) < 0)
        return -1;
    /* the pile, shuffled; the cards set aside from its top; the hands dealt */
    PyObject *dcards = PyTuple_GET_ITEM(su, 4);
    int nd = (int)PyBytes_GET_SIZE(dcards);
    if (nd > MAXDECK) { PyErr_SetString(PyExc_ValueError, "core: deck"); return -1; }
    const unsigned char *ids = (const unsigned char *)PyBytes_AS_STRING(dcards);
    for (int i = 0; i < nd; i++) w->deck[i] = ids[i];
    shuffle_ids(rs, w->deck, nd);
    w->ndeck = nd;
    int aside_n = (int)PyLong_AsLong(PyTuple_GET_ITEM(su, 6));
    if (aside_n > w->ndeck) aside_n = w->ndeck;
    PyObject *aside = PyList_New(aside_n);
    if (aside == NULL) return -1;
    for (int i = 0; i < aside_n; i++) {
        PyObject *code = t->codes[w->deck[--w->ndeck]];
        Py_INCREF(code);
        PyList_SET_ITEM(aside, i, code);
    }
    if (own_put(st, "aside", aside) < 0) return -1;
    for (int s2 = 0; s2 < w->seats; s2++) {
        hand_clear(w, s2);
        w->nfront[s2] = 0; w->bits[s2] = 0;
    }
    front_gen++;
    int each = (int)PyLong_AsLong(PyTuple_GET_ITEM(su, 5));
    int k = each * w->seats < w->ndeck ? each * w->seats : w->ndeck;
    for (int j = 0, seat = w->turn; j < k; j++) {  /* deal_round: the j-th card to seat first + j % n */
        w->hand[seat][w->hn[seat]++] = w->deck[w->ndeck - 1 - j];
        if (++seat == w->seats) seat = 0;
    }
    for (int s2 = 0; s2 < w->seats; s2++) hand_count(w, s2);
    w->ndeck -= k;
    w->deck_full = 1;  /* (the hands and the pile made in the state when written: write_piles) */
    PyObject *seen = PyList_New(w->seats), *front = PyTuple_New(w->seats);
    if (seen == NULL || front == NULL) { Py_XDECREF(seen); Py_XDECREF(front); return -1; }
    for (int s2 = 0; s2 < w->seats; s2++) {
        PyList_SET_ITEM(seen, s2, PyDict_New());
        PyTuple_SET_ITEM(front, s2, PyTuple_New(0));
    }
    if (own_put(st, "in_front", front) < 0 || own_put(st, "seen", seen) < 0) return -1;
    if (flush_logs(w) < 0) return -1;  /* (the last round's cards passed and discarded) */
    Py_XDECREF(w->discards); Py_XDECREF(w->passed);
    w->discards = PyList_New(0); w->passed = PyList_New(0);
    if (w->discards == NULL || w->passed == NULL) return -1;
    Py_INCREF(w->discards); Py_INCREF(w->passed);
    if (own_put(st, "discards", w->discards) < 0 || own_put(st, "passed", w->passed) < 0) return -1;
    /* where the round's moves begin in the log: after the action that ended the last round
       (logged already here; in Python it joins the log after this set-up, hence its + 1) */
    if (own_set_int(st, "round_start", (long)PyList_GET_SIZE(w->history)) < 0) return -1;
    /* (its maze and the maze's memo, _mt, written with the hands: write_maze) */
    w->phase = MAIN; w->pend_n = 0; w->pending_draw = 0;
    w->last = w->turn; w->finder = -1; w->current = w->turn;
    return 0;
}

/* ------------------------------------------------------------------ one decision */
typedef struct { int count, tag, card; } Entry;

/* a hand's kinds counted anew (after a hand is dealt, loaded or swapped) */
static void hand_recount(W *w, int seat) {
    memset(w->kcount[seat], 0, sizeof w->kcount[seat]);
    memset(w->kbits[seat], 0, sizeof w->kbits[seat]);
    w->ktwice[seat] = w->kthrice[seat] = 0;
    for (int i = 0; i < w->hn[seat]; i++) {
        int id = w->hand[seat][i], k = ++w->kcount[seat][id];
        w->kbits[seat][id >> 6] |= 1ULL << (id & 63);
        w->ktwice[seat] += k == 2;
        w->kthrice[seat] += k == 3;
    }
}

/* a seat's hand emptied: its kind counts zeroed card by card (they count the hand, as every
   change of a hand keeps them; hand_recount starts from nothing) */
static void hand_clear(W *w, int seat) {
    for (int i = 0; i < w->hn[seat]; i++) {
        int id = w->hand[seat][i];
        w->kcount[seat][id] = 0;
        w->kbits[seat][id >> 6] = 0;
    }
    w->ktwice[seat] = w->kthrice[seat] = 0;
    w->hn[seat] = 0;
}

/* the kind counts of a hand dealt to a seat that hand_clear emptied */
static void hand_count(W *w, int seat) {
    for (int i = 0; i < w->hn[seat]; i++) {
        int id = w->hand[seat][i], k = ++w->kcount[seat][id];
        w->kbits[seat][id >> 6] |= 1ULL << (id & 63);
        w->ktwice[seat] += k == 2;
        w->kthrice[seat] += k == 3;
    }
}

static int hand_remove(W *w, int seat, int card) {
    w->hdirty |= 1u << seat;
    int *h = w->hand[seat], n = w->hn[seat];
    for (int i = 0; i < n; i++)
        if (h[i] == card) {  /* (a few cards: shifted by hand) */
            for (int k = i + 1; k < n; k++) h[k - 1] = h[k];
            w->hn[seat] = n - 1;
            int k = --w->kcount[seat][card];
            if (k == 0) w->kbits[seat][card >> 6] &= ~(1ULL << (card & 63));
            w->ktwice[seat] -= k == 1;
            w->kthrice[seat] -= k == 2;
            return 0;
        }
    PyErr_SetString(PyExc_AssertionError, "core: card not in hand");
    return -1;
}

static void draw(W *w, int seat, int n) {
    w->hdirty |= 1u << seat;
    while (n-- > 0 && w->ndeck > 0) {
        int id = w->deck[--w->ndeck], k;
        w->hand[seat][w->hn[seat]++] = id;
        k = ++w->kcount[seat][id];
        w->kbits[seat][id >> 6] |= 1ULL << (id & 63);
        w->ktwice[seat] += k == 2;
        w->kthrice[seat] += k == 3;
    }
}

/* ClassicState._end_turn: GO_ON, or ROUND_END (the pile and every hand empty) */
static int end_turn(W *w) {
    if (w->ndeck > 0) draw(w, w->turn, w->pending_draw);
    else {
        int any = 0;
        for (int s = 0; s < w->seats; s++) if (w->hn[s]) { any = 1; break; }
        if (!any) { w->pending_draw = 0; return ROUND_END; }
    }
    w->pending_draw = 0;
    int nxt = (w->turn + 1) % w->seats;
    while (!w->hn[nxt]) nxt = (nxt + 1) % w->seats;
    w->turn = w->current = nxt;
    w->phase = MAIN;
    return GO_ON;
}

/* goal_orientations: the rotated flags a revealed goal may lie */
static int goal_ways(W *w, int g, int *opts) {
    Tables *t = w->t;
    int card = hid[g];
    return goal_ways_of(t->norient[card], t->orot[card], t->ootile[card], t->open_mask, t->fits,
                        constraint_of(w, g), rin[g], opts);
}

static void reveal(W *w, int g, int rotated) {
    Tables *t = w->t;
    place(w, g, t->otile_of[hid[g]][rotated ? 1 : 0]);
}

/* ClassicState._settle */
static int settle(W *w, int actor) {
    Tables *t = w->t;
    for (;;) {
        int best = -1, bestkey = 0;
        for (int i = 0; i < w->nh; i++) {
            int c = w->hcell[i];
            if (!rin[c]) continue;
            int key = (t->gold[w->hcard[i]] ? 1 << 20 : 0) | c;
            if (best < 0 || key < bestkey) { best = c; bestkey = key; }
        }
        if (best < 0) return GO_ON;
        int g = best, opts[2] = {0, 0};
        int n = goal_ways(w, g, opts);
        int gold = t->gold[hid[g]];
        if (n > 1 && !gold) {
            w->phase = ORIENT;
            w->pend_g = g; w->pend_n = n; w->pend_opt[0] = opts[0]; w->pend_opt[1] = opts[1];
            w->current = actor;
            return PAUSE;
        }
        reveal(w, g, opts[0]);
        if (gold) { w->finder = actor; return ROUND_END; }
    }
}

/* the cards in front of a seat changed (a break, a repair): the state's in_front is written
   by flush_fronts before Python next reads it (a call into the state, a round's end, the
   play-out's end), all changed seats at once */
static inline int set_front(W *w, int seat) {
    front_gen++;
    w->front_dirty |= 1u << seat;
    return 0;
}

/* in_front: a new tuple of tuples, the changed seats' replaced (as ClassicState._set_front) */
static int flush_fronts(W *w) {
    if (!w->front_dirty) return 0;
    PyObject *old = get_attr(w->state, "in_front");
    if (old == NULL) return -1;
    PyObject *nt = PyTuple_New(w->seats);
    if (nt == NULL) { Py_DECREF(old); return -1; }
    for (int s = 0; s < w->seats; s++) {
        PyObject *f;
        if (w->front_dirty & (1u << s)) {
            f = PyTuple_New(w->nfront[s]);
            if (f == NULL) { Py_DECREF(old); Py_DECREF(nt); return -1; }
            for (int i = 0; i < w->nfront[s]; i++) {
                PyObject *code = w->t->codes[w->front[s][i]];
                Py_INCREF(code);
                PyTuple_SET_ITEM(f, i, code);
            }
        } else {
            f = PyTuple_GET_ITEM(old, s);
            Py_INCREF(f);
        }
        PyTuple_SET_ITEM(nt, s, f);
    }
    Py_DECREF(old);
    int r = set_attr(w->state, "in_front", nt);
    Py_DECREF(nt);
    if (r == 0) w->front_dirty = 0;
    return r;
}

static int see(W *w, int seat, int c) {
    return see_card(w->state, seat, py_of(c), w->t->codes[hid[c]]);
}


/* the targets of a map (face-down goals) or a rockfall (path cards), sorted */
static int cell_targets(W *w, int card, int *out) {
    Tables *t = w->t;
    int n = 0;
    if (t->effect[card] == E_MAP) for (int i = 0; i < w->nh; i++) out[n++] = w->hcell[i];
    else for (int i = 0; i < w->norder; i++) if (t->is_path[tile[w->order[i]]]) out[n++] = w->order[i];
    sort_short(out, n);
    return n;
}

/* table[key] of a Python table of interned actions (a new reference), through the Tables'
   cache: ``tag`` keeps apart the keys of different tables (0: placements, 1 + card: that
   card's cell actions) */
static inline uint64_t acache_slot(Tables *t, uint64_t k) {  /* k's slot, or a free one */
    uint64_t slot = (k * GAMMA) >> 48;
    while (t->aval[slot] != NULL && t->akey[slot] != k) slot = (slot + 1) & (ACACHE - 1);
    return slot;
}
static inline void acache_put(Tables *t, uint64_t slot, uint64_t k, PyObject *a) {
    if (a != NULL && t->afill < ACACHE / 2) {  /* (half full at most: short probes) */
        t->akey[slot] = k; t->aval[slot] = a; Py_INCREF(a); t->afill++;
    }
}
static PyObject *cached_action(Tables *t, PyObject *table, uint64_t tag, long key) {
    uint64_t k = (tag << 40) | (uint64_t)key, slot = acache_slot(t, k);
    if (t->aval[slot] != NULL) { Py_INCREF(t->aval[slot]); return t->aval[slot]; }
    PyObject *pk = PyLong_FromLong(key);
    if (pk == NULL) return NULL;
    PyObject *a = PyObject_GetItem(table, pk);
    Py_DECREF(pk);
    acache_put(t, slot, k, a);
    return a;
}

/* a NamedTuple action of n items (tuple.__new__(type, items), without its argument parsing;
   the items are set by the caller) */
static PyObject *new_action(PyObject *type, Py_ssize_t n) {
    PyTypeObject *tp = (PyTypeObject *)type;
    return tp->tp_alloc(tp, n);
}

static PyObject *cell_action(W *w, int card, int c) {
    return cached_action(w->t, w->t->cell_acts[card], 1 + (uint64_t)card, py_of(c));
}

static int append_discard(W *w, int card) {
    if (!w->logging) return PyList_Append(w->discards, w->t->codes[card]);
    if (w->ndisc == LOGDISC && flush_logs(w) < 0) return -1;
    Py_INCREF(w->t->codes[card]);
    w->log_disc[w->ndisc++] = w->t->codes[card];
    return 0;
}

/* a card passed face down by a seat (a pass, a discard): the state's passed, as the
   discards */
static inline int append_passed(W *w, int seat, int card) {
    PyObject *p = w->t->passed_t[seat][card];
    if (!w->logging) return PyList_Append(w->passed, p);
    if (w->npassed == LOGPASSED && flush_logs(w) < 0) return -1;
    Py_INCREF(p);
    w->log_passed[w->npassed++] = p;
    return 0;
}

static int targets[MAXORDER];

/* ------------------------------------------------------------------ the menu's parts */
/* the hand's distinct cards, sorted (ids are in code order), each with its count */
static int hand_kinds(W *w, int seat, int *hd, int *mult) {
    /* read off the hand's kind set in order (ids < MAXCARDS, in code order) */
    int n = 0;
    for (int b = 0; b < KWORDS; b++)
        for (uint64_t x = w->kbits[seat][b]; x; x &= x - 1) {
            int id = (b << 6) | __builtin_ctzll(x);
            hd[n] = id; mult[n] = w->kcount[seat][id]; n++;
        }
    return n;
}

/* may the seat lay path cards?  Nothing in front, or only cards in build_ok (can_build) */
static inline int can_build(W *w, int seat) {
    return (w->bits[seat] & ~w->t->build_ok) == 0;
}

/* where a ladder may go (ExpansionState._ladder_cells): empty cells next to a face-up card,
   none next to a goal; sorted, with their fit constraints, into w->lc and w->lck (kept
   until the maze changes) */
static int ladder_cells(W *w) {
    Tables *t = w->t;
    int n = 0, *cells = w->lc, *ks = w->lck;
    if (w->lc_valid) {
        for (int i = 0; i < w->nlc_late; i++) lc_update(w, w->lc_late[i]);
        w->nlc_late = 0;
        return w->nlc;
    }
    if (++mgen == 0) { memset(mark, 0, sizeof mark); mgen = 1; }
    for (int i = 0; i < t->nnear; i++) mark[t->near[i]] = mgen;
    for (int i = 0; i < w->norder; i++)
        for (int e = 0; e < 4; e++) {
            int c = w->order[i] + DELTA[e];
            if (tile[c] >= 0 || hid[c] >= 0 || mark[c] == mgen) continue;
            mark[c] = mgen;
            cells[n++] = c;
        }
    sort_short(cells, n);
    for (int i = 0; i < n; i++) ks[i] = constraint_of(w, cells[i]);
    w->nlc = n;
    w->lc_valid = 1;
    w->nlc_late = 0;
    return n;
}

/* where c is among the ladder cells (sorted), or where it would go (cell_find) */
static inline int lc_find(W *w, int c) { return cell_find(w->lc, w->nlc, c); }

/* the ladder cells after a card laid face up on c (a path card, a ladder or a goal turned
   over): c leaves them, its empty neighbours away from the goals join them, and those
   neighbours' constraints change (a constraint is made of the four neighbours' tiles
   only); the same cells as ladder_cells() would find anew */
static void lc_update(W *w, int c) {
    Tables *t = w->t;
    int *lc = w->lc, *lck = w->lck, at = lc_find(w, c);
    if (at >= 0) {  /* (a few dozen cells: shifted by hand, not memmove) */
        w->nlc--;
        for (int k = at; k < w->nlc; k++) { lc[k] = lc[k + 1]; lck[k] = lck[k + 1]; }
    }
    for (int e = 0; e < 4; e++) {
        int n = c + DELTA[e];
        if (tile[n] >= 0 || hid[n] >= 0 || (t->near_bits[n >> 6] >> (n & 63) & 1)) continue;
        int j = lc_find(w, n);
        if (j < 0) {
            j = -1 - j;
            for (int k = w->nlc; k > j; k--) { lc[k] = lc[k - 1]; lck[k] = lck[k - 1]; }
            lc[j] = n;
            w->nlc++;
        }
        lck[j] = constraint_of(w, n);
    }
}

/* a path card's placements on cells (constraints ks): by orientation, then cell; their
   count, or the i-th one's cell (and its oriented tile) */
static int fit_count(Tables *t, int card, const int *ks, int n) {
    int k = 0;
    for (int o = 0; o < t->norient[card]; o++)
        for (int j = 0; j < n; j++) k += t->ofit[card][o][ks[j]];
    return k;
}
static int nth_fit(Tables *t, int card, const int *cells, const int *ks, int n, int i,
                   int *otile) {
    for (int o = 0; o < t->norient[card]; o++)
        for (int j = 0; j < n; j++)
            if (t->ofit[card][o][ks[j]]) {
                if (i == 0) { *otile = t->ootile[card][o]; return cells[j]; }
                i--;
            }
    return -1;
}

static int spare_roles(W *w) {
    PyObject *v = own_attr(w->state, "spare_roles");
    if (v == NULL) return -1;
    Py_ssize_t n = PyObject_Length(v);
    Py_DECREF(v);
    return (int)n;
}

/* the seats an action card aims at, in the menu's order (menu.ToolEntries for breaks,
   repairs, hands-off and free at last; ExpansionState._more_targets for the others); a
   repair's tool (its index) in tool[] */
static int seat_targets(W *w, int seat, int card, int *out, int *tool) {
    Tables *t = w->t;
    int n = 0, bit = t->front_bit[card];
    switch (t->effect[card]) {
    case E_BREAK:
        for (int s = 0; s < w->seats; s++) if (!(w->bits[s] & t->break_bit[card])) out[n++] = s;
        break;
    case E_REPAIR:
        for (int s = 0; s < w->seats; s++)
            for (int j = 0; j < t->nrtools[card]; j++)
                if (w->bits[s] & t->rtool_bit[card][j]) { out[n] = s; tool[n] = j; n++; }
        break;
    case E_REMOVE:
        for (int s = 0; s < w->seats; s++) if (w->bits[s] & t->removes_bit[card]) out[n++] = s;
        break;
    case E_THEFT:
        if (!(w->bits[seat] & bit)) out[n++] = seat;
        break;
    case E_TRAPPED:
        for (int s = 0; s < w->seats; s++) if (s != seat && !(w->bits[s] & bit)) out[n++] = s;
        break;
    case E_SWAP_HAND: case E_OTHER_SEAT:
        for (int s = 0; s < w->seats; s++) if (s != seat) out[n++] = s;
        break;
    case E_SWAP_HATS: {
        int spare = spare_roles(w);
        if (spare < 0) return -1;
        if (spare) for (int s = 0; s < w->seats; s++) out[n++] = s;
        break;
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "core: a card the core does not play");
        return -1;
    }
    return n;
}

/* how many seats an action card aims at (seat_targets' count): a break's, a repair's or a
   hands-off's depend on the cards in front only, kept per card until those change */
static uint32_t tc_gen[MAXCARDS];
static int tc_n[MAXCARDS];
static int target_count(W *w, int seat, int card, int *seats, int *tools) {
    Tables *t = w->t;
    int n = 0, bit = t->front_bit[card];
    switch (t->effect[card]) {  /* (counted as seat_targets finds them) */
    case E_THEFT: return !(w->bits[seat] & bit);
    case E_TRAPPED:
        for (int s = 0; s < w->seats; s++) n += s != seat && !(w->bits[s] & bit);
        return n;
    case E_SWAP_HAND: case E_OTHER_SEAT: return w->seats - 1;
    case E_BREAK: case E_REPAIR: case E_REMOVE: break;
    default: return seat_targets(w, seat, card, seats, tools);
    }
    if (tc_gen[card] != front_gen) {
        tc_n[card] = seat_targets(w, seat, card, seats, tools);
        tc_gen[card] = front_gen;
    }
    return tc_n[card];
}

/* the distinct pairs and triples of a sorted hand (kinds hd, counts mult), in the order of
   engine.moves' templates: lexicographic by card */
static inline int triple_ok(const int *mult, int a, int b, int c) {
    int need_a = 1 + (b == a) + (c == a), need_b = 1 + (c == b);
    return mult[a] >= need_a && mult[b] >= need_b;
}
/* how many pairs and triples a hand's nk kinds make (twice, thrice: how many of them it
   holds twice or more, three times or more): pairs, C(nk, 2)
   of two kinds and one of each kind held twice or more; triples, C(nk, 3) of three kinds,
   a pair of one kind held twice or more with any other kind, three of a kind held three
   times or more */
typedef struct { int pairs, triples; } Combos;
static Combos combos_of(int nk, int twice, int thrice) {
    return (Combos){nk * (nk - 1) / 2 + twice,
                    nk * (nk - 1) * (nk - 2) / 6 + twice * (nk - 1) + thrice};
}
/* the i-th triple in their order, a block of triples skipped at a time: those of a first
   kind a (the rest lexicographic), then of a second kind b */
static void nth_triple(const int *hd, const int *mult, int nk, int i, int *out) {
    int twice_after[MAXHAND + 1];  /* kinds after a held twice or more */
    twice_after[nk] = 0;
    for (int a = nk - 1; a >= 0; a--) twice_after[a] = twice_after[a + 1] + (mult[a] >= 2);
    for (int a = 0; a < nk; a++) {
        int rest = nk - 1 - a;  /* kinds after a */
        int with_a = (mult[a] >= 3) + (mult[a] >= 2) * rest + twice_after[a + 1]
                     + rest * (rest - 1) / 2;
        if (i >= with_a) { i -= with_a; continue; }
        for (int b = a; b < nk; b++) {
            int after_b = nk - 1 - b;
            int with_b = b == a ? (mult[a] >= 3) + (mult[a] >= 2) * after_b
                                : (mult[b] >= 2) + after_b;
            if (i >= with_b) { i -= with_b; continue; }
            for (int c = b; c < nk; c++)
                if (triple_ok(mult, a, b, c) && i-- == 0) {
                    out[0] = hd[a]; out[1] = hd[b]; out[2] = hd[c]; return;
                }
        }
    }
}
/* passes of 1 to pass_max cards: singles, pairs, triples (the hand's combos c) */
static int pass_count(Tables *t, int nk, Combos c) {
    return nk + (t->pass_max >= 2 ? c.pairs : 0) + (t->pass_max >= 3 ? c.triples : 0);
}
/* the i-th pass (np: the hand's pairs) */
static int nth_pass(const int *hd, const int *mult, int nk, int np, int i, int *out) {
    if (i < nk) { out[0] = hd[i]; return 1; }
    i -= nk;
    if (i < np) { nth_pair(hd, mult, nk, i, out); return 2; }
    nth_triple(hd, mult, nk, i - np, out);
    return 3;
}

/* the sorted distinct cards in front of the seat (what discarding may remove) */
static int front_kinds(W *w, int seat, int *out) {
    int n = 0;
    for (int i = 0; i < w->nfront[seat]; i++) {
        int id = w->front[seat][i], j = n, dup = 0;
        for (int k = 0; k < n; k++) if (out[k] == id) dup = 1;
        if (dup) continue;
        while (j > 0 && out[j - 1] > id) { out[j] = out[j - 1]; j--; }
        out[j] = id; n++;
    }
    return n;
}

/* the action objects the pure menus hand out */
static PyObject *codes_tuple(Tables *t, const int *cards, int n) {
    PyObject *combo = PyTuple_New(n);
    if (combo == NULL) return NULL;
    for (int i = 0; i < n; i++) { Py_INCREF(t->codes[cards[i]]); PyTuple_SET_ITEM(combo, i, t->codes[cards[i]]); }
    return combo;
}
static PyObject *pass_action(Tables *t, const int *cards, int n) {
    if (n == 1) { Py_INCREF(t->single[cards[0]]); return t->single[cards[0]]; }
    /* made once, cached here by the cards' ids (the pure menus make a pair's once,
       moves._PASSES, and a triple's anew: actions are values, equal either way) */
    uint64_t k = ((uint64_t)(MAXCARDS + n - 1) << 40) | (uint64_t)(cards[0] << 16 | cards[1] << 8
                                                                   | (n == 3 ? cards[2] : 0));
    uint64_t slot = acache_slot(t, k);
    if (t->aval[slot] != NULL) { Py_INCREF(t->aval[slot]); return t->aval[slot]; }
    PyObject *combo = codes_tuple(t, cards, n), *a;
    if (combo == NULL) return NULL;
    if (n == 2) {
        a = PyObject_GetItem(t->passes, combo);
        Py_DECREF(combo);
    } else if ((a = new_action(t->pass_type, 1)) == NULL) {
        Py_DECREF(combo);
    } else {
        PyTuple_SET_ITEM(a, 0, combo);
    }
    acache_put(t, slot, k, a);
    return a;
}
static PyObject *discard_action(Tables *t, const int *pair, int removed) {
    uint64_t k = ((uint64_t)(MAXCARDS + 3) << 40) | (uint64_t)(pair[0] << 16 | pair[1] << 8 | removed);
    uint64_t slot = acache_slot(t, k);
    if (t->aval[slot] != NULL) { Py_INCREF(t->aval[slot]); return t->aval[slot]; }
    PyObject *combo = codes_tuple(t, pair, 2), *a;
    if (combo == NULL) return NULL;
    if ((a = new_action(t->discard_type, 2)) == NULL) { Py_DECREF(combo); return NULL; }
    PyTuple_SET_ITEM(a, 0, combo);
    Py_INCREF(t->codes[removed]);
    PyTuple_SET_ITEM(a, 1, t->codes[removed]);
    acache_put(t, slot, k, a);
    return a;
}

static PyObject *rw_state(void);  /* the rollout API's resident state, or NULL */
/* an action card's effect carried out by the state's own method (Saboteur 2's cards that
   change only what Python keeps, or the cards in front: read back after) */
static PyObject *res_plain;
static int py_on_player(W *w, int seat, int card, int target) {
    if (flush_fronts(w) < 0 || flush_logs(w) < 0) return -1;
    /* a state the rollout API holds is its own class for the call (what it reads and sets
       is Python's: the roles), the core's copy kept */
    PyObject *held = w->state == rw_state() ? (PyObject *)Py_TYPE(w->state) : NULL;
    if (held != NULL && set_attr(w->state, "__class__", res_plain) < 0) return -1;
    PyObject *r = PyObject_CallMethod(w->state, "_play_on_player", "iOiO", seat,
                                      w->t->codes[card], target, Py_None);
    if (held != NULL && set_attr(w->state, "__class__", held) < 0) { Py_XDECREF(r); return -1; }
    if (r == NULL) return -1;
    Py_DECREF(r);
    return load_fronts(w) == 0 ? 0 : -1;
}

/* Saboteur 2's theft_order (a Python list, replaced, never changed in place): a Theft laid
   in front of ``seat`` joins its end; one taken away leaves (list.remove: the first) */
static int theft_order_edit(W *w, int seat, int add) {
    PyObject *old = get_attr(w->state, "theft_order");
    if (old == NULL) return -1;
    PyObject *order = PySequence_List(old), *who = PyLong_FromLong(seat);
    Py_DECREF(old);
    int r = -1;
    if (order != NULL && who != NULL) {
        if (add) r = PyList_Append(order, who);
        else {
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(order) && r < 0; i++) {
                int eq = PyObject_RichCompareBool(PyList_GET_ITEM(order, i), who, Py_EQ);
                if (eq < 0) break;
                if (eq) r = PySequence_DelItem(order, i);
            }
            if (r < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "core: theft_order");
        }
        if (r == 0) r = set_attr(w->state, "theft_order", order);
    }
    Py_XDECREF(order); Py_XDECREF(who);
    return r;
}

/* ExpansionState._take_from_front: the card at ``k`` in front of ``seat`` discarded (a
   Theft also leaves theft_order) */
static int take_from_front(W *w, int seat, int k) {
    int card = w->front[seat][k];
    memmove(&w->front[seat][k], &w->front[seat][k + 1], sizeof(int) * (size_t)(w->nfront[seat] - k - 1));
    w->nfront[seat]--;
    w->bits[seat] -= w->t->front_bit[card];
    set_front(w, seat);
    if (append_discard(w, card) < 0) return -1;
    return w->t->effect[card] == E_THEFT ? theft_order_edit(w, seat, 0) : 0;
}

/* ExpansionState._play_on_player's inspection: ``inspected`` (a list of dicts, replaced, as
   is the seat's dict) with the target's role added to what the seat has seen */
static int inspect_role(W *w, int seat, int target) {
    PyObject *st = w->state, *old = own_attr(st, "inspected"), *roles = own_attr(st, "roles");
    PyObject *seen = NULL, *who = NULL, *now = NULL;
    int r = -1;
    if (old != NULL && roles != NULL && PyList_Check(old) && PyList_Check(roles)
        && seat < PyList_GET_SIZE(old) && target < PyList_GET_SIZE(roles)
        && (now = PyList_GetSlice(old, 0, PY_SSIZE_T_MAX)) != NULL
        && (seen = PyDict_Copy(PyList_GET_ITEM(old, seat))) != NULL
        && (who = PyLong_FromLong(target)) != NULL
        && PyDict_SetItem(seen, who, PyList_GET_ITEM(roles, target)) == 0) {
        PyList_SetItem(now, seat, seen);  /* (steals seen) */
        seen = NULL;
        r = set_attr(st, "inspected", now);
    }
    if (r < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_AssertionError, "core: inspection");
    Py_XDECREF(old); Py_XDECREF(roles); Py_XDECREF(seen); Py_XDECREF(who); Py_XDECREF(now);
    return r;
}

/* ExpansionState._play_on_player's swap your hats: the target's role joins hats_aside, a
   spare role (the last) takes its place, and nobody's inspection of the target stands;
   every list and dict replaced, not changed in place (clones share them) */
static int swap_hats(W *w, int target) {
    PyObject *st = w->state, *aside = own_attr(st, "hats_aside"), *roles0 = own_attr(st, "roles"),
             *spare0 = own_attr(st, "spare_roles"), *insp0 = own_attr(st, "inspected");
    PyObject *more = NULL, *roles = NULL, *spare = NULL, *insp = NULL, *who = NULL;
    int r = -1;
    Py_ssize_t ns;
    if (aside == NULL || roles0 == NULL || spare0 == NULL || insp0 == NULL
        || !PyList_Check(roles0) || !PyList_Check(insp0) || target >= PyList_GET_SIZE(roles0)
        || (more = PySequence_List(aside)) == NULL
        || PyList_Append(more, PyList_GET_ITEM(roles0, target)) < 0
        || (roles = PyList_GetSlice(roles0, 0, PY_SSIZE_T_MAX)) == NULL
        || (spare = PySequence_List(spare0)) == NULL || (ns = PyList_GET_SIZE(spare)) == 0
        || (insp = PyList_New(PyList_GET_SIZE(insp0))) == NULL || (who = PyLong_FromLong(target)) == NULL)
        goto out;
    PyObject *last = PyList_GET_ITEM(spare, ns - 1);  /* spare.pop() */
    Py_INCREF(last);
    if (PyList_SetSlice(spare, ns - 1, ns, NULL) < 0) { Py_DECREF(last); goto out; }
    PyList_SetItem(roles, target, last);  /* (steals last) */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(insp0); i++) {
        PyObject *known = PyDict_Copy(PyList_GET_ITEM(insp0, i));
        if (known == NULL) goto out;
        PyList_SET_ITEM(insp, i, known);
        if (PyDict_Contains(known, who) == 1 && PyDict_DelItem(known, who) < 0) goto out;
    }
    if (!PyErr_Occurred())
        r = set_attr(st, "hats_aside", more) < 0 || set_attr(st, "roles", roles) < 0
            || set_attr(st, "spare_roles", spare) < 0 || set_attr(st, "inspected", insp) < 0 ? -1 : 0;
out:
    if (r < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_AssertionError, "core: swap your hats");
    Py_XDECREF(aside); Py_XDECREF(roles0); Py_XDECREF(spare0); Py_XDECREF(insp0);
    Py_XDECREF(more); Py_XDECREF(roles); Py_XDECREF(spare); Py_XDECREF(insp); Py_XDECREF(who);
    return r;
}

static int seat_effect(W *w, int seat, int card, int target, int tool) {
    Tables *t = w->t;
    switch (t->effect[card]) {
    case E_BREAK:
        w->front[target][w->nfront[target]++] = card;
        w->bits[target] += t->front_bit[card];
        return set_front(w, target);
    case E_REPAIR: {
        int bit = t->rtool_bit[card][tool], k = 0;
        while (t->front_bit[w->front[target][k]] != bit) k++;
        int broken = w->front[target][k];
        memmove(&w->front[target][k], &w->front[target][k + 1], sizeof(int) * (size_t)(w->nfront[target] - k - 1));
        w->nfront[target]--;
        w->bits[target] -= bit;
        if (append_discard(w, card) < 0 || append_discard(w, broken) < 0) return -1;
        return set_front(w, target);
    }
    case E_THEFT:  /* laid in front of the target (a Theft also joins theft_order) */
    case E_TRAPPED:
        w->front[target][w->nfront[target]++] = card;
        w->bits[target] += t->front_bit[card];
        set_front(w, target);
        return t->effect[card] == E_THEFT ? theft_order_edit(w, target, 1) : 0;
    case E_REMOVE: {  /* hands-off, free at last: discarded, and the card it removes */
        int k = 0;
        while (t->front_bit[w->front[target][k]] != t->removes_bit[card]) k++;
        if (append_discard(w, card) < 0) return -1;
        return take_from_front(w, target, k);
    }
    case E_SWAP_HAND: {  /* the hands change places; the other player draws, not the actor */
        static int tmp[MAXHAND];
        if (append_discard(w, card) < 0) return -1;
        int n = w->hn[seat];
        memcpy(tmp, w->hand[seat], sizeof(int) * (size_t)n);
        memcpy(w->hand[seat], w->hand[target], sizeof(int) * (size_t)w->hn[target]);
        w->hn[seat] = w->hn[target];
        memcpy(w->hand[target], tmp, sizeof(int) * (size_t)n);
        w->hn[target] = n;
        hand_recount(w, seat);
        hand_recount(w, target);
        w->hdirty |= 1u << seat | 1u << target;
        draw(w, target, 1);
        w->pending_draw = 0;
        return 0;
    }
    case E_OTHER_SEAT:  /* inspection: discarded, the target's role seen by the seat */
        return append_discard(w, card) < 0 ? -1 : inspect_role(w, seat, target);
    case E_SWAP_HATS:  /* swap your hats: discarded, the target's role set aside for a spare */
        return append_discard(w, card) < 0 ? -1 : swap_hats(w, target);
    default:
        return py_on_player(w, seat, card, target);
    }
}

/* the menu of the current decision (ClassicState._menu's entries, in its order) and what
   decoding its entries needs: the hand's kinds and counts, a discard's removable cards */
typedef struct {
    Entry e[MAXCARDS + 4];
    int n, seat, nk, nrem, npairs;
    Combos c;  /* the hand's pairs and triples (where passes or discards take several) */
    int hd[MAXHAND], mult[MAXHAND], removable[MAXFRONT];
} Menu;

static int menu_of(W *w, Menu *m) {
    Tables *t = w->t;
    int seats[MAXSEATS * 2], tools[MAXSEATS * 2];
    int nm = 0, nk = 0, seat = w->current, *hd = m->hd, *mult = m->mult;
    Entry *menu = m->e;
    m->seat = seat; m->nrem = m->npairs = 0;
    if (w->phase == ORIENT) {
        menu[nm++] = (Entry){w->pend_n, T_ORIENT, -1};
    } else {
        nk = hand_kinds(w, seat, hd, mult);
        m->c = t->pass_max >= 2 || t->discard_n
               ? combos_of(nk, w->ktwice[seat], w->kthrice[seat]) : (Combos){0, 0};
        int build = can_build(w, seat);
        for (int i = 0; i < nk && build; i++) {  /* path cards first, by code */
            int c = hd[i];
            if (t->kind[c] == K_PATH) {
                frontier(w);
                int n = 0;
                const unsigned char *nf = t->nfit[c];
                for (int j = 0; j < w->nfr; j++) n += nf[w->frk[j]];
                if (n) menu[nm++] = (Entry){n, T_PATH, c};
            } else if (t->kind[c] == K_LADDER) {
                int nc = ladder_cells(w);
                int n = fit_count(t, c, w->lck, nc);
                if (n) menu[nm++] = (Entry){n, T_LADDER, c};
            }
        }
        for (int i = 0; i < nk; i++) {  /* then action cards, by code */
            int c = hd[i], k = t->kind[c], n = 0;
            if (k == K_PATH || k == K_LADDER) continue;
            if (k == K_CELL) {
                if (t->effect[c] == E_MAP) n = w->nh;
                else for (int j = 0; j < w->norder; j++) n += t->is_path[tile[w->order[j]]];
                if (n) menu[nm++] = (Entry){n, T_CELL, c};
                continue;
            }
            if (k == K_TOOL) w->tools_seen = 1;
            n = target_count(w, seat, c, seats, tools);
            if (n < 0) return -1;
            if (n) menu[nm++] = (Entry){n, T_SEATS, c};
        }
        if (t->discard_n && w->nfront[seat] && w->hn[seat] >= t->discard_n) {
            m->nrem = front_kinds(w, seat, m->removable);
            m->npairs = m->c.pairs;
            if (m->npairs) menu[nm++] = (Entry){m->npairs * m->nrem, T_DISCARD, -1};
        }
        if (nk) menu[nm++] = (Entry){pass_count(t, nk, m->c), T_PASS, -1};
    }
    if (nm == 0) { PyErr_SetString(PyExc_AssertionError, "core: no legal action"); return -1; }
    m->n = nm; m->nk = nk;
    return 0;
}

/* the i-th placement of a path card's or a ladder's entry: its action (a new reference),
   and the cell and oriented tile it lays */
static PyObject *placement_at(W *w, Entry *e, int i, int *at, int *otile) {
    Tables *t = w->t;
    *otile = -1;
    if (e->tag == T_PATH) {
        frontier(w);
        *at = nth_fit(t, e->card, w->fr, w->frk, w->nfr, i, otile);
    } else {
        int nc = ladder_cells(w);
        *at = nth_fit(t, e->card, w->lc, w->lck, nc, i, otile);
    }
    if (*at < 0) { PyErr_SetString(PyExc_AssertionError, "core: placement"); return NULL; }
    return cached_action(t, t->place, 0, (py_of(*at) << 8) | *otile);
}

static int act(W *w, Menu *m, Entry *e, int i, PyObject **action_out);

/* one decision: picks, applies and logs its action; GO_ON, PAUSE or ROUND_END (-1: error) */
static int decide(W *w, int even, PyObject **action_out) {
    Menu m;
    if (menu_of(w, &m) < 0) return -1;
    Entry *e, *menu = m.e;
    int nm = m.n, i;
    if (even) {
        e = &menu[below(&w->rng, (uint64_t)nm)];
        i = (int)below(&w->rng, (uint64_t)e->count);
    } else {
        int total = 0;
        for (int k = 0; k < nm; k++) total += menu[k].count;
        i = (int)below(&w->rng, (uint64_t)total);
        e = menu;
        while (i >= e->count) { i -= e->count; e++; }
    }
    return act(w, &m, e, i, action_out);
}

/* the i-th action of the menu's entry e applied for the seat deciding, and logged (the
   actor; the caller appends the action to the history) */
static int act(W *w, Menu *m, Entry *e, int i, PyObject **action_out) {
    Tables *t = w->t;
    int seat = m->seat, nk = m->nk, npairs = m->npairs, *hd = m->hd, *mult = m->mult,
        *removable = m->removable;
    int seats[MAXSEATS * 2], tools[MAXSEATS * 2];
    /* the actor is logged first (ClassicState._apply) */
    if (w->logging) {
        if (w->nactors == LOGN && flush_logs(w) < 0) return -1;
        w->log_actor[w->nactors++] = seat;
    } else {
        PyObject *actor = PyLong_FromLong(seat);
        if (actor == NULL || PyList_Append(w->actors, actor) < 0) { Py_XDECREF(actor); return -1; }
        Py_DECREF(actor);
    }
    PyObject *action = NULL;
    int card = e->card, res;
    switch (e->tag) {
    case T_ORIENT: {
        int rotated = w->pend_opt[i];
        action = t->orient_obj[rotated]; Py_INCREF(action);
        w->phase = MAIN;
        reveal(w, w->pend_g, rotated);
        res = settle(w, seat);
        if (res == GO_ON) res = end_turn(w);
        break;
    }
    case T_PATH: case T_LADDER: {
        int otile, at;
        if ((action = placement_at(w, e, i, &at, &otile)) == NULL) return -1;
        w->last = seat; w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0) { Py_DECREF(action); return -1; }
        place(w, at, otile);
        res = settle(w, seat);
        if (res == GO_ON) res = end_turn(w);
        break;
    }
    case T_PASS: {
        int cs[3], n = nth_pass(hd, mult, nk, m->c.pairs, i, cs);
        action = pass_action(t, cs, n);
        if (action == NULL) return -1;
        w->last = seat;
        for (int k = 0; k < n; k++)
            if (hand_remove(w, seat, cs[k]) < 0 || append_passed(w, seat, cs[k]) < 0) {
                Py_DECREF(action); return -1;
            }
        w->pending_draw = n;
        res = end_turn(w);
        break;
    }
    case T_DISCARD: {  /* discard a pair to remove a card lying in front: by card, then pair */
        int pair[2], removed = removable[i / npairs];
        nth_pair(hd, mult, nk, i % npairs, pair);
        action = discard_action(t, pair, removed);
        if (action == NULL) return -1;
        w->last = seat; w->pending_draw = 1;
        for (int k = 0; k < 2; k++)
            if (hand_remove(w, seat, pair[k]) < 0 || append_passed(w, seat, pair[k]) < 0) {
                Py_DECREF(action); return -1;
            }
        int k = 0;
        while (w->front[seat][k] != removed) k++;
        if (take_from_front(w, seat, k) < 0) { Py_DECREF(action); return -1; }
        res = end_turn(w);
        break;
    }
    case T_SEATS: {
        int n = seat_targets(w, seat, card, seats, tools);
        if (n < 0) return -1;
        int target = seats[i];
        if (t->effect[card] == E_REPAIR) action = t->repair_act[card][target][tools[i]];
        else action = t->on_player[card][target];
        Py_INCREF(action);
        w->last = seat; w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || seat_effect(w, seat, card, target, tools[i]) < 0) {
            Py_DECREF(action); return -1;
        }
        res = end_turn(w);
        break;
    }
    case T_CELL: {
        int n = cell_targets(w, card, targets);
        (void)n;
        int c = targets[i];
        action = cell_action(w, card, c);
        if (action == NULL) return -1;
        w->last = seat; w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || append_discard(w, card) < 0) { Py_DECREF(action); return -1; }
        if (t->effect[card] == E_MAP) {
            if (see(w, seat, c) < 0) { Py_DECREF(action); return -1; }
        } else {
            int otile = remove_tile(w, c);
            if (append_discard(w, t->otile_card[otile]) < 0) { Py_DECREF(action); return -1; }
        }
        res = end_turn(w);
        break;
    }
    default:
        PyErr_SetString(PyExc_AssertionError, "core: menu tag");
        return -1;
    }
    *action_out = action;
    return res;
}




static PyObject *play(PyObject *state, PyObject *rng, int until, int even, Tables *t,
                      PyObject *setup, int adopted, PyObject *ctx);
static int release_resident(void);  /* the rollout API's state given back (it uses the grid) */
static int adopt(PyObject *state, Tables *t);  /* the rollout API's state taken by a play-out */
static int hold_state(W *w, PyObject *ctx, int terminal);  /* a state left there (written when read) */
static int rterminal;  /* the held state's match is over (a play-out's last position) */
static W rw;  /* the rollout API's working state, and the play-outs' (below) */

/* classic_play_out(state, rng, until_round_end, even, tables) -> (played, finished)
 * finished False: the core stopped at a position it does not take (written back), and the
 * caller plays the rest in Python. */
static PyObject *classic_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *rng, *caps, *setup, *ctx = Py_None;
    int until, even;
    if (!PyArg_ParseTuple(args, "OOppOO|O", &state, &rng, &until, &even, &caps, &setup, &ctx))
        return NULL;
    Tables *t = PyCapsule_GetPointer(caps, "pysaboteur._core.Tables");
    if (t == NULL) return NULL;
    if (ctx != Py_None && (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != 3)) {
        PyErr_SetString(PyExc_TypeError, "core: the rollout API's context");
        return NULL;
    }
    if (ctx != Py_None && PyTuple_GET_ITEM(ctx, 0) != caps) ctx = Py_None;  /* (other tables) */
    /* one working state for the process: a play-out asked for while another thread's work is
       in a call into Python waits for it; one asked for from this thread's own call into
       Python (a round's end of its own) is played in Python instead */
    if (wait_core()) return Py_BuildValue("(lOO)", 0L, Py_False, Py_False);
    take_busy();
    int adopted = adopt(state, t);
    if (adopted < 0 || (!adopted && release_resident() < 0)) { busy = 0; return NULL; }
    PyObject *result = play(state, rng, until, even, t, setup, adopted, ctx);
    busy = 0;
    return result;
}

/* the state's own method where a round may end (_end_round; a thief's Steal through
   _apply); where the core sets the rounds up, the method's call of _next_round is answered
   by the marker (an instance attribute for the call's length): next_round_called */
static int call_round(W *w, const char *name, PyObject *arg) {
    if (flush_fronts(w) < 0 || flush_logs(w) < 0) return -1;
    int take = w->setup != Py_None;
    next_round_called = 0;
    if (take && set_attr(w->state, "_next_round", marker) < 0) return -1;
    PyObject *r = NULL, *meth = PyUnicode_FromString(name);
    if (meth != NULL) {  /* (a one-argument call: an action is itself a tuple) */
        r = arg == NULL ? PyObject_CallMethodNoArgs(w->state, meth)
                        : PyObject_CallMethodOneArg(w->state, meth, arg);
        Py_DECREF(meth);
    }
    if (take && del_attr(w->state, "_next_round") < 0) { Py_XDECREF(r); return -1; }
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* ClassicState._end_round of the base game on the core, for a round the core will set up
   next: _pay_round (the finder's nuggets drawn from the state's generator and dealt to the
   paid diggers from the finder counter-clockwise, or the saboteurs paid largest nugget
   first), the round's RoundResult, last_round's holder (views.LaterRoundEnd: the board is
   made when first read), then what _end_round sets; its call of _next_round is the core's
   (next_round_called).  ``pay`` is classic.py's _pay_spec: (DIGGER, SABOTEUR, nuggets the
   finder's side draws, the saboteurs' pay by their number, the nuggets' values,
   RoundResult, LaterRoundEnd). */
static PyObject *s_winners, *s_side, *s_finder, *s_roles, *s_spare, *s_in_front,
    *s_diggers_side, *s_saboteurs_side, *s_nobody, *s_gold, *s_exhausted;

static long nugget_value(Tables *t, PyObject *value, PyObject *code) {
    if (value != t->nugget_src) {  /* another game's values: the cache made anew */
        for (int i = 0; i < IDCACHE; i++) Py_CLEAR(t->nugget_of.key[i]);
        t->nugget_of.fill = 0;
        Py_INCREF(value);
        Py_XSETREF(t->nugget_src, value);
    }
    return idcache_lookup(&t->nugget_of, value, code, "a nugget's value");
}

static int pay_round(W *w, PyObject *pay, PyObject *nuggets, PyObject *gold, PyObject *roles,
                     long *earned, PyObject **winners, PyObject **side) {
    PyObject *digger = PyTuple_GET_ITEM(pay, 0), *saboteur = PyTuple_GET_ITEM(pay, 1);
    PyObject *value = PyTuple_GET_ITEM(pay, 4);
    int n = w->seats, is[MAXSEATS];
    for (int s = 0; s < n; s++) {
        PyObject *role = PyList_GET_ITEM(roles, s);
        int d = PyObject_RichCompareBool(role, digger, Py_EQ);
        int b = d ? 0 : PyObject_RichCompareBool(role, saboteur, Py_EQ);
        if (d < 0 || b < 0) return -1;
        is[s] = d ? 1 : b ? 2 : 0;
    }
    if (!(*winners = PyList_New(0))) return -1;
    int want = w->finder >= 0 ? 1 : 2;
    for (int s = 0; s < n; s++) {
        if (is[s] != want) continue;
        PyObject *seat = PyLong_FromLong(s);
        int r = seat == NULL ? -1 : PyList_Append(*winners, seat);
        Py_XDECREF(seat);
        if (r < 0) return -1;
    }
    if (w->finder >= 0) {
        int takers[MAXSEATS], nt = 0;
        for (int i = 0; i < n; i++) {  /* the finder, then counter-clockwise */
            int s = ((w->finder - i) % n + n) % n;
            if (is[s] == 1) takers[nt++] = s;
        }
        Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(pay, 2)), left = PyList_GET_SIZE(nuggets);
        if (k > left) k = left;
        PyObject *drawn[64];
        long dv[64];
        if (k > 64) { PyErr_SetString(PyExc_ValueError, "core: nuggets drawn"); return -1; }
        PyObject *srng = get_attr(w->state, "rng");
        uint64_t rs;
        if (srng == NULL || get_rng(srng, &rs) < 0) { Py_XDECREF(srng); return -1; }
        for (Py_ssize_t i = 0; i < k; i++) {  /* _draw_nugget: nuggets.pop(rng.below(len)) */
            Py_ssize_t at = (Py_ssize_t)below(&rs, (uint64_t)PyList_GET_SIZE(nuggets));
            PyObject *code = PyList_GET_ITEM(nuggets, at);
            Py_INCREF(code);
            if (PySequence_DelItem(nuggets, at) < 0) { Py_DECREF(code); Py_DECREF(srng); return -1; }
            long v = nugget_value(w->t, value, code);
            Py_ssize_t j = i;  /* drawn.sort(key=-value): stable, largest first */
            while (j > 0 && dv[j - 1] < v) { drawn[j] = drawn[j - 1]; dv[j] = dv[j - 1]; j--; }
            drawn[j] = code; dv[j] = v;
        }
        int r = put_rng(srng, rs);
        Py_DECREF(srng);
        for (Py_ssize_t i = 0; i < k && r == 0; i++) {
            if (nt == 0) r = PyList_Append(nuggets, drawn[i]);  /* nobody may take them */
            else {
                int seat = takers[i % nt];
                r = PyList_Append(PyList_GET_ITEM(gold, seat), drawn[i]);
                earned[seat] += dv[i];
            }
        }
        for (Py_ssize_t i = 0; i < k; i++) Py_DECREF(drawn[i]);
        if (r < 0 || (nt == 0 && PyList_Sort(nuggets) < 0)) return -1;
        *side = s_diggers_side;
    } else {
        Py_ssize_t ns = PyList_GET_SIZE(*winners);
        PyObject *table = PyTuple_GET_ITEM(pay, 3);
        long owed = ns < PyTuple_GET_SIZE(table) ? PyLong_AsLong(PyTuple_GET_ITEM(table, ns)) : 0;
        /* the nuggets' values, looked up once (kept in step with the list) */
        long vals[MAXNUGGETS];
        Py_ssize_t left = PyList_GET_SIZE(nuggets);
        if (left > MAXNUGGETS) { PyErr_SetString(PyExc_ValueError, "core: nuggets"); return -1; }
        for (Py_ssize_t i = 0; i < left; i++)
            if ((vals[i] = nugget_value(w->t, value, PyList_GET_ITEM(nuggets, i))) < 0) return -1;
        for (int s = 0; s < n; s++) {
            if (is[s] != 2) continue;
            long o = owed;
            while (o > 0) {  /* _pay_from_nuggets: the largest nugget not above what is owed */
                Py_ssize_t best = -1;
                long bv = 0;
                for (Py_ssize_t i = 0; i < left; i++)
                    if (vals[i] <= o && (best < 0 || vals[i] > bv)) { best = i; bv = vals[i]; }
                if (best < 0) break;
                if (PyList_Append(PyList_GET_ITEM(gold, s), PyList_GET_ITEM(nuggets, best)) < 0
                    || PySequence_DelItem(nuggets, best) < 0)
                    return -1;
                left--;
                for (Py_ssize_t i = best; i < left; i++) vals[i] = vals[i + 1];
                earned[s] += bv;
                o -= bv;
            }
        }
        *side = ns ? s_saboteurs_side : s_nobody;
    }
    return PyErr_Occurred() ? -1 : 0;
}

/* what the round's end reads of the core's maze, for a round whose maze is not written:
   the face-up cards in the order laid and the goals still face down, packed (int32s:
   the number of cards laid, then (cell, oriented tile) each, then (cell, card id) per goal),
   made into a views.EndedBoard only if the round's end is read (classic.py _later_end) */
static PyObject *ended_board(W *w, PyObject *pay) {
    (void)pay;
    int32_t buf[1 + 2 * MAXORDER + 2 * MAXHID], n = 0;
    buf[n++] = w->norder;
    for (int i = 0; i < w->norder; i++) {
        int c = w->order[i];
        buf[n++] = (int32_t)py_of(c); buf[n++] = tile[c];
    }
    for (int i = 0; i < w->nh; i++) { buf[n++] = (int32_t)py_of(w->hcell[i]); buf[n++] = w->hcard[i]; }
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n * (Py_ssize_t)sizeof(int32_t));
}

/* Saboteur 2's routes (ExpansionState._routes): does a route from the sources (the start,
   the ladders: every segment, even of a door) reach the gold passing no door of the colour
   ``barred`` (1 blue, 2 green)?  The reach of a second maze built from the cards laid, one
   context per route, is the closure computed here on the core's grid (a placement only adds
   to reach, so the order the cards were laid in does not change it). */
static uint8_t route_reach[NCELLS];

static int route_open(W *w, const unsigned char *door, int barred, int gold) {
    Tables *t = w->t;
    int top = 0;
    for (int i = 0; i < w->ns; i++) {
        int c = w->scell[i];
        if (tile[c] < 0) continue;
        for (int s = 0; s < t->nseg[tile[c]]; s++)
            if ((w->smask[i] >> s) & 1) { stackbuf[2 * top] = c; stackbuf[2 * top + 1] = s; top++; }
    }
    while (top > 0) {
        top--;
        int c = stackbuf[2 * top], s = stackbuf[2 * top + 1];
        if ((route_reach[c] >> s) & 1) continue;
        if (door[tile[c]] == barred) {  /* NO_ENTER, unless the tile is a source */
            int src = 0;
            for (int i = 0; i < w->ns && !src; i++) src = w->scell[i] == c;
            if (!src) continue;
        }
        route_reach[c] |= (uint8_t)(1 << s);
        int seg = t->segs[tile[c]][s];
        for (int e = 0; e < 4; e++) {
            if (!(seg & EDGES[e])) continue;
            int n = c + DELTA[e], tn = tile[n];
            if (tn < 0) continue;
            int s2 = t->seg_of_edge[tn][OPP[e]];
            if (s2 >= 0 && !((route_reach[n] >> s2) & 1)) {
                stackbuf[2 * top] = n; stackbuf[2 * top + 1] = s2; top++;
            }
        }
    }
    int open = route_reach[gold] != 0;
    for (int i = 0; i < w->norder; i++) route_reach[w->order[i]] = 0;
    return open;
}

static PyObject *s_routes, *s_blue, *s_green, *s_crystals, *s_set_aside, *s_thefts, *s_trapped;

/* a list of the seats in ``seats`` */
static PyObject *seat_list(const int *seats, int n) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *o = PyLong_FromLong(seats[i]);
        if (o == NULL) { Py_CLEAR(l); break; }
        PyList_SET_ITEM(l, i, o);
    }
    return l;
}

/* ExpansionState._pay_round on the core: the door rule (winning_teams), the winners
   (team_winners, saboteur_winners), the trapped not paid (paid), the shares and the
   geologists' crystals (earnings), the purses; ``more``: the details after spare_roles
   (routes where a goal was reached, crystals, set_aside_roles; thefts, empty, follow);
   ``trapped``: who is. */
typedef struct { PyObject *routes, *aside; long crystals; } XpDetails;
static int pay_expansion(W *w, PyObject *xp, PyObject *roles, long *earned,
                         PyObject **winners, PyObject **side, XpDetails *more,
                         PyObject **trapped) {
    PyObject *st = w->state, *colours = PyTuple_GET_ITEM(xp, 1);
    const unsigned char *door = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(xp, 9));
    const unsigned char *crys = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(xp, 10));
    const unsigned char *isgold = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(xp, 11));
    int n = w->seats, role[MAXSEATS], *trap = w->trap, ntrap = 0, trapped_seats[MAXSEATS];
    /* each seat's role: 1 blue digger, 2 green, 3 boss, 4 profiteer, 5 saboteur, 6 geologist
       (pay_spec's table of them; 0 any other) */
    PyObject *named = PyTuple_GET_ITEM(xp, 14);
    PyObject *fronts = own_attr(st, "in_front");
    if (fronts == NULL) return -1;
    int any_saboteur = 0;
    for (int s = 0; s < n; s++) {
        PyObject *k = PyDict_GetItemWithError(named, PyList_GET_ITEM(roles, s));
        if (k == NULL && PyErr_Occurred()) { Py_DECREF(fronts); return -1; }
        role[s] = k == NULL ? 0 : (int)PyLong_AsLong(k);
        any_saboteur |= role[s] == 5;
        trap[s] = PySequence_Contains(PySequence_Fast_GET_ITEM(fronts, s), s_trapped);
        if (trap[s] < 0) { Py_DECREF(fronts); return -1; }
        if (trap[s]) trapped_seats[ntrap++] = s;
    }
    Py_DECREF(fronts);
    long crystals = 0;
    int gold = -1;
    for (int i = 0; i < w->norder; i++) {
        int ot = tile[w->order[i]];
        crystals += crys[ot];
        if (isgold[ot] && gold < 0) gold = w->order[i];
    }
    int win[2 * MAXSEATS], nw = 0;
    more->crystals = crystals;
    if (w->finder >= 0) {
        if (gold < 0) { PyErr_SetString(PyExc_AssertionError, "core: the gold's cell"); return -1; }
        int open[2] = {route_open(w, door, 2, gold), route_open(w, door, 1, gold)};
        more->routes = Py_BuildValue("{OOOO}", s_blue, open[0] ? Py_True : Py_False,
                                     s_green, open[1] ? Py_True : Py_False);
        if (more->routes == NULL) return -1;
        /* winning_teams: the finder's team if its route is open, else the other team if its
           route is open or the door rule is "literal"; a finder of no team: the open ones */
        int fr = role[w->finder], wins[2] = {0, 0};
        if (fr == 1 || fr == 2) {
            int own = fr - 1, other = 1 - own;
            if (open[own]) wins[own] = 1;
            else if (PyObject_IsTrue(PyTuple_GET_ITEM(xp, 8)) || open[other]) wins[other] = 1;
        } else {
            wins[0] = open[0]; wins[1] = open[1];
        }
        for (int s = 0; s < n; s++)  /* team_winners: the diggers, then the boss, profiteer */
            if ((role[s] == 1 && wins[0]) || (role[s] == 2 && wins[1])) win[nw++] = s;
        if (wins[0] || wins[1])
            for (int s = 0; s < n; s++)
                if (role[s] == 3 || role[s] == 4) win[nw++] = s;
        if (wins[0] && wins[1]) *side = PyUnicode_FromFormat("%U+%U", PyTuple_GET_ITEM(colours, 0),
                                                             PyTuple_GET_ITEM(colours, 1));
        else if (wins[0] || wins[1]) *side = Py_NewRef(PyTuple_GET_ITEM(colours, wins[0] ? 0 : 1));
        else *side = Py_NewRef(s_nobody);
    } else {
        if (any_saboteur)  /* saboteur_winners: none without a saboteur in the round */
            for (int s = 0; s < n; s++)
                if (role[s] == 5 || role[s] == 4) win[nw++] = s;
        *side = Py_NewRef(nw ? s_saboteurs_side : s_nobody);
    }
    if (*side == NULL) return -1;
    /* paid: the untrapped winners, sorted (each seat at most once: the roles are distinct) */
    int paid[MAXSEATS], np = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < nw; i++)
            if (win[i] == s && !trap[s]) { paid[np++] = s; break; }
    PyObject *payout = PyTuple_GET_ITEM(xp, 6), *deduction = PyTuple_GET_ITEM(xp, 7);
    Py_ssize_t last = PyTuple_GET_SIZE(payout) - 1;
    long share = PyLong_AsLong(PyTuple_GET_ITEM(payout, np < last ? np : last));
    for (int i = 0; i < np; i++) {
        PyObject *d = PyDict_GetItemWithError(deduction, PyList_GET_ITEM(roles, paid[i]));
        if (d == NULL && PyErr_Occurred()) return -1;
        long e = share - (d ? PyLong_AsLong(d) : 0);
        earned[paid[i]] = e > 0 ? e : 0;
    }
    int geologists = 0;
    for (int s = 0; s < n; s++) geologists += role[s] == 6 && !trap[s];
    for (int s = 0; s < n; s++)
        if (role[s] == 6 && !trap[s]) earned[s] += crystals / geologists;
    /* the purses, a new list; the details that follow spare_roles */
    PyObject *purse = own_attr(st, "purse"), *np_l = purse ? PyList_New(n) : NULL;
    for (int s = 0; np_l && s < n; s++) {
        PyObject *o = PyLong_FromLong(PyLong_AsLong(PyList_GET_ITEM(purse, s)) + earned[s]);
        if (o == NULL) { Py_CLEAR(np_l); break; }
        PyList_SET_ITEM(np_l, s, o);
    }
    Py_XDECREF(purse);
    int bad = np_l == NULL || own_set(st, "purse", np_l) < 0;
    Py_XDECREF(np_l);
    if (bad || !(*winners = seat_list(paid, np)) || !(*trapped = PyTuple_New(ntrap))) return -1;
    for (int i = 0; i < ntrap; i++) {
        PyObject *o = PyLong_FromLong(trapped_seats[i]);
        if (o == NULL) return -1;
        PyTuple_SET_ITEM(*trapped, i, o);
    }
    PyObject *o = own_attr(st, "hats_aside");
    if (o) { more->aside = PySequence_List(o); Py_DECREF(o); }
    return more->aside == NULL || PyList_Sort(more->aside) < 0 || PyErr_Occurred() ? -1 : 0;
}

/* the base game's nuggets and every seat's gold, copied (shared with clones) and paid */
static int pay_classic(W *w, PyObject *pay, PyObject *roles, long *earned, PyObject **winners,
                       PyObject **side) {
    PyObject *st = w->state, *nuggets = NULL, *gold = NULL, *o;
    int n = w->seats, rc = -1;
    if (!(o = get_attr(st, "nuggets"))) return -1;
    nuggets = PyList_GetSlice(o, 0, PY_SSIZE_T_MAX);
    Py_DECREF(o);
    if (nuggets == NULL || !(o = get_attr(st, "gold"))) goto out;
    gold = PyList_New(n);
    for (int s = 0; gold && s < n; s++) {
        PyObject *g = PyList_GetSlice(PyList_GET_ITEM(o, s), 0, PY_SSIZE_T_MAX);
        if (g == NULL) { Py_CLEAR(gold); break; }
        PyList_SET_ITEM(gold, s, g);
    }
    Py_DECREF(o);
    if (gold == NULL || set_attr(st, "nuggets", nuggets) < 0 || set_attr(st, "gold", gold) < 0)
        goto out;
    if (pay_round(w, pay, nuggets, gold, roles, earned, winners, side) < 0) goto out;
    Py_INCREF(*side);  /* (pay_round's sides are borrowed) */
    rc = 0;
out:
    Py_XDECREF(nuggets); Py_XDECREF(gold);
    return rc;
}

/* views.LaterRoundEnd holding the round's end of (round_no, reason, board, extra), made
   as LaterRoundEnd.by makes one (``spec``: classic.py's later_end): ``board`` the state's
   maze, or the core's packed cards (bytes: classic.py's _unpacked_end makes them a board) */
static PyObject *later_round_end(PyObject *spec, int round_no, PyObject *reason, PyObject *board,
                                 PyObject *extra) {
    PyTypeObject *tp = (PyTypeObject *)PyTuple_GET_ITEM(spec, 0);
    int packed = PyBytes_Check(board);
    PyObject *make = PyTuple_GET_ITEM(spec, packed ? 2 : 1);
    PyObject *args = packed ? Py_BuildValue("(OOiOOO)", PyTuple_GET_ITEM(spec, 3),
                                            PyTuple_GET_ITEM(spec, 4), round_no, reason, board, extra)
                            : Py_BuildValue("(iOOO)", round_no, reason, board, extra);
    PyObject *r = args == NULL ? NULL : tp->tp_alloc(tp, 0);
    if (r != NULL && (PyObject_GenericSetAttr(r, name_of("make"), make) < 0
                      || PyObject_GenericSetAttr(r, name_of("args"), args) < 0
                      || PyObject_GenericSetAttr(r, name_of("made"), Py_None) < 0))
        Py_CLEAR(r);
    Py_XDECREF(args);
    return r;
}

/* Saboteur 2's thieves after a round (ExpansionState._start_thefts) into w->thieves: every
   untrapped holder of a Theft (theft_order), the last to play one first, then clockwise */
static int find_thieves(W *w) {
    int n = w->seats, holder[MAXSEATS] = {0}, first = -1;
    w->nthieves = 0;
    PyObject *o = get_attr(w->state, "theft_order");
    if (o == NULL) return -1;
    Py_ssize_t k = PyList_Check(o) ? PyList_GET_SIZE(o) : -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        long s = PyLong_AsLong(PyList_GET_ITEM(o, i));
        if (s < 0 || s >= n) { k = -1; break; }
        holder[s] = 1; first = (int)s;
    }
    Py_DECREF(o);
    if (k < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "core: theft_order");
        return -1;
    }
    for (int i = 0; k && i < n; i++) {
        int s = (first + i) % n;
        if (holder[s] && !w->trap[s]) w->thieves[w->nthieves++] = s;
    }
    return 0;
}

/* a list of dwarf cards sorted (list.sort()), by their places in the game's dwarf cards
   sorted (``order``, the round set-up's: the same objects); sorted by Python where one is
   not among them */
static int sort_roles(PyObject *list, PyObject *order) {
    Py_ssize_t n = PyList_GET_SIZE(list), no = PyTuple_GET_SIZE(order);
    if (n > 64) return PyList_Sort(list);
    int rank[64];
    PyObject *item[64];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(list, i);
        Py_ssize_t r = 0;
        while (r < no && PyTuple_GET_ITEM(order, r) != x) r++;
        if (r == no) return PyList_Sort(list);
        Py_ssize_t j = i;  /* (insertion: stable, as list.sort) */
        while (j > 0 && rank[j - 1] > r) { rank[j] = rank[j - 1]; item[j] = item[j - 1]; j--; }
        rank[j] = (int)r; item[j] = x;
    }
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(list, i, item[i]);  /* (the same references) */
    return 0;
}

/* ClassicState._end_round on the core, Saboteur's (``pay`` of 9 items) or Saboteur 2's
   (``pay``'s item 9: expansion.py's pay_spec): the pay-out, the details in _end_round's
   order, the round's RoundResult, last_round's holder, the fields it sets, then Saboteur
   2's thefts (found here and played by steals() where ``own_thefts``, else its own
   _start_thefts: the rollout API's) or the next round (next_round_called).
   ``written``: the state was written (sync_out) before, its maze is the round's; else the
   round's end gets an EndedBoard of the core's maze (the state is written when the
   play-out stops, after the next round's set-up) */
static int end_round_classic(W *w, PyObject *pay, int written, int own_thefts) {
    PyObject *st = w->state;
    PyObject *xp = PyTuple_GET_SIZE(pay) > 9 ? PyTuple_GET_ITEM(pay, 9) : NULL;
    int n = w->seats, round_no, rc = -1;
    if (flush_fronts(w) < 0) return -1;
    long earned[MAXSEATS] = {0};
    XpDetails more = {NULL, NULL, 0};
    PyObject *roles = NULL, *spare = NULL, *winners = NULL, *trapped = NULL,
             *side = NULL, *details = NULL, *earned_l = NULL, *result = NULL, *results = NULL,
             *front = NULL, *extra = NULL, *maze = NULL, *later = NULL, *mt = NULL, *o;
    if (own_int(st, "_round", &round_no) < 0) return -1;
    if (!(roles = own_attr(st, "roles")) || !PyList_Check(roles) || PyList_GET_SIZE(roles) != n)
        goto out;
    if ((xp ? pay_expansion(w, xp, roles, earned, &winners, &side, &more, &trapped)
            : pay_classic(w, pay, roles, earned, &winners, &side)) < 0)
        goto out;
    /* the details as _end_round orders them: winners, side, finder, roles, spare roles */
    if (!(o = own_attr(st, "spare_roles"))) goto out;
    spare = PySequence_List(o);
    Py_DECREF(o);
    if (spare == NULL || sort_roles(spare, PyTuple_GET_ITEM(w->setup, 7)) < 0 || !(details = PyDict_New())
        || PyDict_SetItem(details, s_winners, winners) < 0
        || PyDict_SetItem(details, s_side, side) < 0
        || !(o = PyLong_FromLong(w->finder)))
        goto out;
    int bad = PyDict_SetItem(details, s_finder, o) < 0;
    Py_DECREF(o);
    if (bad || !(o = PyList_GetSlice(roles, 0, PY_SSIZE_T_MAX))) goto out;
    bad = PyDict_SetItem(details, s_roles, o) < 0;
    Py_DECREF(o);
    if (bad || PyDict_SetItem(details, s_spare, spare) < 0) goto out;
    if (xp) {  /* then Saboteur 2's: routes (a goal reached), crystals, set_aside_roles, thefts */
        if (more.routes && PyDict_SetItem(details, s_routes, more.routes) < 0) goto out;
        if (!(o = PyLong_FromLong(more.crystals))) goto out;
        bad = PyDict_SetItem(details, s_crystals, o) < 0;
        Py_DECREF(o);
        if (bad || PyDict_SetItem(details, s_set_aside, more.aside) < 0 || !(o = PyList_New(0)))
            goto out;
        bad = PyDict_SetItem(details, s_thefts, o) < 0;
        Py_DECREF(o);
        if (bad) goto out;
    }
    if (!(earned_l = PyList_New(n))) goto out;
    for (int s = 0; s < n; s++) {
        if (!(o = PyLong_FromLong(earned[s]))) goto out;
        PyList_SET_ITEM(earned_l, s, o);
    }
    result = new_round_result(PyTuple_GET_ITEM(pay, 5), round_no, earned_l, details);
    if (result == NULL || !(o = own_attr(st, "results"))) goto out;
    results = PySequence_List(o);  /* a new list: [*results, the round's] */
    Py_DECREF(o);
    if (results == NULL || PyList_Append(results, result) < 0
        || own_set(st, "results", results) < 0)
        goto out;
    /* last_round: the round's end, its board made when first read; the maze marked shared */
    if (!(front = own_attr(st, "in_front")) || !(extra = PyDict_New())
        || PyDict_SetItem(extra, s_in_front, front) < 0
        || (trapped && PyDict_SetItem(extra, s_trapped, trapped) < 0)
        || !(maze = written ? get_attr(st, "maze") : ended_board(w, pay)))
        goto out;
    later = later_round_end(PyTuple_GET_ITEM(pay, 6), round_no,
                            w->finder >= 0 ? s_gold : s_exhausted, maze, extra);
    if (later == NULL || own_set(st, "_last_round", later) < 0
        || (written && (!(mt = get_attr(st, "_mt")) || set_attr(mt, "shared", Py_True) < 0)))
        goto out;
    /* phase MAIN, nothing pending, the next round's first seat; no thefts: _next_round */
    if (own_set_int(st, "phase", MAIN) < 0 || own_set(st, "pending", Py_None) < 0
        || own_set_int(st, "next_turn", (w->last + 1) % n) < 0)
        goto out;
    if (xp && !own_thefts) {  /* the rollout API's thefts: Python's, one at a time */
        if (!(o = own_attr(st, "theft_order"))) goto out;
        Py_ssize_t k = PyObject_Length(o);
        Py_DECREF(o);
        if (k < 0) goto out;
        if (k) {
            o = PyObject_CallMethod(st, "_start_thefts", NULL);
            if (o == NULL) goto out;
            int pending = PyObject_IsTrue(o);
            Py_DECREF(o);
            if (pending < 0) goto out;
            if (pending) { next_round_called = 0; rc = 0; goto out; }
        }
    } else if (xp) {  /* the play-out's: found here, played by steals() */
        if (find_thieves(w) < 0) goto out;
        if (w->nthieves) {
            Py_XSETREF(w->thefts, PyDict_GetItemWithError(details, s_thefts));
            if (w->thefts == NULL || !PyList_Check(w->thefts)) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "core: thefts");
                w->thefts = NULL; w->nthieves = 0; goto out;
            }
            Py_INCREF(w->thefts);
            next_round_called = 0; rc = 0; goto out;
        }
    }
    next_round_called = 1;
    rc = 0;
out:
    Py_XDECREF(roles); Py_XDECREF(spare); Py_XDECREF(side);
    Py_XDECREF(more.routes); Py_XDECREF(more.aside);
    Py_XDECREF(trapped);
    Py_XDECREF(winners); Py_XDECREF(details); Py_XDECREF(earned_l); Py_XDECREF(result);
    Py_XDECREF(results); Py_XDECREF(front); Py_XDECREF(extra); Py_XDECREF(maze);
    Py_XDECREF(later); Py_XDECREF(mt);
    return rc;
}

/* Saboteur 2's thefts found by end_round_classic (w->thieves), on the core: each thief in
   turn with a victim (a seat with gold, the thief excepted) steals from one: a decision of
   the state's own menu's order (ExpansionState._victims), the numbers drawn from the chooser
   ``rng`` as the pure loop draws them; then _steal's purse, the round's details["thefts"],
   the thief the current seat; the next round is set up (next_round_called) */
static int core_steals(W *w, PyObject *rng, int even, long *played) {
    PyObject *st = w->state, *xp = PyTuple_GET_ITEM(w->pay, 9), *thefts = w->thefts;
    PyObject *steal = PyTuple_GET_ITEM(xp, 13), *old = NULL, *o;
    long amount = PyLong_AsLong(PyTuple_GET_ITEM(xp, 12)), purse[MAXSEATS];
    int n = w->seats, k = w->nthieves, who = -1, rc = -1;
    uint64_t s;
    w->nthieves = 0; w->thefts = NULL;
    if (!(old = own_attr(st, "purse"))) goto out;
    if (!PyList_Check(old) || PyList_GET_SIZE(old) != n || PyTuple_GET_SIZE(steal) != n) {
        PyErr_SetString(PyExc_ValueError, "core: the purses or the thefts' table");
        goto out;
    }
    if (get_rng(rng, &s) < 0) goto out;
    for (int v = 0; v < n; v++) purse[v] = PyLong_AsLong(PyList_GET_ITEM(old, v));
    for (int i = 0; i < k; i++) {
        int thief = w->thieves[i], victims[MAXSEATS], nv = 0;
        for (int v = 0; v < n; v++)
            if (v != thief && purse[v] > 0) victims[nv++] = v;
        if (!nv) continue;
        if (even) (void)below(&s, 1);
        int target = victims[below(&s, (uint64_t)nv)];
        purse[target] -= amount; purse[thief] += amount;
        PyObject *pair = Py_BuildValue("[ii]", thief, target);
        o = PyLong_FromLong(thief);
        int bad = pair == NULL || o == NULL || PyList_Append(thefts, pair) < 0
                  || PyList_Append(w->actors, o) < 0
                  || PyList_Append(w->history, PyTuple_GET_ITEM(steal, target)) < 0;
        Py_XDECREF(pair); Py_XDECREF(o);
        if (bad) goto out;
        who = thief;
        (*played)++;
    }
    if (put_rng(rng, s) < 0) goto out;
    if (who >= 0) {
        PyObject *np_l = PyList_New(n);
        for (int v = 0; np_l && v < n; v++) {
            if (!(o = PyLong_FromLong(purse[v]))) { Py_CLEAR(np_l); break; }
            PyList_SET_ITEM(np_l, v, o);
        }
        int bad = np_l == NULL || own_set(st, "purse", np_l) < 0 || own_set_int(st, "current", who) < 0;
        Py_XDECREF(np_l);
        if (bad) goto out;
    }
    next_round_called = 1;
    rc = 0;
out:
    Py_XDECREF(old); Py_XDECREF(thefts);
    return rc;
}

/* Saboteur 2's thefts after a round's end: the core's (core_steals) where end_round_classic
   found them; else, while a thief's Steal is pending (phase STEAL: a state handed over
   mid-thefts), one decision each, its victims from the state's own menu, applied by its own
   _apply; the numbers drawn from the chooser ``rng`` as the pure loop draws them */
static int steals(W *w, PyObject *rng, int even, long *played) {
    if (w->nthieves) return core_steals(w, rng, even, played);
    while (!next_round_called) {
        int phase;
        if (attr_int(w->state, "phase", &phase) < 0) return -1;
        if (phase != STEAL) return 0;
        PyObject *menu = PyObject_CallMethod(w->state, "_choice_menu", NULL);
        if (menu == NULL) return -1;
        uint64_t s;
        if (!PyList_Check(menu) || PyList_GET_SIZE(menu) != 1 || get_rng(rng, &s) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_AssertionError, "core: a thief's menu");
            Py_DECREF(menu); return -1;
        }
        PyObject *entry = PyList_GET_ITEM(menu, 0);
        long count = PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
        if (even) (void)below(&s, 1);
        PyObject *action = PySequence_GetItem(PyTuple_GET_ITEM(entry, 2), (Py_ssize_t)below(&s, (uint64_t)count));
        Py_DECREF(menu);
        if (action == NULL) return -1;
        int bad = put_rng(rng, s) < 0 || call_round(w, "_apply", action) < 0
                  || PyList_Append(w->history, action) < 0;
        Py_DECREF(action);
        if (bad) return -1;
        (*played)++;
    }
    return 0;
}

/* a play-out in rw (the rollout API's working state: nothing is held while it plays, see
   classic_play_out); ``adopted``: rw holds this state already (a new match's first round,
   hold_state), played on from there with nothing read.  ``ctx``: classic.py's rollout
   context, the state left held where the play-out stops (its hands, pile and maze written
   when read: a state dropped after its play-out is never written), or None (written) */
static PyObject *play(PyObject *state, PyObject *rng, int until, int even, Tables *t,
                      PyObject *setup, int adopted, PyObject *ctx) {
    W *w = &rw;
    int shared;
    {
        PyObject *own = get_attr(state, "rng");
        if (own == NULL) return NULL;
        shared = own == rng;
        Py_DECREF(own);
    }
    w->setup = setup;
    w->rounds = setup == Py_None ? 0 : (int)PyLong_AsLong(PyTuple_GET_ITEM(setup, 9));
    w->pay = setup == Py_None ? Py_None : PyTuple_GET_ITEM(setup, 11);
    if (w->pay != Py_None) {  /* a round's end of the state's own (tests): it is called */
        PyObject *mine = own_item(state, "_end_round");
        if (mine == NULL && PyErr_Occurred()) return NULL;
        if (mine != NULL) { Py_DECREF(mine); w->pay = Py_None; }
    }
    w->t = t;
    w->bail = 0;
    w->nthieves = 0; Py_CLEAR(w->thefts);
    w->state = state;
    w->logging = 1; w->nactors = w->nhist = w->npassed = w->ndisc = 0;
    if (!adopted) {
        w->deck_full = 0; w->unwritten = 0;
        w->seats = 0; w->tools_seen = 0; w->front_dirty = 0;
        w->discards = w->passed = w->history = w->actors = NULL;
    }
    long played = 0;
    int finished = 1, terminal, round0, round_no, rc, phase, held = 0;
    if (state_flags(state, &terminal, &round0) < 0) goto error;
    round_no = round0;
    if (adopted) {  /* (a held state is in its main phase, or orienting a card: sync_in's) */
        if (terminal) { PyErr_SetString(PyExc_AssertionError, "core: a held match over"); goto error; }
        if (get_rng(rng, &w->rng) < 0) goto error;
        goto play;
    }
    if (terminal) return Py_BuildValue("(lOO)", 0L, Py_True, Py_False);
    if (!(w->discards = get_attr(state, "discards"))) return NULL;
    if (!(w->passed = get_attr(state, "passed"))) goto error;
    if (!(w->history = get_attr(state, "history"))) goto error;
    if (!(w->actors = get_attr(state, "actors"))) goto error;
    if (attr_int(state, "phase", &phase) < 0) goto error;
    if (phase == STEAL) {  /* a round over, its thefts pending: they are Python's */
        PyObject *hands = get_attr(state, "hands");
        if (hands == NULL) goto error;
        w->seats = (int)PyList_Size(hands);
        Py_DECREF(hands);
        next_round_called = 0;
        if (steals(w, rng, even, &played) < 0) goto error;
        goto round_over;
    }
    if (get_rng(rng, &w->rng) < 0) goto error;
    rc = sync_in(w);
    if (rc < 0) goto error;
    if (rc > 0) { finished = 0; goto out; }
play:
    for (;;) {
        if (terminal || (until && round_no != round0)) break;
        PyObject *action = NULL;
        int res = decide(w, even, &action);
        if (res < 0) goto error;
        played++;
        if (res == ROUND_END) {
            /* the state as Python's has it when _end_round is called; then the action logged.
               Where the core pays and sets the next round up, the state is written when the
               play-out stops (after that set-up), the last round's end excepted */
            if (flush_logs(w) < 0) { Py_DECREF(action); goto error; }
            int last = round_no >= w->rounds, write = w->pay == Py_None || (last && ctx == Py_None);
            /* (the match's last round held when it is over: its phase and seats written now,
               as Python's state has them when _end_round is called) */
            if ((write ? sync_out(w) < 0 : last && write_scalars(w) < 0) || put_rng(rng, w->rng) < 0) {
                Py_DECREF(action); goto error;
            }
            int bad = (w->pay != Py_None ? end_round_classic(w, w->pay, write, 1)
                                        : call_round(w, "_end_round", NULL)) < 0
                      || PyList_Append(w->history, action) < 0;
            Py_DECREF(action);
            if (bad || steals(w, rng, even, &played) < 0) goto error;
        round_over:
            if (get_rng(rng, &w->rng) < 0 || state_flags(state, &terminal, &round_no) < 0)
                goto error;
            if (w->setup != Py_None && next_round_called) {  /* ClassicState._next_round */
                w->phase = MAIN;
                if (set_int(state, "phase", MAIN) < 0) goto error;
                if (round_no == w->rounds) {
                    if (set_attr(state, "terminal", Py_True) < 0) goto error;
                    if (ctx == Py_None || w->pay == Py_None) goto done;  /* Python's state is whole */
                    /* the match over, the last round not written: held (read: written) */
                    if (hold_state(w, ctx, 1) < 0) goto error;
                    held = 1;
                    goto done;
                }
                if (attr_int(state, "next_turn", &w->turn) < 0) goto error;
                if (shared) {
                    if (setup_round(w, &w->rng) < 0) goto error;
                } else {
                    uint64_t s;
                    PyObject *srng = get_attr(state, "rng");
                    if (srng == NULL) goto error;
                    int fail = get_rng(srng, &s) < 0 || setup_round(w, &s) < 0 || put_rng(srng, s) < 0;
                    Py_DECREF(srng);
                    if (fail) goto error;
                }
                round_no++;
                continue;  /* (a play-out to the round's end stops here, written back below) */
            }
            if (terminal || (until && round_no != round0)) goto done;  /* Python's state is whole */
            Py_DECREF(w->discards); Py_DECREF(w->passed);
            w->discards = w->passed = NULL;
            if (!(w->discards = get_attr(state, "discards"))) goto error;
            if (!(w->passed = get_attr(state, "passed"))) goto error;
            rc = sync_in(w);
            if (rc < 0) goto error;
            if (rc > 0) { finished = 0; goto out; }
            continue;
        }
        if (log_action(w, action) < 0) goto error;
        if (w->bail) { finished = 0; break; }
    }
    if (flush_logs(w) < 0) goto error;
    if (!w->bail && ctx != Py_None) {  /* left on the core, written when read (hold_state) */
        if (hold_state(w, ctx, 0) < 0) goto error;
        held = 1;
    } else if (sync_out(w) < 0) goto error;
out:
    if (flush_logs(w) < 0 || put_rng(rng, w->rng) < 0) goto error;
done:
    w->logging = 0;
    w->setup = w->pay = Py_None; w->rounds = 0;
    if (held)  /* (the memo of the cards in front left when it is given back: release) */
        return Py_BuildValue("(lOO)", played, Py_True, Py_False);
    Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors);
    return Py_BuildValue("(lOO)", played, finished ? Py_True : Py_False, w->tools_seen ? Py_True : Py_False);
error:
    if (w->history != NULL && w->actors != NULL) {  /* (the references it holds let go) */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        (void)flush_logs(w);
        PyErr_Restore(et, ev, tb);
    }
    for (int i = 0; i < w->nhist; i++) Py_DECREF(w->log_action[i]);
    for (int i = 0; i < w->npassed; i++) Py_DECREF(w->log_passed[i]);
    for (int i = 0; i < w->ndisc; i++) Py_DECREF(w->log_disc[i]);
    w->logging = 0; w->nactors = w->nhist = w->npassed = w->ndisc = 0;
    w->setup = w->pay = Py_None; w->rounds = 0;
    Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors);
    return NULL;
}

/* ------------------------------------------------------------------ the rollout API */
/* legal_actions, legal_count, legal_action, random_action and apply on the core: the
 * position of the state played a decision at a time stays here between calls (the
 * "resident" state: rw and the grid), so that a call costs what the decision costs, not a
 * reading of the whole position.  While it is resident the state's class is core/classic.py's
 * resident subclass of its own; everything the decisions change is written back into it as
 * they are applied (hands, pile, seats, phase, the cards in front, the logs), but for the
 * maze, which is written when something reads it (the subclass's maze, _mt and __dict__ give
 * the state back to Python first: release) or another state comes to the core.  A round's
 * end, a position the core does not take (the grid's edge) and anything else give the state
 * back too; Python goes on from there exactly as it would have. */
/* the resident state (a weak reference: the core does not keep a state alive; one that dies
   resident leaves nothing to write back) and its own class */
static PyObject *res_ref;
static Menu rmenu;
static int rmenu_ok;
static int rlisted;  /* rarr holds rmenu's actions (menu_list) */
static PyObject *rlast;  /* the action legal_action or random_action handed out last, */
static int rlast_at;     /* at this index of the menu (apply finds it without a list) */

/* the i-th action of the menu's entry e (a new reference), nothing changed */
static PyObject *action_at(W *w, Menu *m, Entry *e, int i) {
    Tables *t = w->t;
    int card = e->card;
    switch (e->tag) {
    case T_ORIENT: {
        PyObject *a = t->orient_obj[w->pend_opt[i]];
        Py_INCREF(a);
        return a;
    }
    case T_PATH: case T_LADDER: {
        int otile, at;
        return placement_at(w, e, i, &at, &otile);
    }
    case T_PASS: {
        int cs[3], n = nth_pass(m->hd, m->mult, m->nk, m->c.pairs, i, cs);
        return pass_action(t, cs, n);
    }
    case T_DISCARD: {
        int pair[2];
        nth_pair(m->hd, m->mult, m->nk, i % m->npairs, pair);
        return discard_action(t, pair, m->removable[i / m->npairs]);
    }
    case T_SEATS: {
        int seats[MAXSEATS * 2], tools[MAXSEATS * 2];
        if (seat_targets(w, m->seat, card, seats, tools) < 0) return NULL;
        PyObject *a = t->effect[card] == E_REPAIR ? t->repair_act[card][seats[i]][tools[i]]
                                                 : t->on_player[card][seats[i]];
        Py_INCREF(a);
        return a;
    }
    case T_CELL:
        cell_targets(w, card, targets);
        return cell_action(w, card, targets[i]);
    default:
        PyErr_SetString(PyExc_AssertionError, "core: menu tag");
        return NULL;
    }
}

/* every action of the menu, in order (the list legal_actions() gives), into rarr (the
   core's own references: a C array, not one more Python container for the collector to
   count and walk every decision); their number, or -1 */
static Py_ssize_t rn, rcap;
static PyObject **rarr;
static void rarr_clear(void) {
    for (Py_ssize_t k = 0; k < rn; k++) Py_DECREF(rarr[k]);
    rn = 0;
}
#define PUT(x)                                                    \
    do {                                                          \
        if (at >= total) { Py_DECREF(x); goto miscount; }         \
        rarr[at++] = (x); rn = at;                                \
    } while (0)
static Py_ssize_t menu_list(W *w, Menu *m) {
    int total = 0;
    for (int k = 0; k < m->n; k++) total += m->e[k].count;
    rarr_clear();
    if (total > rcap) {
        PyObject **grown = PyMem_Realloc(rarr, sizeof(PyObject *) * (size_t)total);
        if (grown == NULL) { PyErr_NoMemory(); return -1; }
        rarr = grown; rcap = total;
    }
    Tables *t = w->t;
    int at = 0;
    for (int k = 0; k < m->n; k++) {
        Entry *e = &m->e[k];
        if (e->tag == T_PATH) {  /* nth_fit's order, walked once: by orientation, then cell */
            frontier(w);
            int card = e->card;
            for (int o = 0; o < t->norient[card]; o++)
                for (int j = 0; j < w->nfr; j++) {
                    if (!t->ofit[card][o][w->frk[j]]) continue;
                    PyObject *a = cached_action(t, t->place, 0,
                                                (py_of(w->fr[j]) << 8) | t->ootile[card][o]);
                    if (a == NULL) return -1;
                    PUT(a);
                }
            continue;
        }
        if (e->tag == T_CELL) {  /* the targets sorted once */
            int n = cell_targets(w, e->card, targets);
            for (int i = 0; i < n; i++) {
                PyObject *a = cell_action(w, e->card, targets[i]);
                if (a == NULL) return -1;
                PUT(a);
            }
            continue;
        }
        if (e->tag == T_PASS || e->tag == T_DISCARD) {  /* nth_pass's and the discards' order */
            const int *hd = m->hd, *mult = m->mult;
            int nk = m->nk, cs[3], nrem = e->tag == T_DISCARD ? m->nrem : 1;
            for (int r = 0; r < nrem; r++) {
                if (e->tag == T_PASS) for (int a = 0; a < nk; a++) {
                    cs[0] = hd[a];
                    PyObject *x = pass_action(t, cs, 1);
                    if (x == NULL) return -1;
                    PUT(x);
                }
                if (e->tag == T_PASS && t->pass_max < 2) break;
                for (int a = 0; a < nk; a++)
                    for (int b = a; b < nk; b++) {
                        if (b == a && mult[a] < 2) continue;
                        cs[0] = hd[a]; cs[1] = hd[b];
                        PyObject *x = e->tag == T_PASS ? pass_action(t, cs, 2)
                                                       : discard_action(t, cs, m->removable[r]);
                        if (x == NULL) return -1;
                        PUT(x);
                    }
                if (e->tag == T_PASS && t->pass_max >= 3)
                    for (int a = 0; a < nk; a++)
                        for (int b = a; b < nk; b++)
                            for (int c = b; c < nk; c++) {
                                if (!triple_ok(mult, a, b, c)) continue;
                                cs[0] = hd[a]; cs[1] = hd[b]; cs[2] = hd[c];
                                PyObject *x = pass_action(t, cs, 3);
                                if (x == NULL) return -1;
                                PUT(x);
                            }
            }
            continue;
        }
        if (e->tag == T_SEATS) {  /* the targets found once */
            int seats[MAXSEATS * 2], tools[MAXSEATS * 2], card = e->card;
            int n = seat_targets(w, m->seat, card, seats, tools);
            if (n < 0) return -1;
            for (int i = 0; i < n; i++) {
                PyObject *a = t->effect[card] == E_REPAIR ? t->repair_act[card][seats[i]][tools[i]]
                                                         : t->on_player[card][seats[i]];
                Py_INCREF(a);
                PUT(a);
            }
            continue;
        }
        for (int i = 0; i < e->count; i++) {
            PyObject *a = action_at(w, m, e, i);
            if (a == NULL) return -1;
            PUT(a);
        }
    }
    if (at != total) goto miscount;
    return total;
miscount:
    PyErr_SetString(PyExc_AssertionError, "core: the menu's count");
    return -1;
}
#undef PUT

/* what a decision changed written into the resident state: all but the maze (sync_out's
   writes, only of what changed) */
static int write_step(W *w) {
    Tables *t = w->t;
    PyObject *st = w->state;
    if (flush_fronts(w) < 0) return -1;
    if (w->unwritten || w->deck_full) {  /* a held state's hands and pile: written whole */
        if (write_piles(w) < 0) return -1;
    } else if (w->hdirty) {
        PyObject *hands = own_field(st, "hands");
        if (hands == NULL) return -1;
        for (int s = 0; s < w->seats; s++) {  /* changed in place, no list made */
            if (!(w->hdirty & (1u << s))) continue;
            PyObject *h = PyList_GET_ITEM(hands, s);
            Py_ssize_t had = PyList_GET_SIZE(h), n = w->hn[s];
            int r = had > n ? PyList_SetSlice(h, n, had, NULL) : 0;
            for (Py_ssize_t i = 0; r == 0 && i < n; i++) {
                PyObject *code = t->codes[w->hand[s][i]];
                if (i >= had) r = PyList_Append(h, code);
                else if (PyList_GET_ITEM(h, i) != code) {
                    Py_INCREF(code);
                    r = PyList_SetItem(h, i, code);
                }
            }
            if (r < 0) { Py_DECREF(hands); return -1; }
        }
        Py_DECREF(hands);
        w->hdirty = 0;
    }
    if (w->ndeck != w->ndeck0) {
        PyObject *deck = own_field(st, "deck");
        int r = deck == NULL ? -1 : PyList_SetSlice(deck, w->ndeck, PY_SSIZE_T_MAX, NULL);
        Py_XDECREF(deck);
        if (r < 0) return -1;
        w->ndeck0 = w->ndeck;
    }
    static const char *names[6] = {"phase", "pending_draw", "last", "finder", "turn", "current"};
    int now[6] = {w->phase, w->pending_draw, w->last, w->finder, w->turn, w->current};
    int orienting = w->phase == ORIENT, was = w->said[0] == ORIENT;
    for (int k = 0; k < 6; k++)
        if (now[k] != w->said[k]) {
            if (set_int(st, names[k], now[k]) < 0) return -1;
            w->said[k] = now[k];
        }
    if ((orienting || was) && write_pending(st, orienting, w->pend_g, w->pend_n, w->pend_opt) < 0)
        return -1;
    return 0;
}

/* the memo of the cards in front that Python's menus leave in a state whose hands held a
   tool card (as play_out leaves it: memos are not part of the position, but a state's dict
   is the same on both paths) */
static int leave_memo(PyObject *st) {
    if (!rw.tools_seen) return 0;
    PyObject *memo = own_item(st, "_fronts_memo");
    if (memo != NULL) { Py_DECREF(memo); return 0; }
    return PyErr_Occurred() ? -1 : own_set(st, "_fronts_memo", rw.t->no_fronts);  /* (classic.py NO_FRONTS) */
}

/* nothing resident any more */
static void forget(void) {
    rmenu_ok = 0; rterminal = 0;
    rlisted = 0; rarr_clear(); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    Py_CLEAR(rw.discards); Py_CLEAR(rw.passed); Py_CLEAR(rw.history); Py_CLEAR(rw.actors);
}

/* the resident state (borrowed), or NULL (none, or it died) */
static PyObject *resident_state(void) {
    if (res_ref == NULL) return NULL;
    PyObject *st = PyWeakref_GET_OBJECT(res_ref);
    if (st == Py_None) { forget(); return NULL; }
    return st;
}

static PyObject *rw_state(void) { return res_ref == NULL ? NULL : resident_state(); }

/* the resident state given back to Python: its own class again, the maze written if it
   changed (everything else was written as the decisions were applied) */
static int release(void) {
    PyObject *st = resident_state();
    if (st == NULL) return 0;
    Py_INCREF(st);
    PyObject *plain = res_plain;
    Py_INCREF(plain);
    /* everything written before the class goes back (nothing here runs Python code: another
       thread sees the state held, or whole) */
    rw.state = st;
    /* (a match over: its phase and seats written as the round ended, changed since) */
    int r = rterminal ? flush_fronts(&rw) < 0 || write_piles(&rw) < 0 || write_maze(&rw) < 0 ? -1 : 0
                      : sync_out(&rw);
    if (r == 0) r = set_attr(st, "__class__", plain);
    if (r == 0) r = leave_memo(st);
    forget();
    Py_DECREF(st); Py_DECREF(plain);
    return r;
}

/* rw's state left on the core, held as the rollout API holds a state (``ctx``: classic.py's
   (tables, held class, ...)), with only what the held class does not guard written: the
   cards in front, the logs, the phase and the seats; its hands, its pile (a round the core
   dealt) and its maze are written when read (release), by the first decision the rollout
   API applies (write_step) or never, where its play-out (adopt) deals the next round or the
   state is dropped.  A new match's first round is left so (first_round). */
static int hold_state(W *w, PyObject *ctx, int terminal) {
    PyObject *st = w->state;
    if (flush_fronts(w) < 0 || flush_logs(w) < 0 || (!terminal && write_scalars(w) < 0)) return -1;
    w->said[0] = w->phase; w->said[1] = w->pending_draw; w->said[2] = w->last;
    w->said[3] = w->finder; w->said[4] = w->turn; w->said[5] = w->current;
    PyObject *plain = (PyObject *)Py_TYPE(st), *ref = PyWeakref_NewRef(st, NULL);
    if (ref == NULL) return -1;
    Py_INCREF(plain);
    if (set_attr(st, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) {
        Py_DECREF(ref); Py_DECREF(plain); return -1;
    }
    res_ref = ref; res_plain = plain; rterminal = terminal;
    w->unwritten = 1; w->hdirty = 0;
    w->setup = w->pay = Py_None; w->rounds = 0; w->logging = 0;
    rmenu_ok = 0;
    rlisted = 0; rarr_clear(); Py_CLEAR(rlast);
    return 0;
}

/* the resident state taken over by a play-out of it (play(): rw its working state from
   here, the logs' references its own): its own class again, nothing written (the play-out
   writes it when it stops, as it writes any state it read); 1: taken; 0: not resident (or
   resident with other tables: given back first by the caller) */
static int adopt(PyObject *state, Tables *t) {
    if (res_ref == NULL || resident_state() != state || rw.t != t || rterminal) return 0;
    if (set_attr(state, "__class__", res_plain) < 0) return -1;
    rmenu_ok = 0;
    rlisted = 0; rarr_clear(); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    return 1;
}

/* ``state`` made the resident one (``ctx``: core/classic.py's (tables, resident class,
   set-up)): 1; 0 where the core does not take it now (the game ended, another phase, the
   grid's edge); -1 on an error.  The caller holds the core (take_busy) */
static int enter(PyObject *state, PyObject *ctx) {
    /* another thread's work on the core waits for nothing but its calls into Python: this
       one waits for it to end (the position held may be changing under it); this thread's
       own (a call into Python from the core's work, asking for another state) plays pure */
    if (res_ref != NULL && resident_state() == state && !rterminal) return 1;
    int rc = release();  /* (a match over, held: given back, not taken) */
    if (rc < 0) return -1;
    W *w = &rw;
    Tables *t = PyCapsule_GetPointer(PyTuple_GET_ITEM(ctx, 0), "pysaboteur._core.Tables");
    if (t == NULL) return -1;
    w->t = t; w->setup = Py_None; w->pay = Py_None; w->rounds = 0; w->deck_full = 0;
    w->seats = 0; w->tools_seen = 0; w->bail = 0; w->front_dirty = 0; w->unwritten = 0;
    w->state = state;
    int terminal, round_no;
    rc = -1;
    if (state_flags(state, &terminal, &round_no) < 0) goto out;
    if (terminal) { rc = 0; goto out; }
    if (!(w->discards = get_attr(state, "discards")) || !(w->passed = get_attr(state, "passed"))
        || !(w->history = get_attr(state, "history")) || !(w->actors = get_attr(state, "actors")))
        goto out;
    rc = sync_in(w);
    if (rc != 0) { rc = rc < 0 ? -1 : 0; goto out; }
    w->hdirty = 0;
    w->said[0] = w->phase; w->said[1] = w->pending_draw; w->said[2] = w->last;
    w->said[3] = w->finder; w->said[4] = w->turn; w->said[5] = w->current;
    PyObject *plain = (PyObject *)Py_TYPE(state);
    Py_INCREF(plain);
    PyObject *ref = PyWeakref_NewRef(state, NULL);
    if (ref == NULL || set_attr(state, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) {
        Py_XDECREF(ref); Py_DECREF(plain); rc = -1; goto out;
    }
    res_ref = ref; res_plain = plain;
    rmenu_ok = 0;
    return 1;
out:
    Py_CLEAR(w->discards); Py_CLEAR(w->passed); Py_CLEAR(w->history); Py_CLEAR(w->actors);
    return rc;
}

static Menu *resident_menu(void) {
    if (!rmenu_ok) {
        if (menu_of(&rw, &rmenu) < 0) return NULL;
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



/* the resident state's round ended with ``action`` (applied, not logged yet): the round's
   end as play() has it, then either the next round set up on the core, the state written
   whole and kept resident, or the state given back (Python set the round up, the match
   ended, a round's thefts wait) */
static int step_round_end(PyObject *state, PyObject *ctx, PyObject *action) {
    W *w = &rw;
    PyObject *st = resident_state();
    if (st != state) { PyErr_SetString(PyExc_AssertionError, "core: not the resident state"); return -1; }
    /* Python reads the state from here: its own class, the core's copy kept */
    if (set_attr(st, "__class__", res_plain) < 0) return -1;
    PyObject *setup = PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, 2), st);  /* classic.py */
    if (setup == NULL) return -1;
    int terminal, round_no, rc = -1, keep = 0;
    w->setup = setup;
    w->rounds = setup == Py_None ? 0 : (int)PyLong_AsLong(PyTuple_GET_ITEM(setup, 9));
    w->pay = setup == Py_None ? Py_None : PyTuple_GET_ITEM(setup, 11);
    if (state_flags(st, &terminal, &round_no) < 0) goto out;
    int write = w->pay == Py_None || round_no >= w->rounds;
    if (!write && PyTuple_GET_SIZE(w->pay) > 9) {  /* Saboteur 2: thefts read the state */
        PyObject *order = get_attr(st, "theft_order");
        Py_ssize_t k = order ? PyObject_Length(order) : -1;
        Py_XDECREF(order);
        if (k < 0) goto out;
        write = k > 0;
    }
    if (write && sync_out(w) < 0) goto out;
    if ((w->pay != Py_None ? end_round_classic(w, w->pay, write, 0)
                           : call_round(w, "_end_round", NULL)) < 0
        || PyList_Append(w->history, action) < 0)
        goto out;
    if (state_flags(st, &terminal, &round_no) < 0) goto out;
    if (w->setup != Py_None && next_round_called) {  /* ClassicState._next_round, here */
        int phase;
        if (attr_int(st, "phase", &phase) < 0) goto out;
        w->phase = MAIN;
        if (set_int(st, "phase", MAIN) < 0) goto out;
        if (round_no == w->rounds) {
            if (set_attr(st, "terminal", Py_True) < 0) goto out;
        } else {
            uint64_t s;
            PyObject *srng = get_attr(st, "rng");
            if (srng == NULL || attr_int(st, "next_turn", &w->turn) < 0) { Py_XDECREF(srng); goto out; }
            int fail = get_rng(srng, &s) < 0 || setup_round(w, &s) < 0 || put_rng(srng, s) < 0;
            Py_DECREF(srng);
            if (fail || sync_out(w) < 0) goto out;  /* the new round written whole */
            keep = 1;
        }
    }
    rc = 0;
out:
    w->setup = Py_None; w->pay = Py_None; w->rounds = 0;
    Py_DECREF(setup);
    if (rc == 0 && keep) {  /* resident in the new round */
        w->hdirty = 0;
        w->said[0] = w->phase; w->said[1] = w->pending_draw; w->said[2] = w->last;
        w->said[3] = w->finder; w->said[4] = w->turn; w->said[5] = w->current;
        rmenu_ok = 0;
        rlisted = 0; rarr_clear(); Py_CLEAR(rlast);
        if (set_attr(st, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) { forget(); return -1; }
        return 0;
    }
    if (rc == 0) rc = leave_memo(st);
    forget();  /* Python's state is whole (or an error left it as it is) */
    return rc;
}

/* classic_legal(state, ctx) -> list, or None (not taken: Python lists them) */
static PyObject *classic_legal_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    PyObject *state = args[0], *ctx = args[1];
    ENTER(state, ctx, Py_RETURN_NONE);
    if (!rlisted) {
        Menu *m = resident_menu();
        if (m == NULL || menu_list(&rw, m) < 0) return NULL;
        rlisted = 1;
    }
    PyObject *list = PyList_New(rn);  /* the caller's own */
    if (list == NULL) return NULL;
    for (Py_ssize_t k = 0; k < rn; k++) { Py_INCREF(rarr[k]); PyList_SET_ITEM(list, k, rarr[k]); }
    return list;
}

/* classic_count(state, ctx) -> int, or -1 (not taken) */
static PyObject *classic_count_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    PyObject *state = args[0], *ctx = args[1];
    ENTER(state, ctx, return PyLong_FromLong(-1));
    Menu *m = resident_menu();
    return m == NULL ? NULL : PyLong_FromLong(menu_total(m));
}

/* classic_nth(state, ctx, index) -> the action, or None (not taken) */
static PyObject *classic_nth_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    PyObject *state = args[0], *ctx = args[1];
    Py_ssize_t index = PyNumber_AsSsize_t(args[2], PyExc_IndexError);
    if (index == -1 && PyErr_Occurred()) return NULL;
    ENTER(state, ctx, Py_RETURN_NONE);
    Menu *m = resident_menu();
    if (m == NULL) return NULL;
    if (index < 0 || index >= menu_total(m)) {
        PyErr_SetString(PyExc_IndexError, "legal action index out of range");
        return NULL;
    }
    return handed(m, (int)index);
}

/* classic_random(state, ctx, rng) -> rng.below(legal_count()) drawn, that action; None (not
   taken: nothing drawn) */
static PyObject *classic_random_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    PyObject *state = args[0], *ctx = args[1], *rng = args[2];
    ENTER(state, ctx, Py_RETURN_NONE);
    Menu *m = resident_menu();
    uint64_t s;
    if (m == NULL || get_rng(rng, &s) < 0) return NULL;
    int i = (int)below(&s, (uint64_t)menu_total(m));
    if (put_rng(rng, s) < 0) return NULL;
    return handed(m, i);
}

/* classic_apply(state, ctx, action) -> 0: applied (and logged); 1: not among the legal
   actions (nothing changed); 2: not taken (nothing changed: Python applies it) */
static PyObject *classic_apply_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 3)) return NULL;
    PyObject *state = args[0], *ctx = args[1], *action = args[2];
    ENTER(state, ctx, return PyLong_FromLong(2));
    Menu *m = resident_menu();
    if (m == NULL) return NULL;
    Py_ssize_t index = -1;
    if (action == rlast && rlast != NULL) index = rlast_at;  /* the one just handed out */
    else {
        if (!rlisted) {
            if (menu_list(&rw, m) < 0) return NULL;
            rlisted = 1;
        }
        Py_ssize_t n = rn;
        for (Py_ssize_t k = 0; k < n; k++)  /* the interned action itself, as a rule */
            if (rarr[k] == action) { index = k; break; }
        for (Py_ssize_t k = 0; index < 0 && k < n; k++) {  /* else an equal one, type */
            if (Py_TYPE(rarr[k]) != Py_TYPE(action)) continue;  /* included (is_listed) */
            int eq = PyObject_RichCompareBool(rarr[k], action, Py_EQ);
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
    rlisted = 0; rarr_clear(); Py_CLEAR(rlast);
    if (res < 0) return NULL;
    Py_DECREF(played);  /* the history logs the caller's action, as State.apply does */
    PyObject *history = rw.history;
    Py_INCREF(history);
    int bad;
    if (res == ROUND_END) {
        bad = step_round_end(state, ctx, action) < 0;  /* (the action logged there) */
    } else {
        bad = write_step(&rw) < 0;  /* all but the maze written now */
        if (!bad && rw.bail) bad = release() < 0;  /* near the grid's edge: Python's from here */
        bad = bad || PyList_Append(history, action) < 0;
    }
    Py_DECREF(history);
    if (bad) return NULL;
    return PyLong_FromLong(0);
}

/* each call holds the core from start to end: its calls into Python (the actions' tables,
   a round's end) let other threads run, which wait for it (wait_core) */
HELD(classic_legal, Py_RETURN_NONE)
HELD(classic_count, return PyLong_FromLong(-1))
HELD(classic_nth, Py_RETURN_NONE)
HELD(classic_random, Py_RETURN_NONE)
HELD(classic_apply, return PyLong_FromLong(2))

/* classic_release(state): the state given back to Python if it is the resident one (None:
   whichever is) */
static PyObject *classic_release(PyObject *self, PyObject *state) {
    (void)self;
    if (wait_core()) {
        PyErr_SetString(PyExc_RuntimeError, "core: a held state read while the core plays it");
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

static int release_resident(void) { return release(); }

/* ------------------------------------------------------------------ the held class's methods */
/* legal_actions, legal_count, legal_action and apply of the held class (core.h's) */
HELD_METHODS(classic)

/* first_round(state, tables, setup, ctx=None) -> bool: a new match's first round set up by
 * the core (ClassicState._setup_round for a match without a fixed deal: the same numbers
 * drawn from the state's generator, the same cards); with ``ctx`` (classic.py's rollout
 * context) the round left on the core, the state held (hold_state: a play-out or the
 * rollout API goes on from there without reading it), else the state and its maze
 * written; False: the core is busy (the caller sets the round up in Python). */
static PyObject *first_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *caps, *setup, *ctx = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O", &state, &caps, &setup, &ctx)) return NULL;
    Tables *t = PyCapsule_GetPointer(caps, "pysaboteur._core.Tables");
    if (t == NULL) return NULL;
    if (ctx != Py_None && (!PyTuple_Check(ctx) || PyTuple_GET_SIZE(ctx) != 3)) {
        PyErr_SetString(PyExc_TypeError, "core: the rollout API's context");
        return NULL;
    }
    int hold = ctx != Py_None && PyTuple_GET_ITEM(ctx, 0) == caps;  /* (else other tables) */
    if (wait_core()) Py_RETURN_FALSE;
    take_busy();
    if (release_resident() < 0) { busy = 0; return NULL; }
    static W fw;
    W *w = hold ? &rw : &fw;
    PyObject *srng = NULL, *result = NULL;
    w->t = t; w->state = state; w->setup = setup; w->pay = Py_None; w->rounds = 0;
    w->tools_seen = 0; w->bail = 0; w->deck_full = 0; w->front_dirty = 0; w->unwritten = 0;
    w->nthieves = 0; w->logging = 0; w->nactors = w->nhist = w->npassed = w->ndisc = 0;
    w->discards = w->passed = w->actors = NULL;
    w->history = get_attr(state, "history");
    PyObject *game = get_attr(state, "game");
    int players = 0;
    if (w->history == NULL || game == NULL || attr_int(game, "players", &players) < 0
        || attr_int(state, "turn", &w->turn) < 0 || (hold && !(w->actors = get_attr(state, "actors"))))
        goto out;
    if (players <= 0 || players > MAXSEATS) { PyErr_SetString(PyExc_ValueError, "core: players"); goto out; }
    w->seats = players;
    uint64_t s;
    if (!(srng = get_attr(state, "rng")) || get_rng(srng, &s) < 0
        || setup_round(w, &s) < 0 || put_rng(srng, s) < 0
        || (hold ? hold_state(w, ctx, 0) : sync_out(w)) < 0)
        goto out;
    result = Py_True;
    Py_INCREF(result);
out:
    Py_XDECREF(srng); Py_XDECREF(game);
    w->setup = Py_None;
    if (!hold || result == NULL) {
        Py_CLEAR(w->history); Py_CLEAR(w->actors); Py_CLEAR(w->discards); Py_CLEAR(w->passed);
    }
    busy = 0;
    return result;
}

/* ------------------------------------------------------------------ determinization */
/* lehmer(number, items) -> list: engine.rng.lehmer (what rng.reorder gives): the digits of
 * ``number`` in the mixed radix n, n - 1, ..., 1, the lowest first, each the index of the
 * next item among those left.  The number (up to n!, hundreds of bits: a determinization's
 * unknown cards) is divided in 32-bit limbs by several radixes at once, their product below
 * 2**32, the remainder split into their digits. */
static PyObject *lehmer(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *number, *items;
    if (!PyArg_ParseTuple(args, "O!O", &PyLong_Type, &number, &items)) return NULL;
    if (_PyLong_Sign(number) < 0) { PyErr_SetString(PyExc_ValueError, "core: a negative code"); return NULL; }
    PyObject *pool = PySequence_List(items);
    if (pool == NULL) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(pool);
    size_t nbytes = _PyLong_NumBits(number) / 8 + 1, nlimbs = (nbytes + 3) / 4;
    unsigned char stack_bytes[512];
    uint32_t stack_limbs[128];
    PyObject *stack_left[256], **left = NULL;
    unsigned char *bytes = nlimbs * 4 <= sizeof stack_bytes ? stack_bytes : PyMem_Malloc(nlimbs * 4);
    uint32_t *limb = nlimbs <= 128 ? stack_limbs : PyMem_Malloc(nlimbs * sizeof(uint32_t));
    PyObject *out = PyList_New(n);
    if (bytes == NULL || limb == NULL || out == NULL
        || _PyLong_AsByteArray((PyLongObject *)number, bytes, nlimbs * 4, 1, 0) < 0)
        goto fail;
    for (size_t k = 0; k < nlimbs; k++)
        limb[k] = (uint32_t)bytes[4 * k] | (uint32_t)bytes[4 * k + 1] << 8
                  | (uint32_t)bytes[4 * k + 2] << 16 | (uint32_t)bytes[4 * k + 3] << 24;
    /* the items still left, in order (the pool list keeps their references) */
    left = n <= 256 ? stack_left : PyMem_Malloc(sizeof(PyObject *) * (size_t)n);
    if (left == NULL) goto fail;
    memcpy(left, ((PyListObject *)pool)->ob_item, sizeof(PyObject *) * (size_t)n);
    Py_ssize_t top = (Py_ssize_t)nlimbs - 1, done = 0;
    while (top > 0 && limb[top] == 0) top--;
    for (Py_ssize_t i = n; i >= 1;) {
        uint64_t radix[8], prod = 1;  /* i, i - 1, ...: as many as keep the product below 2**32 */
        int g = 0;
        while (g < 8 && i - g >= 1 && prod * (uint64_t)(i - g) < (1ULL << 32)) {
            radix[g] = (uint64_t)(i - g); prod *= radix[g]; g++;
        }
        if (g == 0) { PyErr_SetString(PyExc_ValueError, "core: too many items"); goto fail; }
        uint64_t rem = 0;
        for (Py_ssize_t k = top; k >= 0; k--) {
            uint64_t cur = rem << 32 | limb[k];
            limb[k] = (uint32_t)(cur / prod);
            rem = cur % prod;
        }
        while (top > 0 && limb[top] == 0) top--;
        for (int d = 0; d < g; d++) {  /* the group's digits, the lowest first */
            Py_ssize_t j = (Py_ssize_t)(rem % radix[d]);
            rem /= radix[d];
            PyObject *item = left[j];  /* pool.pop(j) */
            memmove(left + j, left + j + 1, sizeof(PyObject *) * (size_t)(n - done - j - 1));
            Py_INCREF(item);
            PyList_SET_ITEM(out, done++, item);
        }
        i -= g;
    }
    if (bytes != stack_bytes) PyMem_Free(bytes);
    if (limb != stack_limbs) PyMem_Free(limb);
    if (left != stack_left) PyMem_Free(left);
    Py_DECREF(pool);
    return out;
fail:
    if (bytes != NULL && bytes != stack_bytes) PyMem_Free(bytes);
    if (limb != NULL && limb != stack_limbs) PyMem_Free(limb);
    if (left != NULL && left != stack_left) PyMem_Free(left);
    Py_XDECREF(out);
    Py_DECREF(pool);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

/* draws(rng, calls, words) -> list: engine.rng.Draws.take (``calls`` and ``words`` its
 * fields): ``words`` numbers of the generator, then per call a raw number, 0, or a Lehmer
 * code (its lanes read as one number, the first the most significant, modulo its bound) */
static PyObject *draws(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rng, *calls;
    Py_ssize_t words;
    if (!PyArg_ParseTuple(args, "OO!n", &rng, &PyList_Type, &calls, &words)) return NULL;
    if (words < 0 || words > 4096) { PyErr_SetString(PyExc_ValueError, "core: draws"); return NULL; }
    uint64_t st, v[4096];
    if (get_rng(rng, &st) < 0) return NULL;
    for (Py_ssize_t k = 0; k < words; k++) {  /* next64: below's first steps, whole */
        uint64_t z = (st += GAMMA);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        v[k] = z ^ (z >> 31);
    }
    Py_ssize_t n = PyList_GET_SIZE(calls);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *call = PyList_GET_ITEM(calls, i), *x;  /* (at, bound, lanes) */
        long at = PyLong_AsLong(PyTuple_GET_ITEM(call, 0));
        PyObject *bound = PyTuple_GET_ITEM(call, 1);
        if (PyObject_IsTrue(bound)) {
            Py_ssize_t start, stop, step, count;
            if (PySlice_Unpack(PyTuple_GET_ITEM(call, 2), &start, &stop, &step) < 0) goto fail;
            count = PySlice_AdjustIndices(2 * words, &start, &stop, step);
            unsigned char buf[8 * 512];
            if (count > 512) { PyErr_SetString(PyExc_ValueError, "core: a long code"); goto fail; }
            for (Py_ssize_t m = 0; m < count; m++) {  /* the halves, little-endian */
                uint64_t w = v[(start + m * step) / 2];
                for (int b = 0; b < 8; b++) buf[8 * m + b] = (unsigned char)(w >> (8 * b));
            }
            PyObject *num = _PyLong_FromByteArray(buf, (size_t)(8 * count), 1, 0);
            if (num == NULL) goto fail;
            x = PyNumber_Remainder(num, bound);
            Py_DECREF(num);
        } else x = at >= 0 ? PyLong_FromUnsignedLongLong(v[at / 2]) : PyLong_FromLong(0);
        if (x == NULL) goto fail;
        PyList_SET_ITEM(out, i, x);
    }
    if (put_rng(rng, st) < 0) goto fail;
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

PyMethodDef classic_methods[] = {
    {"draws", draws, METH_VARARGS,
     "engine.rng.Draws.take in C: (rng, calls, words) -> the numbers."},
    {"lehmer", lehmer, METH_VARARGS,
     "engine.rng.lehmer in C: (number, items) -> the items reordered by the Lehmer code."},
    {"first_round", first_round, METH_VARARGS,
     "A new match's first round set up by the core: (state, tables, setup) -> bool."},
    {"make_tables", make_tables, METH_O, "Compile the tables of one catalogue (a spec dict)."},
    {"classic_unpack_maze", unpack_maze, METH_VARARGS,
     "A packed maze's dictionaries (core/classic.py PackedMaze)."},
    {"classic_legal", (PyCFunction)(void (*)(void))classic_legal, METH_FASTCALL,
     "legal_actions() on the core: (state, ctx) -> list, or None (not taken)."},
    {"classic_count", (PyCFunction)(void (*)(void))classic_count, METH_FASTCALL,
     "legal_count() on the core: (state, ctx) -> int, or -1 (not taken)."},
    {"classic_nth", (PyCFunction)(void (*)(void))classic_nth, METH_FASTCALL,
     "legal_action(index) on the core: (state, ctx, index) -> action, or None (not taken)."},
    {"classic_random", (PyCFunction)(void (*)(void))classic_random, METH_FASTCALL,
     "random_action(rng) on the core: (state, ctx, rng) -> action, or None (not taken)."},
    {"classic_apply", (PyCFunction)(void (*)(void))classic_apply, METH_FASTCALL,
     "apply(action) on the core: (state, ctx, action) -> 0 applied, 1 not legal, 2 not taken."},
    {"classic_release", classic_release, METH_O,
     "The state given back to Python if the core holds its position (the rollout API)."},
    {"classic_held_methods", classic_held_methods, METH_O,
     "The rollout API's C methods for the class of a held state: (cls) -> {name: method}."},
    {"classic_play_out", classic_play_out, METH_VARARGS,
     "Saboteur's (or Saboteur 2's) State.play_out: (state, rng, until_round_end, even, "
     "tables, setup) -> (played, finished, tools_seen)."},
    {NULL, NULL, 0, NULL},
};

/* what the module needs made once, before any call */
int classic_init(void) {
    marker = PyCFunction_New(&marker_def, NULL);
    /* the keys and words of a round's record as ClassicState._end_round writes them */
    PyObject **names[] = {&s_winners, &s_side, &s_finder, &s_roles, &s_spare, &s_in_front,
                          &s_diggers_side, &s_saboteurs_side, &s_nobody, &s_gold, &s_exhausted,
                          &s_routes, &s_blue, &s_green, &s_crystals, &s_set_aside, &s_thefts,
                          &s_trapped};
    const char *texts[] = {"winners", "side", "finder", "roles", "spare_roles", "in_front",
                           "gold-diggers", "saboteurs", "nobody", "gold", "exhausted",
                           "routes", "blue", "green", "crystals", "set_aside_roles", "thefts",
                           "trapped"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((*names[i] = PyUnicode_InternFromString(texts[i])) == NULL) return -1;
    return marker == NULL ? -1 : 0;
}
