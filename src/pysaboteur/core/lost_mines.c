/* The compiled core's Lost Mines family (issue 24; module.c makes the module).
 *
 * The play-outs (State.play_out) of The Lost Mines (games/lost_mines) in C, playing exactly
 * the games of the pure-Python engine: the same menu order as LostMinesState._menu and
 * _decode, the same numbers drawn (SplitMix64, as engine/rng.py; the traps from the state's
 * own generator), the same state written back.  Every card table comes from the Python side
 * (pysaboteur/core/lost_mines.py compiles them from the catalogue and the state's own menu
 * tables): nothing of the rules' data is written here.  The core plays every decision of a
 * round: path cards, tools, traps, trolls, storms, passes, proposals and votes, the pawns'
 * routes (traps sprung on the way, mines entered and turned over), treasures taken, the
 * information cards' looks (as the state's _look).  A round's end is the core's where the
 * match has no fixed deal (end_round_core: _end_round's scoring and record, the round's end
 * held packed until read) and the core sets the next round up (as _setup_round: the same
 * numbers drawn); else the state's own _end_round is called and the next round read back.
 * A new match's first round is set up here too, and held by the rollout API (below) until
 * Python reads it or a play-out takes it.  The maze written back is packed (PackedMaze),
 * made a plain Maze when first touched.
 *
 * The rollout API (legal_actions, legal_count, legal_action, random_action, apply) is here
 * too, as classic.c's: the decision is split into menu_of (the menu) and act (an entry's
 * i-th action applied), and the state played a decision at a time stays on the core between
 * calls (see "the rollout API" below).
 */
#include "core.h"

#define LG 16            /* grid stride: a cell is (x + 2) * LG + (y + 2) (lost_mines.py) */
#define LNC 256
#define LSEATS 16
#define LCARDS 96
#define LOT 128
#define LDECK 128
#define LHAND 32
#define LSLOTS 16
#define LROUTES 4400     /* routes of up to 7 steps (LSTEPS - 1): 4 + 12 + ... + 4 * 3^6 */
#define LSTEPS 8
#define LFRONT 16
#define LHID 16
#define LTROLLS 32

enum { CARD = 0, MOVE, ORIENT, TAKE, VOTE };                  /* state.py's phases */
enum { K_OTHER = 0, K_PATH, K_ACTION };
enum { E_NONE = 0, E_TOOL, E_INFO, E_TRAP, E_TROLL, E_STORM };  /* lost_mines.py _EFFECTS */
enum { O_MINE = 0, O_TREASURE, O_DWARF };                     /* lost_mines.py _LOOKS */
enum { T_PLACE, T_CELL, T_JOINT, T_TREASURE, T_PLAYER, T_PASS, T_PROPOSE, T_ROUTE, T_STAY,
       T_ORIENT, T_TAKE, T_VOTE };
enum { L_STORM = 8, L_MINES = 9 };  /* T_CELL's target lists besides obstacles 0..7 */
enum { GO_ON = 0, ROUND_END = 1, VOTED_END = 2 };
static const int LDELTA[4] = {-1, LG, 1, -LG};

/* ------------------------------------------------------------------ tables */
typedef struct {
    int ncards, notiles, width, height, steps, campfire_steps, pass_max, seats, troll_card,
        ntypes;
    PyObject *codes[LCARDS];
    int kind[LCARDS], effect[LCARDS], obstacle[LCARDS], nlook[LCARDS], look[LCARDS][2],
        ttype[LCARDS], mtype[LCARDS], norient[LCARDS], orot[LCARDS][2], ootile[LCARDS][2];
    PyObject *place_act[LCARDS][2], *cell_act[LCARDS], *joint_act[LCARDS],
        *treasure_act[LCARDS], *player_act[LCARDS], *pass1[LCARDS], *pass2[LCARDS];
    int open_mask[LOT], segs[LOT][4], seg_of_edge[LOT][9], obst[LOT], rock[LOT],
        campfire[LOT], stormable[LOT], otile_card[LOT];
    unsigned char fits[256][16];
    PyObject *xy[LNC];
    PyObject *ids, *move_type, *orient_obj[2], *take, *votes, *propose, *stay, *vote_reason,
        *packed_type, *maze_type, *memo_type, *capsule;  /* (the capsule: borrowed) */
    /* the round's scoring (core/lost_mines.py _score_spec): per card, the clan whose team a
       dwarf card plays for (-1: selfish, keeps its own), a treasure's value, a dwarf card's
       identity (the string); the clans, the dragon's cost, RoundResult, the reasons */
    int team[LCARDS], value[LCARDS], nclans, dragon_penalty;
    PyObject *identity[LCARDS], *round_result, *r_treasures, *r_exhausted;
    PyObject *later_type, *unpacked_end, *cat;  /* a round's end not written back */
} Tables;

static void tables_free(PyObject *capsule) {
    Tables *t = PyCapsule_GetPointer(capsule, "pysaboteur._core.LostMinesTables");
    /* the Python objects are kept for the process's life (made once, like the catalogue) */
    if (t != NULL) PyMem_RawFree(t);
}

static PyObject *spec_get(PyObject *spec, const char *key) {
    PyObject *o = PyDict_GetItemString(spec, key);  /* borrowed */
    if (o == NULL) PyErr_Format(PyExc_KeyError, "lost mines core tables: %s", key);
    return o;
}

static long item_l(PyObject *seq, Py_ssize_t i) {
    PyObject *o = PySequence_GetItem(seq, i);
    if (o == NULL) return -1;
    long v = PyLong_AsLong(o);
    Py_DECREF(o);
    return v;
}

/* a borrowed object kept by the tables: one more reference, for the process's life */
static PyObject *keep(PyObject *o) { Py_XINCREF(o); return o; }

#define CHECK(cond, msg) do { if (!(cond)) { PyErr_SetString(PyExc_ValueError, "lost mines core tables: " msg); goto fail; } } while (0)

/* lost_mines_tables(spec: dict) -> capsule; spec is built by core/lost_mines.py _spec */
static PyObject *lost_mines_tables(PyObject *self, PyObject *spec) {
    (void)self;
    if (!PyDict_Check(spec)) { PyErr_SetString(PyExc_TypeError, "spec must be a dict"); return NULL; }
    Tables *t = PyMem_RawCalloc(1, sizeof(Tables));
    if (t == NULL) return PyErr_NoMemory();
    PyObject *o, *cards, *otiles;
    if (!(cards = spec_get(spec, "cards")) || !(otiles = spec_get(spec, "otiles"))) goto fail;
    t->ncards = (int)PyList_Size(cards);
    t->notiles = (int)PyList_Size(otiles);
    CHECK(t->ncards > 0 && t->ncards <= LCARDS && t->notiles <= LOT, "too many cards");
    if (!(o = spec_get(spec, "board"))) goto fail;
    t->width = (int)item_l(o, 0); t->height = (int)item_l(o, 1);
    CHECK(t->width > 0 && t->height > 0 && t->width + 4 <= LG && t->height + 4 <= LG, "board");
    if (!(o = spec_get(spec, "steps"))) goto fail;
    t->steps = (int)item_l(o, 0); t->campfire_steps = (int)item_l(o, 1);
    CHECK(t->steps > 0 && t->campfire_steps > 0 && t->steps < LSTEPS
          && t->campfire_steps < LSTEPS, "steps");
    if (!(o = spec_get(spec, "pass_max"))) goto fail;
    t->pass_max = (int)PyLong_AsLong(o);
    CHECK(t->pass_max == 1 || t->pass_max == 2, "passes of 1 or 2 cards");
    if (!(o = spec_get(spec, "seats"))) goto fail;
    t->seats = (int)PyLong_AsLong(o);
    CHECK(t->seats > 0 && t->seats <= LSEATS && t->seats <= LSLOTS, "seats");
    if (!(o = spec_get(spec, "troll"))) goto fail;
    t->troll_card = (int)PyLong_AsLong(o);
    if (!(o = spec_get(spec, "treasure_types"))) goto fail;
    t->ntypes = (int)PyLong_AsLong(o);
    for (int c = 0; c < t->ncards; c++) {
        /* (code, kind, effect, obstacle, looks, treasure type, mine type, orientations,
            place actions [orientation][grid], cell actions [grid], joint actions [joint],
            treasure actions [slot], player actions [seat], pass of one, passes of two) */
        PyObject *row = PyList_GET_ITEM(cards, c);
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 15, "card row");
        t->codes[c] = keep(PyTuple_GET_ITEM(row, 0));
        t->kind[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 1));
        t->effect[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 2));
        t->obstacle[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 3));
        CHECK(t->obstacle[c] < L_STORM, "obstacle kinds");
        o = PyTuple_GET_ITEM(row, 4);
        t->nlook[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->nlook[c] <= 2, "looks");
        for (int k = 0; k < t->nlook[c]; k++) t->look[c][k] = (int)item_l(o, k);
        t->ttype[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 5));
        t->mtype[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 6));
        o = PyTuple_GET_ITEM(row, 7);
        t->norient[c] = (int)PyTuple_GET_SIZE(o);
        CHECK(t->norient[c] <= 2, "orientations");
        for (int k = 0; k < t->norient[c]; k++) {
            PyObject *v = PyTuple_GET_ITEM(o, k);
            t->orot[c][k] = PyObject_IsTrue(PyTuple_GET_ITEM(v, 0));
            t->ootile[c][k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(v, 1));
            CHECK(t->ootile[c][k] >= 0 && t->ootile[c][k] < t->notiles, "orientation tile");
        }
        o = PyTuple_GET_ITEM(row, 8);
        CHECK(PyTuple_GET_SIZE(o) == 0 || PyTuple_GET_SIZE(o) == t->norient[c], "place rows");
        for (int k = 0; k < PyTuple_GET_SIZE(o); k++) {
            t->place_act[c][k] = keep(PyTuple_GET_ITEM(o, k));
            CHECK(PyTuple_GET_SIZE(t->place_act[c][k]) == LNC, "place row");
        }
        if ((o = PyTuple_GET_ITEM(row, 9)) != Py_None) {
            CHECK(PyTuple_GET_SIZE(o) == LNC, "cell row");
            t->cell_act[c] = keep(o);
        }
        if ((o = PyTuple_GET_ITEM(row, 10)) != Py_None) {
            CHECK(PyTuple_GET_SIZE(o) == 2 * LNC, "joint row");
            t->joint_act[c] = keep(o);
        }
        if ((o = PyTuple_GET_ITEM(row, 11)) != Py_None) t->treasure_act[c] = keep(o);
        if ((o = PyTuple_GET_ITEM(row, 12)) != Py_None) t->player_act[c] = keep(o);
        if ((o = PyTuple_GET_ITEM(row, 13)) != Py_None) t->pass1[c] = keep(o);
        if ((o = PyTuple_GET_ITEM(row, 14)) != Py_None) {
            CHECK(PyTuple_GET_SIZE(o) == t->ncards, "pass row");
            t->pass2[c] = keep(o);
        }
        CHECK(t->kind[c] != K_PATH || (t->norient[c] > 0 && t->place_act[c][0] != NULL), "path card");
        CHECK(t->kind[c] != K_ACTION || (t->cell_act[c] && t->joint_act[c] && t->treasure_act[c]
                                         && t->player_act[c]), "action card");
        CHECK(t->kind[c] == K_OTHER || (t->pass1[c] && t->pass2[c]), "passes");
    }
    CHECK(t->troll_card >= 0 && t->troll_card < t->ncards, "troll card");
    for (int k = 0; k < t->notiles; k++) {
        /* (open_mask, segments, seg_of_edge (9), obstacle, rock, campfire, stormable, card) */
        PyObject *row = PyList_GET_ITEM(otiles, k);
        CHECK(PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 8, "otile row");
        t->open_mask[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 0));
        o = PyTuple_GET_ITEM(row, 1);
        CHECK(PyTuple_GET_SIZE(o) <= 4, "segments");
        for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(o); s++) t->segs[k][s] = (int)item_l(o, s);
        o = PyTuple_GET_ITEM(row, 2);
        for (int e = 0; e < 9; e++) t->seg_of_edge[k][e] = (int)item_l(o, e);
        t->obst[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 3));
        t->rock[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 4));
        t->campfire[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 5));
        t->stormable[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 6));
        t->otile_card[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 7));
    }
    if (!(o = spec_get(spec, "fits"))) goto fail;
    CHECK(PyBytes_Check(o) && PyBytes_GET_SIZE(o) == 256 * 16, "fits");
    memcpy(t->fits, PyBytes_AS_STRING(o), 256 * 16);
    for (int k = 0; k < 256 * 16; k++) CHECK(t->fits[k / 16][k % 16] <= 1, "fits: 0 or 1");
    if (!(o = spec_get(spec, "xy"))) goto fail;
    CHECK(PyTuple_GET_SIZE(o) == LNC, "xy");
    for (int g = 0; g < LNC; g++) t->xy[g] = keep(PyTuple_GET_ITEM(o, g));
    if (!(o = spec_get(spec, "orient"))) goto fail;
    t->orient_obj[0] = keep(PyTuple_GET_ITEM(o, 0));
    t->orient_obj[1] = keep(PyTuple_GET_ITEM(o, 1));
    if (!(t->ids = keep(spec_get(spec, "ids"))) || !(t->move_type = keep(spec_get(spec, "Move")))
        || !(t->take = keep(spec_get(spec, "take"))) || !(t->votes = keep(spec_get(spec, "votes")))
        || !(t->propose = keep(spec_get(spec, "propose"))) || !(t->stay = keep(spec_get(spec, "stay")))
        || !(t->vote_reason = keep(spec_get(spec, "vote")))
        || !(t->packed_type = keep(spec_get(spec, "PackedMaze")))
        || !(t->maze_type = keep(spec_get(spec, "Maze"))) || !(t->memo_type = keep(spec_get(spec, "Memo"))))
        goto fail;
    CHECK(PyType_Check(t->packed_type) && PyType_Check(t->maze_type) && PyType_Check(t->memo_type)
          && PyType_IsSubtype((PyTypeObject *)t->packed_type, (PyTypeObject *)t->maze_type),
          "PackedMaze, Maze, Memo");
    CHECK(PyType_Check(t->move_type) && PyType_IsSubtype((PyTypeObject *)t->move_type, &PyTuple_Type),
          "Move");
    CHECK(PyTuple_GET_SIZE(t->take) == t->seats && PyTuple_GET_SIZE(t->votes) == 2, "take, votes");
    /* (per card (team, value, identity), clans, dragon's cost, RoundResult, reasons,
       LaterRoundEnd, the maker of a round's end from the core's packing, the catalogue) */
    if (!(o = spec_get(spec, "score"))) goto fail;
    CHECK(PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 9
          && PyTuple_GET_SIZE(PyTuple_GET_ITEM(o, 0)) == t->ncards, "score");
    for (int c = 0; c < t->ncards; c++) {
        PyObject *row = PyTuple_GET_ITEM(PyTuple_GET_ITEM(o, 0), c);
        t->team[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 0));
        t->value[c] = (int)PyLong_AsLong(PyTuple_GET_ITEM(row, 1));
        t->identity[c] = keep(PyTuple_GET_ITEM(row, 2));
    }
    t->nclans = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    t->dragon_penalty = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 2));
    CHECK(t->nclans > 0 && t->nclans <= LSEATS, "clans");
    t->round_result = keep(PyTuple_GET_ITEM(o, 3));
    CHECK(PyType_Check(t->round_result), "RoundResult");
    t->r_treasures = keep(PyTuple_GET_ITEM(o, 4));
    t->r_exhausted = keep(PyTuple_GET_ITEM(o, 5));
    t->later_type = keep(PyTuple_GET_ITEM(o, 6));
    t->unpacked_end = keep(PyTuple_GET_ITEM(o, 7));
    CHECK(PyType_Check(t->later_type) && PyCallable_Check(t->unpacked_end), "LaterRoundEnd");
    t->cat = keep(PyTuple_GET_ITEM(o, 8));
    if (PyErr_Occurred()) goto fail;
    t->capsule = PyCapsule_New(t, "pysaboteur._core.LostMinesTables", tables_free);
    return t->capsule;
fail:
    PyMem_RawFree(t);
    return NULL;
}

/* ------------------------------------------------------------------ the working state */
typedef struct {
    Tables *t;
    PyObject *state, *history, *actors, *discards;
    int n;                                       /* seats */
    int hand[LSEATS][LHAND], hn[LSEATS];         /* in the Python lists' order */
    int deck[LDECK], ndeck, ndeck0;              /* the top is the end */
    int16_t tile[LNC], hid[LNC];                 /* oriented tile / face-down card, -1: none */
    uint8_t cons[LNC];                           /* fit constraint (Maze.constraint_of) */
    uint8_t over[LNC];                           /* a forest tile lies on the obstacle */
    uint8_t pawns[LNC];                          /* how many pawns stand on the cell */
    uint8_t trap[2 * LNC];                       /* by joint: grid cell * 2 (+1: the S side) */
    /* (over and trap are changed by set_over and set_trap, which keep ovb and trb) */
    int8_t troll[2 * LNC];                       /* by joint: its owner, -1: none */
    int tj[LTROLLS], ntj;                        /* the joints with a troll, as placed */
    int order[LNC], norder;                      /* Maze.order */
    /* what the menus scan for, kept up to date as the cards change (by grid cell or joint,
       so that a bitmap's order is x then y, and E before S): the cells a path card may go
       on (on the board, empty, next to a face-up card), the obstacles not overcome by kind,
       the face-up cards a storm may take (pawns aside), the joints next to an open edge of
       a face-up card with both cells on the board (traps and trolls aside) */
    uint64_t pcb[LNC / 64], obb[L_STORM][LNC / 64], stb[LNC / 64], jmb[2 * LNC / 64];
    int16_t pck[LNC];                            /* a placement cell's constraint, -1: none */
    /* the placement cells fitting each open mask: 16 counts of a byte (at most the board's
       cells), added and taken two words at a time with a constraint's row of fits */
    union { uint8_t n[16]; uint64_t q[2]; } fitn;
    uint64_t ovb[LNC / 64], trb[2 * LNC / 64];   /* over and trap as bitmaps (the sets) */
    int hcell[LHID], nh;                         /* face-down cells, by grid cell */
    long long version;
    int pawn[LSEATS], pseg[LSEATS];
    int front[LSEATS][LFRONT], nfront[LSEATS];
    int nslot, stype[LSLOTS], owner[LSLOTS], col[LSEATS][LSLOTS], ncol[LSEATS];
    int phase, current, turn, pending_draw, proposed, dragon, voters[LSEATS], nvoters;
    int pend_kind;                               /* 0: None, 1: a mine to orient, 2: slots */
    int pend_g, pend_entry, pend_nways, pend_ways[2], pend_nslots, pend_slots[LSLOTS];
    int d_maze, d_owner, d_front, d_traps, d_over, deck_full;
    uint64_t rng, own_rng, *srng;                /* the chooser; the state's (traps, deals) */
    /* the rollout API (a state resident on the core): the hands changed (a bit per seat),
       the pawns moved, what the state was last told of the scalars (write_step) */
    unsigned hdirty;
    int d_pawn, said[8];
} W;
static W work;  /* one working state for the process (see busy) */

static inline int jt(int c, int e) {  /* the joint across edge index e of c */
    switch (e) {
    case 0: return 2 * (c - 1) + 1;
    case 3: return 2 * (c - LG);
    case 1: return 2 * c;
    default: return 2 * c + 1;
    }
}
static inline long py_cell(int g) { return ((long)(g / LG - 2 + 512) << 10) | (g % LG - 2 + 512); }
static inline int grid_of(W *w, long pc) {  /* -1: off the core's grid */
    long x = (pc >> 10) - 512, y = (pc & 1023) - 512;
    if (x < -1 || y < -1 || x > w->t->width || y > w->t->height) return -1;
    return (int)((x + 2) * LG + y + 2);
}
static inline int on_board(W *w, int g) {
    int x = g / LG - 2, y = g % LG - 2;
    return x >= 0 && y >= 0 && x < w->t->width && y < w->t->height;
}
static inline int cons_of(W *w, int c) {  /* Maze.constraint_of */
    int v = 0;
    for (int e = 0; e < 4; e++) {
        int t = w->tile[c + LDELTA[e]];
        if (t >= 0) v |= (w->t->open_mask[t] & OPP[e]) ? EDGES[e] : EDGES[e] << 4;
    }
    return v;
}
static inline void bit_put(uint64_t *b, int i, int on) {
    if (on) b[i >> 6] |= 1ULL << (i & 63);
    else b[i >> 6] &= ~(1ULL << (i & 63));
}
static inline int bit_count(const uint64_t *b, int words) {  /* (the bitmaps are sparse) */
    int n = 0;
    for (int k = 0; k < words; k++)
        for (uint64_t x = b[k]; x; x &= x - 1) n++;
    return n;
}
static inline int nth_bit(const uint64_t *b, int words, int i) {  /* -1: fewer bits */
    for (int k = 0; k < words; k++) {
        int n = __builtin_popcountll(b[k]);
        if (i >= n) { i -= n; continue; }
        uint64_t x = b[k];
        while (i-- > 0) x &= x - 1;
        return k * 64 + __builtin_ctzll(x);
    }
    return -1;
}
/* cell g as a placement cell (pcb, pck, fitn) after a change of its card, its face-down
   card or its constraint */
static void pc_bits(W *w, int g) {
    int now = on_board(w, g) && w->tile[g] < 0 && w->hid[g] < 0 && (w->cons[g] & 15)
              ? w->cons[g] : -1, was = w->pck[g];
    if (now == was) return;
    uint64_t row[2];
    if (was >= 0) {
        memcpy(row, w->t->fits[was], sizeof row);
        w->fitn.q[0] -= row[0]; w->fitn.q[1] -= row[1];
    }
    if (now >= 0) {
        memcpy(row, w->t->fits[now], sizeof row);
        w->fitn.q[0] += row[0]; w->fitn.q[1] += row[1];
    }
    w->pck[g] = (int16_t)now;
    bit_put(w->pcb, g, now >= 0);
}
/* the card bitmaps of cell g (obstacles, storms) after a change of its card or its forest
   tile (was: the card it had, -1: none) */
static void card_bits(W *w, int g, int was) {
    Tables *t = w->t;
    int ot = w->tile[g];
    if (!on_board(w, g)) return;
    if (was >= 0 && t->obst[was] >= 0) bit_put(w->obb[t->obst[was]], g, 0);
    if (ot >= 0 && t->obst[ot] >= 0) bit_put(w->obb[t->obst[ot]], g, !w->over[g]);
    bit_put(w->stb, g, ot >= 0 && t->stormable[ot]);
}
static inline void set_over(W *w, int g, int on) {
    w->over[g] = (uint8_t)on;
    bit_put(w->ovb, g, on);
    card_bits(w, g, w->tile[g]);
}
static inline void set_trap(W *w, int j, int on) {
    w->trap[j] = (uint8_t)on;
    bit_put(w->trb, j, on);
}
static void joint_bits(W *w, int c) {  /* the joints face-up card c opens on */
    int om = w->t->open_mask[w->tile[c]];
    for (int e = 0; e < 4; e++)
        if ((om & EDGES[e]) && on_board(w, c + LDELTA[e])) bit_put(w->jmb, jt(c, e), 1);
}
static void all_joint_bits(W *w) {
    memset(w->jmb, 0, sizeof w->jmb);
    for (int i = 0; i < w->norder; i++) joint_bits(w, w->order[i]);
}
/* every bitmap of the menus made afresh (a position read in, a new round); over and trap
   are as set_over and set_trap left them */
static void all_bits(W *w) {
    memset(w->pcb, 0, sizeof w->pcb);
    memset(w->obb, 0, sizeof w->obb);
    memset(w->stb, 0, sizeof w->stb);
    memset(w->pck, 0xff, sizeof w->pck);
    memset(&w->fitn, 0, sizeof w->fitn);
    for (int x = 0; x < w->t->width; x++)
        for (int y = 0; y < w->t->height; y++) {
            int g = (x + 2) * LG + y + 2;
            if (w->cons[g] & 15) pc_bits(w, g);
        }
    for (int i = 0; i < w->norder; i++) card_bits(w, w->order[i], -1);
    all_joint_bits(w);
}
/* after a card laid on c or taken from it: c's own constraint is its neighbours' (the
   same), each neighbour's changes on the edge facing c (cons_of's bits for that edge) */
static void refresh_cons(W *w, int c) {
    int t = w->tile[c];
    pc_bits(w, c);
    for (int e = 0; e < 4; e++) {
        int n = c + LDELTA[e], back = (e + 2) & 3;  /* c seen from n */
        int v = w->cons[n] & ~(EDGES[back] | EDGES[back] << 4);
        if (t >= 0) v |= (w->t->open_mask[t] & OPP[back]) ? EDGES[back] : EDGES[back] << 4;
        w->cons[n] = (uint8_t)v;
        pc_bits(w, n);
    }
}

/* ------------------------------------------------------------------ Python state in */
static int card_id(W *w, PyObject *code) {
    /* the codes in a state are the catalogue's own str objects: known by address first */
    static PyObject *seen[64];
    static int seen_id[64];
    static Tables *seen_t;
    size_t k = ((uintptr_t)code >> 4) & 63;
    if (seen_t == w->t && seen[k] == code) return seen_id[k];
    PyObject *v = PyDict_GetItemWithError(w->t->ids, code);
    if (v == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "lost mines core: unknown card");
        return -1;
    }
    if (seen_t != w->t) { memset(seen, 0, sizeof seen); seen_t = w->t; }
    /* kept while cached: an address is only ever this object's */
    Py_INCREF(code); Py_XDECREF(seen[k]);
    seen[k] = code;
    seen_id[k] = (int)PyLong_AsLong(v);
    return seen_id[k];
}

/* a list of card codes into ids (0; 1: longer than ``most``; -1: error) */
static int load_cards(W *w, PyObject *list, int *out, int *n, int most) {
    if (!PyList_Check(list)) return 1;
    Py_ssize_t k = PyList_GET_SIZE(list);
    if (k > most) return 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        int id = card_id(w, PyList_GET_ITEM(list, i));
        if (id < 0) return -1;
        out[i] = id;
    }
    *n = (int)k;
    return 0;
}

/* a list of small ints (0; 1: not a list or longer than ``most``; -1: error) */
static int load_ints(PyObject *list, int *out, int *n, int most) {
    if (!PyList_Check(list)) return 1;
    Py_ssize_t k = PyList_GET_SIZE(list);
    if (k > most) return 1;
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    *n = (int)k;
    return 0;
}

/* a joint as the state keeps it (cell << 4 | side) into the core's; -1: not one it takes */
static int joint_of(W *w, PyObject *key) {
    long j = PyLong_AsLong(key);
    int side = (int)(j & 15), g = grid_of(w, j >> 4);
    if (g < 0 || (side != 2 && side != 4)) return -1;
    return 2 * g + (side == 4);
}

static void grid_made(W *w) {  /* the face-down cells and the constraints, of the cards */
    w->nh = 0;
    for (int g = 0; g < LNC; g++) {
        if (w->hid[g] >= 0) w->hcell[w->nh++] = g;
        /* the border ring keeps every neighbour of a cell of interest on the grid */
        w->cons[g] = (g % LG == 0 || g % LG == LG - 1 || g < LG || g >= LNC - LG) ? 0
                     : (uint8_t)cons_of(w, g);
    }
}

static Py_ssize_t packed_ints(Tables *t, PyObject *packed, const int32_t **out);
/* a maze still packed (core/lost_mines.py's PackedMaze, untouched since the core made it)
   read from its packing, not made into dictionaries first */
static int load_packed(W *w, PyObject *maze) {
    PyObject *blocks = PyObject_GenericGetAttr(maze, name_of("blocks"));
    const int32_t *p;
    int rc = -1;
    if (blocks == NULL) return -1;
    if (!PyTuple_Check(blocks) || PyTuple_GET_SIZE(blocks) != 3
        || PyCapsule_GetPointer(PyTuple_GET_ITEM(blocks, 0), "pysaboteur._core.LostMinesTables") != w->t) {
        PyErr_Clear();
        rc = 1;  /* (another family's tables: not one the core takes) */
        goto out;
    }
    if (packed_ints(w->t, PyTuple_GET_ITEM(blocks, 1), &p) < 0) goto out;
    w->version = (long long)((uint64_t)(uint32_t)p[1] << 32 | (uint64_t)(uint32_t)p[0]);
    int at = 2, k = p[at++];
    w->norder = 0;
    for (int i = 0; i < k; i++, at += 2) {
        w->tile[p[at]] = (int16_t)p[at + 1];
        w->order[w->norder++] = p[at];
    }
    k = p[at++];
    if (k > LHID) { rc = 1; goto out; }
    for (int i = 0; i < k; i++, at += 2) w->hid[p[at]] = (int16_t)p[at + 1];
    grid_made(w);
    rc = 0;
out:
    Py_DECREF(blocks);
    return rc;
}

static int load_grid(W *w, PyObject *maze) {
    Tables *t = w->t;
    PyObject *cells = NULL, *hidden = NULL, *order = NULL, *key, *val;
    Py_ssize_t pos = 0;
    int rc = -1;
    memset(w->tile, 0xff, sizeof w->tile);
    memset(w->hid, 0xff, sizeof w->hid);
    if (Py_TYPE(maze) == (PyTypeObject *)t->packed_type) return load_packed(w, maze);
    if (!(cells = get_attr(maze, "cells")) || !(hidden = get_attr(maze, "hidden"))
        || !(order = get_attr(maze, "order")))
        goto done;
    {
        PyObject *v = get_attr(maze, "version");
        if (v == NULL) goto done;
        w->version = PyLong_AsLongLong(v);
        Py_DECREF(v);
    }
    rc = 1;
    while (PyDict_Next(cells, &pos, &key, &val)) {
        int g = grid_of(w, PyLong_AsLong(key));
        long ot = PyLong_AsLong(val);
        if (g < 0 || ot < 0 || ot >= t->notiles) goto done;
        w->tile[g] = (int16_t)ot;
    }
    if (!PyList_Check(order) || PyList_GET_SIZE(order) > LNC) goto done;
    w->norder = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(order); i++) {
        int g = grid_of(w, PyLong_AsLong(PyList_GET_ITEM(order, i)));
        if (g < 0) goto done;
        w->order[w->norder++] = g;
    }
    pos = 0;
    if (PyDict_GET_SIZE(hidden) > LHID) goto done;
    while (PyDict_Next(hidden, &pos, &key, &val)) {
        int g = grid_of(w, PyLong_AsLong(key)), id = card_id(w, val);
        if (id < 0) { rc = -1; goto done; }
        if (g < 0) goto done;
        w->hid[g] = (int16_t)id;
    }
    grid_made(w);
    rc = PyErr_Occurred() ? -1 : 0;
done:
    Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(order);
    return rc;
}

/* a set of cells (or of joints) of the state into marks (0; 1: one the core does not take;
   -1: error) */
static int load_marks(W *w, const char *name, int joints) {
    PyObject *o = get_attr(w->state, name), *it = o ? PyObject_GetIter(o) : NULL, *key;
    int rc = 0;
    Py_XDECREF(o);
    if (it == NULL) return -1;
    while ((key = PyIter_Next(it)) != NULL) {
        int i = joints ? joint_of(w, key) : grid_of(w, PyLong_AsLong(key));
        Py_DECREF(key);
        if (i < 0) rc = 1;
        else if (joints) set_trap(w, i, 1);
        else { w->over[i] = 1; bit_put(w->ovb, i, 1); }  /* (the card bitmaps: all_bits) */
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : rc;
}

/* 0: loaded; 1: a position the core does not take (played in Python); -1: error */
static int sync_in(W *w, int shared) {
    Tables *t = w->t;
    PyObject *st = w->state, *o = NULL, *key, *val;
    int rc, k;
    Py_ssize_t pos;
    /* hands, pile */
    if (!(o = get_attr(st, "hands"))) return -1;
    w->n = (int)PyList_Size(o);
    if (w->n < 2 || w->n > t->seats) { Py_DECREF(o); return 1; }
    for (int s = 0; s < w->n; s++)
        if ((rc = load_cards(w, PyList_GET_ITEM(o, s), w->hand[s], &w->hn[s], LHAND)))
            { Py_DECREF(o); return rc; }
    Py_DECREF(o);
    if (!(o = get_attr(st, "deck"))) return -1;
    rc = load_cards(w, o, w->deck, &w->ndeck, LDECK);
    Py_DECREF(o);
    if (rc) return rc;
    w->ndeck0 = w->ndeck;
    /* the maze */
    if (!(o = get_attr(st, "maze"))) return -1;
    rc = load_grid(w, o);
    Py_DECREF(o);
    if (rc) return rc;
    /* pawns */
    memset(w->pawns, 0, sizeof w->pawns);
    PyObject *pawn = get_attr(st, "pawn"), *seg = pawn ? get_attr(st, "pawn_seg") : NULL;
    if (seg == NULL) { Py_XDECREF(pawn); return -1; }
    rc = 0;
    if (load_ints(pawn, w->pawn, &k, LSEATS) || k != w->n
        || load_ints(seg, w->pseg, &k, LSEATS) || k != w->n)
        rc = 1;
    Py_DECREF(pawn); Py_DECREF(seg);
    if (PyErr_Occurred()) return -1;
    if (rc) return rc;
    for (int s = 0; s < w->n; s++) {
        int g = grid_of(w, w->pawn[s]);
        if (g < 0 || w->tile[g] < 0) return 1;
        w->pawn[s] = g;
        w->pawns[g]++;
    }
    /* tokens: forest tiles, traps, trolls and the cards in front */
    memset(w->over, 0, sizeof w->over);
    memset(w->trap, 0, sizeof w->trap);
    memset(w->ovb, 0, sizeof w->ovb);
    memset(w->trb, 0, sizeof w->trb);
    memset(w->troll, 0xff, sizeof w->troll);
    w->ntj = 0;
    if ((rc = load_marks(w, "overcome", 0)) || (rc = load_marks(w, "traps", 1)))
        return rc;
    if (!(o = get_attr(st, "trolls"))) return -1;
    if (!PyDict_Check(o) || PyDict_GET_SIZE(o) > LTROLLS) { Py_DECREF(o); return 1; }
    pos = 0;
    while (PyDict_Next(o, &pos, &key, &val)) {
        int j = joint_of(w, key);
        long s = PyLong_AsLong(val);
        if (j < 0 || s < 0 || s >= w->n) { rc = 1; break; }
        w->troll[j] = (int8_t)s;
        w->tj[w->ntj++] = j;
    }
    Py_DECREF(o);
    if (PyErr_Occurred()) return -1;
    if (rc) return rc;
    if (!(o = get_attr(st, "in_front"))) return -1;
    for (int s = 0; s < w->n && !rc; s++)
        rc = load_cards(w, PyList_GET_ITEM(o, s), w->front[s], &w->nfront[s], LFRONT);
    Py_DECREF(o);
    if (rc) return rc;
    /* treasures */
    if (!(o = get_attr(st, "layout"))) return -1;
    int lay[LSLOTS];
    rc = load_cards(w, o, lay, &w->nslot, LSLOTS);
    Py_DECREF(o);
    if (rc) return rc;
    for (int i = 0; i < w->nslot; i++) w->stype[i] = t->ttype[lay[i]];
    if (!(o = get_attr(st, "owner"))) return -1;
    rc = load_ints(o, w->owner, &k, LSLOTS);
    Py_DECREF(o);
    if (rc) return rc;
    if (k != w->nslot) return 1;
    if (!(o = get_attr(st, "collected"))) return -1;
    for (int s = 0; s < w->n && !rc; s++)
        rc = load_ints(PyList_GET_ITEM(o, s), w->col[s], &w->ncol[s], LSLOTS);
    Py_DECREF(o);
    if (rc) return rc;
    if (!(o = get_attr(st, "dragon"))) return -1;
    w->dragon = o == Py_None ? -1 : (int)PyLong_AsLong(o);
    Py_DECREF(o);
    /* whose turn, what is pending */
    if (attr_int(st, "phase", &w->phase) || attr_int(st, "current", &w->current)
        || attr_int(st, "turn", &w->turn) || attr_int(st, "pending_draw", &w->pending_draw))
        return -1;
    if (w->phase < CARD || w->phase > VOTE || w->current < 0 || w->current >= w->n
        || w->turn < 0 || w->turn >= w->n)
        return 1;
    if (!(o = get_attr(st, "proposed"))) return -1;
    w->proposed = PyObject_IsTrue(o);
    Py_DECREF(o);
    if (!(o = get_attr(st, "voters"))) return -1;
    rc = load_ints(o, w->voters, &w->nvoters, LSEATS);
    Py_DECREF(o);
    if (rc) return rc;
    if (!(o = get_attr(st, "pending"))) return -1;
    w->pend_kind = 0;
    if (o == Py_None) {
        rc = w->phase == ORIENT || w->phase == TAKE;  /* cannot be: Python decides */
    } else if (w->phase == ORIENT && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 3) {
        PyObject *ways = PyTuple_GET_ITEM(o, 2);
        w->pend_kind = 1;
        w->pend_g = grid_of(w, PyLong_AsLong(PyTuple_GET_ITEM(o, 0)));
        w->pend_entry = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
        w->pend_nways = PyTuple_Check(ways) ? (int)PyTuple_GET_SIZE(ways) : 3;
        if (w->pend_g < 0 || w->hid[w->pend_g] < 0 || w->pend_nways > 2) rc = 1;
        for (int i = 0; !rc && i < w->pend_nways; i++)
            w->pend_ways[i] = PyObject_IsTrue(PyTuple_GET_ITEM(ways, i));
    } else if (w->phase == TAKE) {
        w->pend_kind = 2;
        rc = load_ints(o, w->pend_slots, &w->pend_nslots, LSLOTS);
    } else {
        rc = 1;
    }
    Py_DECREF(o);
    if (PyErr_Occurred()) return -1;
    if (rc) return rc;
    if (!shared) {  /* the state's own generator (the traps) besides the chooser */
        PyObject *r = get_attr(st, "rng");
        rc = r == NULL ? -1 : get_rng(r, &w->own_rng);
        Py_XDECREF(r);
        if (rc < 0) return -1;
        w->srng = &w->own_rng;
    } else {
        w->srng = &w->rng;
    }
    Py_XDECREF(w->discards);
    if (!(w->discards = get_attr(st, "discards"))) return -1;
    w->d_maze = w->d_owner = w->d_front = w->d_traps = w->d_over = w->deck_full = 0;
    all_bits(w);
    return 0;
}

/* ------------------------------------------------------------------ Python state out */
static int set_new(PyObject *o, const char *name, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = set_attr(o, name, v);
    Py_DECREF(v);
    return r;
}

static PyObject *int_list(const int *a, int n) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (v == NULL) { Py_DECREF(l); return NULL; }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *code_list(W *w, const int *a, int n) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *code = w->t->codes[a[i]];
        Py_INCREF(code);
        PyList_SET_ITEM(l, i, code);
    }
    return l;
}

/* the engine's cell and joint integers of the core's, as Python objects (new references),
   each made once: writing a position back makes hundreds */
static PyObject *cell_objs[LNC], *joint_objs[2 * LNC];
static PyObject *cell_obj(int g) {
    if (cell_objs[g] == NULL) cell_objs[g] = PyLong_FromLong(py_cell(g));
    Py_XINCREF(cell_objs[g]);
    return cell_objs[g];
}
static PyObject *py_joint(int j) {
    if (joint_objs[j] == NULL) joint_objs[j] = PyLong_FromLong(py_cell(j >> 1) << 4 | (j & 1 ? 4 : 2));
    Py_XINCREF(joint_objs[j]);
    return joint_objs[j];
}


/* the maze packed, as core/lost_mines.py's PackedMaze holds it until it is first touched:
   int32s, the version (low and high halves), the face-up cards as laid (how many, then
   grid cell and oriented tile each), the face-down cards by cell (how many, cell, card id),
   the fit constraints of the empty cells beside a card by cell (how many, cell, constraint):
   the entries of the dictionaries in their order */
static PyObject *pack_maze(W *w) {
    int32_t buf[3 + 2 * LNC + 1 + 2 * LNC + 1 + 2 * LNC];
    int k = 0, at, n;
    buf[k++] = (int32_t)(uint32_t)((uint64_t)w->version & 0xffffffffU);
    buf[k++] = (int32_t)(uint32_t)((uint64_t)w->version >> 32);
    buf[k++] = w->norder;
    for (int i = 0; i < w->norder; i++) { buf[k++] = w->order[i]; buf[k++] = w->tile[w->order[i]]; }
    at = k++;
    n = 0;
    for (int g = LG; g < LNC - LG; g++)
        if (w->hid[g] >= 0) { buf[k++] = g; buf[k++] = w->hid[g]; n++; }
    buf[at] = n;
    at = k++;
    n = 0;
    for (int g = LG; g < LNC - LG; g++)
        if (w->hid[g] < 0 && w->tile[g] < 0 && w->cons[g]) { buf[k++] = g; buf[k++] = w->cons[g]; n++; }
    buf[at] = n;
    return PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)k * (Py_ssize_t)sizeof(int32_t));
}

/* a packed maze's int32s, checked: every count within the bytes, every cell on the core's
   grid inside its border, every tile and card known; how many (-1: a ValueError) */
static Py_ssize_t packed_ints(Tables *t, PyObject *packed, const int32_t **out) {
    if (!PyBytes_Check(packed) || PyBytes_GET_SIZE(packed) % (Py_ssize_t)sizeof(int32_t)) goto bad;
    const int32_t *p = (const int32_t *)PyBytes_AS_STRING(packed);
    Py_ssize_t n = PyBytes_GET_SIZE(packed) / (Py_ssize_t)sizeof(int32_t), at = 2;
    for (int part = 0; part < 3; part++) {
        if (at >= n) goto bad;
        int32_t k = p[at++];
        if (k < 0 || k > LNC || at + 2 * (Py_ssize_t)k > n) goto bad;
        for (int32_t i = 0; i < k; i++) {
            int32_t g = p[at + 2 * i], v = p[at + 2 * i + 1];
            if (g < LG || g >= LNC - LG || g % LG == 0 || g % LG == LG - 1) goto bad;
            if (part == 0 ? v < 0 || v >= t->notiles : part == 1 ? v < 0 || v >= t->ncards
                                                                 : v <= 0 || v > 255)
                goto bad;
        }
        at += 2 * (Py_ssize_t)k;
    }
    if (at != n) goto bad;
    *out = p;
    return n;
bad:
    PyErr_SetString(PyExc_ValueError, "lost mines core: a packed maze");
    return -1;
}

/* the state's new maze (a PackedMaze, made a plain Maze when first touched: most are never
   read) and its memo (its clones keep theirs: copy-on-write); release makes them while the
   state is still held, then writes them with no Python run between, so that another thread
   never reads a given-back state's old maze */
static PyObject *made_maze;  /* (maze, memo) made ahead, or NULL */
static PyObject *make_maze(W *w) {
    Tables *t = w->t;
    PyTypeObject *tp = (PyTypeObject *)t->packed_type;
    PyObject *packed = pack_maze(w), *blocks = NULL, *maze = NULL, *memo = NULL, *r = NULL;
    if (packed != NULL && (blocks = PyTuple_Pack(3, t->capsule, packed, t->cat)) != NULL
        && (maze = tp->tp_alloc(tp, 0)) != NULL
        && PyObject_GenericSetAttr(maze, name_of("blocks"), blocks) == 0
        && (memo = new_memo(t->memo_type)) != NULL)
        r = PyTuple_Pack(2, maze, memo);
    Py_XDECREF(packed); Py_XDECREF(blocks); Py_XDECREF(maze); Py_XDECREF(memo);
    return r;
}

/* lost_mines_unpack_maze(maze): a PackedMaze made the plain Maze it stands for, in place
   (its dictionaries in the order pack_maze keeps, no reach contexts) */
static PyObject *lost_mines_unpack_maze(PyObject *self, PyObject *maze) {
    (void)self;
    PyObject *blocks = PyObject_GenericGetAttr(maze, name_of("blocks")), *cells = NULL,
             *hidden = NULL, *cons = NULL, *order = NULL, *version = NULL, *r = NULL;
    if (blocks == NULL) return NULL;
    Tables *t = PyTuple_Check(blocks) && PyTuple_GET_SIZE(blocks) == 3
                ? PyCapsule_GetPointer(PyTuple_GET_ITEM(blocks, 0), "pysaboteur._core.LostMinesTables")
                : NULL;
    const int32_t *p;
    if (t == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "lost mines core: not a packed maze");
        goto out;
    }
    if (Py_TYPE(maze) != (PyTypeObject *)t->packed_type) {
        PyErr_SetString(PyExc_TypeError, "lost mines core: not a packed maze");
        goto out;
    }
    if (packed_ints(t, PyTuple_GET_ITEM(blocks, 1), &p) < 0) goto out;
    int at = 2, k = p[at++];
    if (!(cells = PyDict_New()) || !(hidden = PyDict_New()) || !(cons = PyDict_New())
        || !(order = PyList_New(k))
        || !(version = PyLong_FromLongLong((long long)((uint64_t)(uint32_t)p[1] << 32
                                                       | (uint64_t)(uint32_t)p[0]))))
        goto out;
    for (int i = 0; i < k; i++, at += 2) {
        PyObject *pc = cell_obj(p[at]), *ot = PyLong_FromLong(p[at + 1]);
        int bad = pc == NULL || ot == NULL || PyDict_SetItem(cells, pc, ot) < 0;
        Py_XDECREF(ot);
        if (pc == NULL) goto out;
        PyList_SET_ITEM(order, i, pc);
        if (bad) goto out;
    }
    for (int part = 0; part < 2; part++) {
        k = p[at++];
        for (int i = 0; i < k; i++, at += 2) {
            PyObject *pc = cell_obj(p[at]),
                     *v = part ? PyLong_FromLong(p[at + 1]) : Py_NewRef(t->codes[p[at + 1]]);
            int bad = pc == NULL || v == NULL || PyDict_SetItem(part ? cons : hidden, pc, v) < 0;
            Py_XDECREF(pc); Py_XDECREF(v);
            if (bad) goto out;
        }
    }
    {
        static const char *const empty[] = {"sources", "blocks", "reach", "reach_in"};
        for (int i = 0; i < 4; i++) {
            PyObject *l = PyList_New(0);
            int bad = l == NULL || PyObject_GenericSetAttr(maze, name_of(empty[i]), l) < 0;
            Py_XDECREF(l);
            if (bad) goto out;
        }
    }
    if (PyObject_GenericSetAttr(maze, name_of("cat"), PyTuple_GET_ITEM(blocks, 2)) < 0
        || PyObject_GenericSetAttr(maze, name_of("cells"), cells) < 0
        || PyObject_GenericSetAttr(maze, name_of("hidden"), hidden) < 0
        || PyObject_GenericSetAttr(maze, name_of("constraint"), cons) < 0
        || PyObject_GenericSetAttr(maze, name_of("order"), order) < 0
        || PyObject_GenericSetAttr(maze, name_of("version"), version) < 0
        || PyObject_GenericSetAttr(maze, name_of("__class__"), t->maze_type) < 0)
        goto out;
    r = Py_NewRef(Py_None);
out:
    Py_XDECREF(blocks); Py_XDECREF(cells); Py_XDECREF(hidden); Py_XDECREF(cons);
    Py_XDECREF(order); Py_XDECREF(version);
    return r;
}

static int put_maze(W *w) {
    PyObject *r = made_maze != NULL ? made_maze : make_maze(w);
    made_maze = NULL;
    if (r == NULL) return -1;
    /* into the state's dict: past a held state's properties */
    PyObject *d = PyObject_GenericGetDict(w->state, NULL);
    int bad = d == NULL || PyDict_SetItem(d, name_of("maze"), PyTuple_GET_ITEM(r, 0)) < 0
              || PyDict_SetItem(d, name_of("_mt"), PyTuple_GET_ITEM(r, 1)) < 0;
    Py_XDECREF(d);
    Py_DECREF(r);
    if (bad) return -1;
    w->d_maze = 0;
    return 0;
}

/* the trolls (joint -> seat) and the cards in front of each seat, as the state holds them;
   -1 on an error (both NULL) */
static int front_objs(W *w, PyObject **trolls_out, PyObject **front_out) {
    PyObject *trolls = PyDict_New(), *front = PyList_New(w->n);
    int ok = trolls && front;
    for (int i = 0; ok && i < w->ntj; i++) {
        PyObject *k = py_joint(w->tj[i]), *v = PyLong_FromLong(w->troll[w->tj[i]]);
        if (k == NULL || v == NULL || PyDict_SetItem(trolls, k, v) < 0) ok = 0;
        Py_XDECREF(k); Py_XDECREF(v);
    }
    for (int s = 0; ok && s < w->n; s++) {
        PyObject *l = code_list(w, w->front[s], w->nfront[s]);
        if (l == NULL) { ok = 0; break; }
        PyList_SET_ITEM(front, s, l);
    }
    if (!ok) { Py_XDECREF(trolls); Py_XDECREF(front); *trolls_out = *front_out = NULL; return -1; }
    *trolls_out = trolls; *front_out = front;
    return 0;
}

static int put_fronts(W *w) {
    PyObject *st = w->state, *trolls, *front;
    if (front_objs(w, &trolls, &front) < 0) return -1;
    if (set_new(st, "trolls", trolls) < 0 || set_new(st, "in_front", front) < 0) return -1;
    w->d_front = 0;
    return 0;
}

/* the marked cells (or joints) as a set of the engine's integers, added in the order of
   the grid (x, then y, then E before S): the bitmap's */
static PyObject *cell_set(const uint64_t *marks, int joints) {
    PyObject *s = PySet_New(NULL);
    int words = joints ? 2 * LNC / 64 : LNC / 64;
    for (int k = 0; s != NULL && k < words; k++)
        for (uint64_t b = marks[k]; b; b &= b - 1) {
            int i = k * 64 + __builtin_ctzll(b);
            PyObject *v = joints ? py_joint(i) : cell_obj(i);
            if (v == NULL || PySet_Add(s, v) < 0) { Py_XDECREF(v); Py_CLEAR(s); break; }
            Py_DECREF(v);
        }
    return s;
}

static int sync_out(W *w, int shared) {
    PyObject *st = w->state, *o;
    if (!(o = get_attr(st, "hands"))) return -1;
    for (int s = 0; s < w->n; s++) {
        PyObject *l = code_list(w, w->hand[s], w->hn[s]);
        int r = l == NULL ? -1 : PyList_SetSlice(PyList_GET_ITEM(o, s), 0, PY_SSIZE_T_MAX, l);
        Py_XDECREF(l);
        if (r < 0) { Py_DECREF(o); return -1; }
    }
    Py_DECREF(o);
    if (w->deck_full || w->ndeck != w->ndeck0) {
        /* a round the core dealt: the whole pile; else the core only took from its top */
        if (!(o = get_attr(st, "deck"))) return -1;
        PyObject *l = w->deck_full ? code_list(w, w->deck, w->ndeck) : NULL;
        int r = w->deck_full && l == NULL ? -1
                : PyList_SetSlice(o, w->deck_full ? 0 : w->ndeck, PY_SSIZE_T_MAX, l);
        Py_XDECREF(l);
        Py_DECREF(o);
        if (r < 0) return -1;
        w->ndeck0 = w->ndeck;
        w->deck_full = 0;
    }
    if (w->d_maze && put_maze(w) < 0) return -1;
    PyObject *pawn = get_attr(st, "pawn"), *seg = pawn ? get_attr(st, "pawn_seg") : NULL;
    if (seg == NULL) { Py_XDECREF(pawn); return -1; }
    for (int s = 0; s < w->n; s++) {
        if (PyList_SetItem(pawn, s, cell_obj(w->pawn[s])) < 0
            || PyList_SetItem(seg, s, PyLong_FromLong(w->pseg[s])) < 0) {
            Py_DECREF(pawn); Py_DECREF(seg); return -1;
        }
    }
    Py_DECREF(pawn); Py_DECREF(seg);
    if (w->d_front && put_fronts(w) < 0) return -1;
    if (w->d_traps) {
        if (set_new(st, "traps", cell_set(w->trb, 1)) < 0) return -1;
        w->d_traps = 0;
    }
    if (w->d_over) {
        if (set_new(st, "overcome", cell_set(w->ovb, 0)) < 0) return -1;
        w->d_over = 0;
    }
    if (w->d_owner) {
        PyObject *col = PyList_New(w->n);
        for (int s = 0; col != NULL && s < w->n; s++) {
            PyObject *l = int_list(w->col[s], w->ncol[s]);
            if (l == NULL) { Py_CLEAR(col); break; }
            PyList_SET_ITEM(col, s, l);
        }
        if (set_new(st, "owner", int_list(w->owner, w->nslot)) < 0
            || set_new(st, "collected", col) < 0)
            return -1;
        w->d_owner = 0;
    }
    if (w->dragon < 0) { if (set_attr(st, "dragon", Py_None) < 0) return -1; }
    else if (set_new(st, "dragon", PyLong_FromLong(w->dragon)) < 0) return -1;
    if (set_new(st, "phase", PyLong_FromLong(w->phase)) < 0
        || set_new(st, "current", PyLong_FromLong(w->current)) < 0
        || set_new(st, "turn", PyLong_FromLong(w->turn)) < 0
        || set_new(st, "pending_draw", PyLong_FromLong(w->pending_draw)) < 0
        || set_attr(st, "proposed", w->proposed ? Py_True : Py_False) < 0
        || set_new(st, "voters", int_list(w->voters, w->nvoters)) < 0)
        return -1;
    if (w->pend_kind == 1) {
        PyObject *ways = PyTuple_New(w->pend_nways);
        for (int i = 0; ways != NULL && i < w->pend_nways; i++) {
            PyObject *b = w->pend_ways[i] ? Py_True : Py_False;
            Py_INCREF(b);
            PyTuple_SET_ITEM(ways, i, b);
        }
        if (ways == NULL || set_new(st, "pending", Py_BuildValue("(liN)", py_cell(w->pend_g),
                                                                 w->pend_entry, ways)) < 0)
            return -1;
    } else if (w->pend_kind == 2) {
        if (set_new(st, "pending", int_list(w->pend_slots, w->pend_nslots)) < 0) return -1;
    } else if (set_attr(st, "pending", Py_None) < 0) {
        return -1;
    }
    if (!shared) {
        PyObject *r = get_attr(st, "rng");
        if (r == NULL) return -1;
        int bad = put_rng(r, w->own_rng);
        Py_DECREF(r);
        if (bad) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ changes */
static int hand_remove(W *w, int seat, int card) {  /* list.remove: the first copy */
    int *h = w->hand[seat], n = w->hn[seat];
    for (int i = 0; i < n; i++)
        if (h[i] == card) {
            memmove(h + i, h + i + 1, (size_t)(n - i - 1) * sizeof(int));
            w->hn[seat]--;
            w->hdirty |= 1u << seat;
            return 0;
        }
    PyErr_SetString(PyExc_AssertionError, "lost mines core: card not in hand");
    return -1;
}

static inline int discard(W *w, int card) {
    return PyList_Append(w->discards, w->t->codes[card]);
}

static void place(W *w, int c, int otile) {  /* Maze.place (no reach contexts) */
    w->version++;
    if (w->hid[c] >= 0) {
        w->hid[c] = -1;
        int k = 0;
        for (int i = 0; i < w->nh; i++) if (w->hcell[i] != c) w->hcell[k++] = w->hcell[i];
        w->nh = k;
    }
    w->tile[c] = (int16_t)otile;
    w->order[w->norder++] = c;
    refresh_cons(w, c);
    card_bits(w, c, -1);
    joint_bits(w, c);
    w->d_maze = 1;
}

static int remove_tile(W *w, int c) {  /* Maze.remove */
    w->version++;
    int otile = w->tile[c], k = 0;
    for (int i = 0; i < w->norder; i++) if (w->order[i] != c) w->order[k++] = w->order[i];
    w->norder = k;
    w->tile[c] = -1;
    refresh_cons(w, c);
    card_bits(w, c, otile);
    all_joint_bits(w);
    w->d_maze = 1;
    return otile;
}

static void draw(W *w, int seat, int k) {
    if (k > 0 && w->ndeck > 0) w->hdirty |= 1u << seat;
    while (k-- > 0 && w->ndeck > 0) w->hand[seat][w->hn[seat]++] = w->deck[--w->ndeck];
}

static inline int others_on(W *w, int seat, int c) {  /* another pawn stands on c */
    return w->pawns[c] > (w->pawn[seat] == c);
}

static inline void set_pawn(W *w, int seat, int c, int s) {
    w->pawns[w->pawn[seat]]--;
    w->pawns[c]++;
    w->pawn[seat] = c;
    w->pseg[seat] = s;
    w->d_pawn = 1;
}

/* a storm on c (LostMinesState._storm): the card goes, its forest tile too; tokens at the
   edges that now face two empty spaces go, a troll with its card */
static int storm(W *w, int c) {
    Tables *t = w->t;
    int otile = remove_tile(w, c);
    if (discard(w, t->otile_card[otile]) < 0) return -1;
    if (w->over[c]) { set_over(w, c, 0); w->d_over = 1; }
    for (int e = 0; e < 4; e++) {
        int n = c + LDELTA[e];
        if (w->tile[n] >= 0 || w->hid[n] >= 0) continue;
        int j = jt(c, e);
        if (w->trap[j]) { set_trap(w, j, 0); w->d_traps = 1; }
        if (w->troll[j] >= 0) {
            int owner = w->troll[j], k = 0;
            w->troll[j] = -1;
            for (int i = 0; i < w->ntj; i++) if (w->tj[i] != j) w->tj[k++] = w->tj[i];
            w->ntj = k;
            int *f = w->front[owner], nf = w->nfront[owner];
            for (int i = 0; i < nf; i++)
                if (f[i] == t->troll_card) {
                    memmove(f + i, f + i + 1, (size_t)(nf - i - 1) * sizeof(int));
                    w->nfront[owner]--;
                    break;
                }
            if (discard(w, t->troll_card) < 0) return -1;
            w->d_front = 1;
        }
    }
    return 0;
}

static int expire_trolls(W *w, int seat) {  /* at the start of its owner's turn */
    if (!w->nfront[seat]) return 0;
    int k = 0;
    for (int i = 0; i < w->ntj; i++) {
        int j = w->tj[i];
        if (w->troll[j] == seat) w->troll[j] = -1;
        else w->tj[k++] = j;
    }
    w->ntj = k;
    for (int i = 0; i < w->nfront[seat]; i++)
        if (discard(w, w->front[seat][i]) < 0) return -1;
    w->nfront[seat] = 0;
    w->d_front = 1;
    return 0;
}

static int next_turn(W *w) {  /* GO_ON, ROUND_END (nobody holds a card), -1 */
    int seat = w->turn;
    for (int k = 0; k < w->n; k++) {
        seat = (seat + 1) % w->n;
        if (expire_trolls(w, seat) < 0) return -1;
        if (w->hn[seat]) {
            w->turn = w->current = seat;
            w->phase = CARD;
            w->proposed = 0;
            return GO_ON;
        }
    }
    return ROUND_END;
}

static inline int hands_empty(W *w) {
    for (int s = 0; s < w->n; s++) if (w->hn[s]) return 0;
    return 1;
}

static int after_move(W *w) {
    int all = 1;
    for (int i = 0; i < w->nslot; i++) if (w->owner[i] < 0) { all = 0; break; }
    if (all || (w->ndeck == 0 && hands_empty(w))) return ROUND_END;
    draw(w, w->turn, w->pending_draw);
    w->pending_draw = 0;
    return next_turn(w);
}

static void take(W *w, int seat, int slot) {
    w->owner[slot] = seat;
    w->col[seat][w->ncol[seat]++] = slot;
    w->d_owner = 1;
}

static int collect(W *w, int seat) {  /* a pawn ending its move on a revealed treasure mine */
    Tables *t = w->t;
    int type = t->mtype[t->otile_card[w->tile[w->pawn[seat]]]];
    if (type >= 0) {
        int slots[LSLOTS], k = 0;
        for (int i = 0; i < w->nslot; i++)
            if (w->owner[i] < 0 && w->stype[i] == type) slots[k++] = i;
        if (k > 1) {
            w->phase = TAKE;
            w->pend_kind = 2;
            w->pend_nslots = k;
            memcpy(w->pend_slots, slots, (size_t)k * sizeof(int));
            return GO_ON;
        }
        if (k) take(w, seat, slots[0]);
    }
    return after_move(w);
}

static void reveal(W *w, int seat, int g, int rotated, int entry) {
    Tables *t = w->t;
    int code = w->hid[g], otile = t->ootile[code][0];
    for (int k = 0; k < t->norient[code]; k++) if (t->orot[code][k] == rotated) otile = t->ootile[code][k];
    place(w, g, otile);
    set_pawn(w, seat, g, t->seg_of_edge[otile][entry]);
    if (t->mtype[code] == -2) w->dragon = seat;
}

/* ------------------------------------------------------------------ the pawns' routes */
static int rcell[LROUTES][LSTEPS], rlen[LROUTES], nroutes;
static int trail[LSTEPS], ntrail, limit_, mover;
static uint8_t onpath[LNC];

/* may a pawn on segment s of c step across edge index e (onto a face-down card too)?
   LostMinesState._steps; the neighbour's segment in *s2 (-1: face down) */
static inline int step_ok(W *w, int c, int e, int *s2) {
    Tables *t = w->t;
    int n = c + LDELTA[e];
    if (w->ntj && w->troll[jt(c, e)] >= 0) return 0;
    int tn = w->tile[n];
    if (tn < 0) { *s2 = -1; return w->hid[n] >= 0; }
    int s = t->seg_of_edge[tn][OPP[e]];
    if (s < 0 || (t->obst[tn] >= 0 && !w->over[n])
        || ((t->rock[tn] || w->over[n]) && others_on(w, mover, n)))
        return 0;
    *s2 = s;
    return 1;
}

static void add_route(void) {
    if (nroutes < LROUTES) {
        memcpy(rcell[nroutes], trail, (size_t)ntrail * sizeof(int));
        rlen[nroutes] = ntrail;
    }
    nroutes++;
}

static void walk(W *w, int c, int s) {  /* LostMinesState._route_list: depth first, N E S W */
    int seg = w->t->segs[w->tile[c]][s];
    for (int e = 0; e < 4; e++) {
        if (!(seg & EDGES[e])) continue;
        int n = c + LDELTA[e], s2;
        if (onpath[n] || !step_ok(w, c, e, &s2)) continue;
        trail[ntrail++] = n;
        add_route();
        if (s2 >= 0 && ntrail < limit_) {
            onpath[n] = 1;
            walk(w, n, s2);
            onpath[n] = 0;
        }
        ntrail--;
    }
}

static int routes(W *w, int seat) {  /* how many; -1: more than the core keeps (an error) */
    int c = w->pawn[seat];
    mover = seat;
    limit_ = w->t->campfire[w->tile[c]] ? w->t->campfire_steps : w->t->steps;
    nroutes = 0; ntrail = 0;
    onpath[c] = 1;
    walk(w, c, w->pseg[seat]);
    onpath[c] = 0;
    if (nroutes > LROUTES) {
        PyErr_SetString(PyExc_OverflowError, "lost mines core: routes");
        return -1;
    }
    return nroutes;
}

static int can_move(W *w, int seat) {
    int c = w->pawn[seat], seg = w->t->segs[w->tile[c]][w->pseg[seat]], s2;
    mover = seat;
    for (int e = 0; e < 4; e++)
        if ((seg & EDGES[e]) && step_ok(w, c, e, &s2)) return 1;
    return 0;
}

/* LostMinesState._move along route r */
static int move(W *w, int seat, int r) {
    Tables *t = w->t;
    int c = w->pawn[seat], s = w->pseg[seat];
    for (int k = 0; k < rlen[r]; k++) {
        int n = rcell[r][k], seg = t->segs[w->tile[c]][s], e = 0;
        while (e < 4 && !((seg & EDGES[e]) && c + LDELTA[e] == n)) e++;
        if (e == 4) { PyErr_SetString(PyExc_AssertionError, "lost mines core: route"); return -1; }
        if (w->trap[jt(c, e)] && w->hn[seat]) {  /* the left neighbour discards one, unseen */
            int *h = w->hand[seat], i = (int)below(w->srng, (uint64_t)w->hn[seat]);
            int card = h[i];
            memmove(h + i, h + i + 1, (size_t)(w->hn[seat] - i - 1) * sizeof(int));
            w->hn[seat]--;
            w->hdirty |= 1u << seat;
            if (discard(w, card) < 0) return -1;
        }
        if (w->tile[n] < 0) {  /* a face-down mine: turned over, the move ends there */
            int code = w->hid[n], entry = OPP[e], ways[2], nw = 0;
            for (int i = 0; i < t->norient[code]; i++)
                if (t->open_mask[t->ootile[code][i]] & entry) ways[nw++] = t->orot[code][i];
            if (nw == 0) { PyErr_SetString(PyExc_AssertionError, "lost mines core: mine"); return -1; }
            if (nw > 1) {
                w->phase = ORIENT;
                w->pend_kind = 1;
                w->pend_g = n; w->pend_entry = entry; w->pend_nways = nw;
                w->pend_ways[0] = ways[0]; w->pend_ways[1] = ways[1];
                return GO_ON;
            }
            reveal(w, seat, n, ways[0], entry);
            break;
        }
        c = n;
        s = t->seg_of_edge[w->tile[n]][OPP[e]];
        set_pawn(w, seat, c, s);
    }
    return collect(w, seat);
}

static PyObject *new_move(W *w, int r);
/* the Move of route r: made as the state's _decode makes it, kept by route (direct-mapped,
   the last one of its slot: actions are values, and a round walks the same short routes
   again and again) */
static PyObject *route_action(W *w, int r) {
    static uint64_t keys[4096];
    static PyObject *moves[4096];
    static Tables *made_for;
    uint64_t key = (uint64_t)rlen[r];
    for (int k = 0; k < rlen[r]; k++) key = key << 8 | (uint64_t)rcell[r][k];
    size_t slot = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 52);
    if (made_for == w->t && moves[slot] != NULL && keys[slot] == key) {
        Py_INCREF(moves[slot]);
        return moves[slot];
    }
    PyObject *m = new_move(w, r);
    if (m == NULL) return NULL;
    if (made_for != w->t) {
        for (int i = 0; i < 4096; i++) Py_CLEAR(moves[i]);
        made_for = w->t;
    }
    Py_XDECREF(moves[slot]);
    moves[slot] = m; Py_INCREF(m);
    keys[slot] = key;
    return m;
}

static PyObject *new_move(W *w, int r) {
    PyObject *route = PyTuple_New(rlen[r]);
    if (route == NULL) return NULL;
    for (int k = 0; k < rlen[r]; k++) {
        PyObject *p = w->t->xy[rcell[r][k]];
        Py_INCREF(p);
        PyTuple_SET_ITEM(route, k, p);
    }
    /* tuple.__new__(Move, (route,)), as the state's _decode makes it */
    PyTypeObject *type = (PyTypeObject *)w->t->move_type;
    PyObject *m = type->tp_alloc(type, 1);
    if (m == NULL) { Py_DECREF(route); return NULL; }
    PyTuple_SET_ITEM(m, 0, route);
    return m;
}

/* ------------------------------------------------------------------ the menu */
typedef struct { int count, tag, card, aux; } Entry;

/* what the menu of one decision finds, made once per decision and only when asked */
typedef struct {
    int storm_made;                      /* the cards a storm may take: stb less the pawns' */
    uint64_t storm[LNC / 64];
    int joints_made, joints[2 * LNC], njoints;
    int slots[LSLOTS], nslots;
} Found;

/* the face-up cards a storm may take: path cards without a pawn */
static const uint64_t *stormable(W *w, Found *f) {
    if (!f->storm_made) {
        f->storm_made = 1;
        memcpy(f->storm, w->stb, sizeof f->storm);
        for (int s = 0; s < w->n; s++) bit_put(f->storm, w->pawn[s], 0);
    }
    return f->storm;
}

/* free joints (LostMinesState._joints): next to an open edge of a face-up card, both cells
   on the board, neither trap nor troll on it; by cell, E before S (the bitmap's order) */
static void free_joints(W *w, Found *f) {
    if (f->joints_made) return;
    f->joints_made = 1;
    f->njoints = 0;
    for (int k = 0; k < 2 * LNC / 64; k++)
        for (uint64_t b = w->jmb[k]; b; b &= b - 1) {
            int j = k * 64 + __builtin_ctzll(b);
            if (!w->trap[j] && w->troll[j] < 0) f->joints[f->njoints++] = j;
        }
}

/* the i-th cell of the list a T_CELL entry's aux names: obstacles of a kind not overcome,
   the cards a storm may take, the face-down mines (the core keeps them) */
static inline int cell_at(W *w, Found *f, int aux, int i) {
    if (aux == L_MINES) return w->hcell[i];
    return nth_bit(aux == L_STORM ? f->storm : w->obb[aux], LNC / 64, i);
}

static int put_maze(W *w);
/* an information card's look, as the state's own _look: the seat sees the face-down mine
   on cell g (T_CELL), the treasure of a slot (T_TREASURE) or another seat's dwarf card
   (T_PLAYER).  The looks are replaced, never changed in place (clones share them): the list
   copied, the seat's dict copied with the cell added ({**d, c: code}), the seat's set
   replaced by set | {target} (set_or itself, so that a set's table is Python's) */
static int look(W *w, int seat, int tag, int target) {
    const char *name = tag == T_CELL ? "seen_mines" : tag == T_TREASURE ? "seen_treasures"
                                                                        : "seen_dwarves";
    PyObject *old = get_attr(w->state, name), *looks = NULL, *item = NULL, *key = NULL,
             *one = NULL;
    int rc = -1;
    if (old == NULL) return -1;
    if (!PyList_Check(old) || seat >= PyList_GET_SIZE(old)) {
        PyErr_SetString(PyExc_TypeError, "lost mines core: the looks");
        goto out;
    }
    if (!(looks = PyList_GetSlice(old, 0, PY_SSIZE_T_MAX))) goto out;
    if (tag == T_CELL) {
        if (w->hid[target] < 0) {
            PyErr_SetString(PyExc_KeyError, "lost mines core: no face-down mine there");
            goto out;
        }
        if (!(key = cell_obj(target)) || !(item = PyDict_Copy(PyList_GET_ITEM(looks, seat)))
            || PyDict_SetItem(item, key, w->t->codes[w->hid[target]]) < 0)
            goto out;
    } else {
        if (!(key = PyLong_FromLong(target)) || !(one = PySet_New(NULL)) || PySet_Add(one, key) < 0
            || !(item = PyNumber_Or(PyList_GET_ITEM(looks, seat), one)))
            goto out;
    }
    PyList_SetItem(looks, seat, item);  /* steals item */
    item = NULL;
    rc = set_attr(w->state, name, looks);
out:
    Py_DECREF(old); Py_XDECREF(looks); Py_XDECREF(item); Py_XDECREF(key); Py_XDECREF(one);
    return rc;
}

/* after a card played or passed (LostMinesState._apply) */
static int after_card(W *w, int seat) {
    if (w->ndeck == 0 && hands_empty(w)) return ROUND_END;
    if (can_move(w, seat)) { w->phase = MOVE; return GO_ON; }
    return collect(w, seat);  /* no step is possible: the pawn stays */
}

/* the menu of the current decision (LostMinesState._menu's entries, in its order) and what
   decoding its entries needs: the hand's distinct cards and their counts, what the menu
   found (routes: the static rcell, made by routes()) */
typedef struct {
    Entry e[LCARDS * 4 + 8];
    int n, seat, nk, hd[LHAND], mult[LHAND];
    Found f;
} Menu;

static int menu_of(W *w, Menu *m) {
    Tables *t = w->t;
    Found *f = &m->f;
    Entry *menu = m->e;
    int nm = 0, *hd = m->hd, *mult = m->mult, nk = 0, seat = w->current;
    f->storm_made = f->joints_made = 0;
    f->nslots = -1;
    m->seat = seat;
    switch (w->phase) {
    case MOVE: {
        int k = routes(w, seat);
        if (k < 0) return -1;
        menu[nm++] = (Entry){k, T_ROUTE, -1, 0};
        menu[nm++] = (Entry){1, T_STAY, -1, 0};
        break;
    }
    case ORIENT:
        menu[nm++] = (Entry){w->pend_nways, T_ORIENT, -1, 0};
        break;
    case TAKE:
        menu[nm++] = (Entry){w->pend_nslots, T_TAKE, -1, 0};
        break;
    case VOTE:
        menu[nm++] = (Entry){2, T_VOTE, -1, 0};
        break;
    default: {
        /* the hand's distinct cards, sorted (ids are in code order) */
        int h[LHAND], n = w->hn[seat];
        memcpy(h, w->hand[seat], (size_t)n * sizeof(int));
        for (int i = 1; i < n; i++) {
            int v = h[i], j = i - 1;
            while (j >= 0 && h[j] > v) { h[j + 1] = h[j]; j--; }
            h[j + 1] = v;
        }
        for (int i = 0; i < n; i++) {
            if (nk && hd[nk - 1] == h[i]) { mult[nk - 1]++; continue; }
            hd[nk] = h[i]; mult[nk] = 1; nk++;
        }
        for (int i = 0; i < nk; i++) {  /* path cards first: by code, then orientation */
            int c = hd[i];
            if (t->kind[c] != K_PATH) continue;
            for (int k = 0; k < t->norient[c]; k++) {
                int cnt = w->fitn.n[t->open_mask[t->ootile[c][k]]];
                if (cnt) menu[nm++] = (Entry){cnt, T_PLACE, c, k};
            }
        }
        for (int i = 0; i < nk; i++) {  /* then action cards, by code */
            int c = hd[i], cnt;
            if (t->kind[c] != K_ACTION) continue;
            switch (t->effect[c]) {
            case E_TOOL:
                if ((cnt = bit_count(w->obb[t->obstacle[c]], LNC / 64)))
                    menu[nm++] = (Entry){cnt, T_CELL, c, t->obstacle[c]};
                break;
            case E_STORM:
                if ((cnt = bit_count(stormable(w, f), LNC / 64)))
                    menu[nm++] = (Entry){cnt, T_CELL, c, L_STORM};
                break;
            case E_TRAP: case E_TROLL:
                free_joints(w, f);
                if (f->njoints) menu[nm++] = (Entry){f->njoints, T_JOINT, c, 0};
                break;
            case E_INFO:
                for (int k = 0; k < t->nlook[c]; k++) {
                    if (t->look[c][k] == O_MINE) {
                        if (w->nh) menu[nm++] = (Entry){w->nh, T_CELL, c, L_MINES};
                    } else if (t->look[c][k] == O_TREASURE) {
                        if (f->nslots < 0) {
                            f->nslots = 0;
                            for (int s = 0; s < w->nslot; s++) if (w->owner[s] < 0) f->slots[f->nslots++] = s;
                        }
                        if (f->nslots) menu[nm++] = (Entry){f->nslots, T_TREASURE, c, 0};
                    } else {
                        menu[nm++] = (Entry){w->n - 1, T_PLAYER, c, 0};
                    }
                }
                break;
            default:
                PyErr_SetString(PyExc_AssertionError, "lost mines core: effect");
                return -1;
            }
        }
        if (n) {
            int pairs = 0;
            if (t->pass_max >= 2) {
                pairs = nk * (nk - 1) / 2;
                for (int i = 0; i < nk; i++) pairs += mult[i] > 1;
            }
            menu[nm++] = (Entry){nk + pairs, T_PASS, -1, 0};
        }
        if (!w->proposed) menu[nm++] = (Entry){1, T_PROPOSE, -1, 0};
    }
    }
    if (nm == 0) { PyErr_SetString(PyExc_AssertionError, "lost mines core: no legal action"); return -1; }
    m->n = nm; m->nk = nk;
    return 0;
}

/* what tells the i-th action of the menu's entry e apart: a cell, a joint, a slot, a seat,
   a route, an orientation, a vote (0: none); a pass's cards in cs (k of them); -1: error */
static int target_of(W *w, Menu *m, Entry *e, int i, int *cs, int *k) {
    Tables *t = w->t;
    Found *f = &m->f;
    switch (e->tag) {
    case T_PLACE: {
        int om = t->open_mask[t->ootile[e->card][e->aux]];
        for (int k = 0; k < LNC / 64; k++)
            for (uint64_t b = w->pcb[k]; b; b &= b - 1) {
                int g = k * 64 + __builtin_ctzll(b);
                if (t->fits[w->cons[g]][om] && i-- == 0) return g;
            }
        PyErr_SetString(PyExc_AssertionError, "lost mines core: placement");
        return -1;
    }
    case T_CELL: {
        int g = cell_at(w, f, e->aux, i);
        if (g < 0) PyErr_SetString(PyExc_AssertionError, "lost mines core: cell list");
        return g;
    }
    case T_JOINT: return f->joints[i];
    case T_TREASURE: return f->slots[i];
    case T_PLAYER: return i < m->seat ? i : i + 1;
    case T_PASS: {  /* by template: single cards, then pairs (a doubled card first) */
        const int *hd = m->hd, *mult = m->mult;
        int nk = m->nk;
        *k = 0;
        if (i < nk) { cs[0] = hd[i]; *k = 1; return 0; }
        i -= nk;
        for (int a = 0; a < nk; a++) {
            int block = (mult[a] > 1) + nk - a - 1;
            if (i >= block) { i -= block; continue; }
            cs[0] = hd[a];
            if (mult[a] > 1) cs[1] = i == 0 ? hd[a] : hd[a + i];
            else cs[1] = hd[a + 1 + i];
            *k = 2;
            return 0;
        }
        PyErr_SetString(PyExc_AssertionError, "lost mines core: pass");
        return -1;
    }
    case T_VOTE: case T_ROUTE: return i;
    case T_ORIENT: return w->pend_ways[i];
    case T_TAKE: return w->pend_slots[i];
    case T_PROPOSE: case T_STAY: return 0;
    default:
        PyErr_SetString(PyExc_AssertionError, "lost mines core: menu tag");
        return -1;
    }
}

/* the action of entry e with that target (a new reference) */
static PyObject *action_of(W *w, Entry *e, int target, const int *cs, int k) {
    Tables *t = w->t;
    PyObject *a;
    switch (e->tag) {
    case T_PLACE: a = PyTuple_GET_ITEM(t->place_act[e->card][e->aux], target); break;
    case T_CELL: a = PyTuple_GET_ITEM(t->cell_act[e->card], target); break;
    case T_JOINT: a = PyTuple_GET_ITEM(t->joint_act[e->card], target); break;
    case T_TREASURE: a = PyTuple_GET_ITEM(t->treasure_act[e->card], target); break;
    case T_PLAYER: a = PyTuple_GET_ITEM(t->player_act[e->card], target); break;
    case T_PASS: a = k == 1 ? t->pass1[cs[0]] : PyTuple_GET_ITEM(t->pass2[cs[0]], cs[1]); break;
    case T_PROPOSE: a = t->propose; break;
    case T_VOTE: a = PyTuple_GET_ITEM(t->votes, target); break;
    case T_ROUTE: return route_action(w, target);
    case T_STAY: a = t->stay; break;
    case T_ORIENT: a = t->orient_obj[target]; break;
    case T_TAKE: a = PyTuple_GET_ITEM(t->take, target); break;
    default:
        PyErr_SetString(PyExc_AssertionError, "lost mines core: menu tag");
        return NULL;
    }
    Py_INCREF(a);
    return a;
}

/* the i-th action of the menu's entry e (a new reference), nothing changed */
static PyObject *action_at(W *w, Menu *m, Entry *e, int i) {
    int cs[2], k = 0, target = target_of(w, m, e, i, cs, &k);
    return target < 0 ? NULL : action_of(w, e, target, cs, k);
}

/* the i-th action of the menu's entry e applied for the seat deciding, and logged (the
   actor; the caller appends the action to the history); GO_ON, ROUND_END or VOTED_END
   (-1: error) */
static int act(W *w, Menu *m, Entry *e, int i, PyObject **action_out) {
    Tables *t = w->t;
    int seat = m->seat, cs[2], k = 0, card = e->card, res = -1;
    if (i < 0 || i >= e->count || e->count <= 0) {
        PyErr_SetString(PyExc_AssertionError, "lost mines core: an empty menu entry");
        return -1;
    }
    int target = target_of(w, m, e, i, cs, &k);
    if (target < 0) return -1;
    /* the actor is logged first (LostMinesState._apply) */
    PyObject *actor = PyLong_FromLong(seat);
    if (actor == NULL || PyList_Append(w->actors, actor) < 0) { Py_XDECREF(actor); return -1; }
    Py_DECREF(actor);
    PyObject *action = action_of(w, e, target, cs, k);
    if (action == NULL) return -1;
    switch (e->tag) {
    case T_PLACE:
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0) goto fail;
        place(w, target, t->ootile[card][e->aux]);
        res = after_card(w, seat);
        break;
    case T_CELL:
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || discard(w, card) < 0) goto fail;
        if (t->effect[card] == E_TOOL) { set_over(w, target, 1); w->d_over = 1; }
        else if (t->effect[card] == E_STORM) { if (storm(w, target) < 0) goto fail; }
        else if (look(w, seat, T_CELL, target) < 0) goto fail;
        res = after_card(w, seat);
        break;
    case T_JOINT:
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0) goto fail;
        if (t->effect[card] == E_TROLL) {
            if (w->ntj >= LTROLLS || w->nfront[seat] >= LFRONT) {
                PyErr_SetString(PyExc_OverflowError, "lost mines core: trolls");
                goto fail;
            }
            w->troll[target] = (int8_t)seat;
            w->tj[w->ntj++] = target;
            w->front[seat][w->nfront[seat]++] = card;
            w->d_front = 1;
        } else {
            if (discard(w, card) < 0) goto fail;
            set_trap(w, target, 1);
            w->d_traps = 1;
        }
        res = after_card(w, seat);
        break;
    case T_TREASURE: case T_PLAYER:
        w->pending_draw = 1;
        if (hand_remove(w, seat, card) < 0 || discard(w, card) < 0
            || look(w, seat, e->tag, target) < 0)
            goto fail;
        res = after_card(w, seat);
        break;
    case T_PASS:
        for (int j = 0; j < k; j++)
            if (hand_remove(w, seat, cs[j]) < 0 || discard(w, cs[j]) < 0) goto fail;
        w->pending_draw = k;
        res = after_card(w, seat);
        break;
    case T_PROPOSE:
        w->proposed = 1;
        w->nvoters = w->n - 1;
        for (int j = 1; j < w->n; j++) w->voters[j - 1] = (seat + j) % w->n;
        w->phase = VOTE;
        w->current = w->voters[0];
        res = GO_ON;
        break;
    case T_VOTE:
        res = GO_ON;
        if (target == 1) {  /* declined */
            w->nvoters = 0;
            w->phase = CARD;
            w->current = w->turn;
        } else {
            memmove(w->voters, w->voters + 1, (size_t)(w->nvoters - 1) * sizeof(int));
            if (--w->nvoters) w->current = w->voters[0];
            else res = VOTED_END;
        }
        break;
    case T_ROUTE:
        res = move(w, seat, target);
        break;
    case T_STAY:
        res = collect(w, seat);
        break;
    case T_ORIENT:
        w->pend_kind = 0;
        reveal(w, seat, w->pend_g, target, w->pend_entry);
        res = collect(w, seat);
        break;
    case T_TAKE:
        w->pend_kind = 0;
        take(w, seat, target);
        res = after_move(w);
        break;
    default:
        PyErr_SetString(PyExc_AssertionError, "lost mines core: menu tag");
        goto fail;
    }
    if (res < 0) goto fail;
    *action_out = action;
    return res;
fail:
    Py_DECREF(action);
    return -1;
}

/* one decision: picks, applies and logs its seat and action; GO_ON, ROUND_END or
   VOTED_END (-1: error) */
static int decide(W *w, int even, PyObject **action_out) {
    static Menu m;
    if (menu_of(w, &m) < 0) return -1;
    int i;
    Entry *e = &m.e[core_pick(&w->rng, m.e, sizeof(Entry), m.n, even, &i)];
    return act(w, &m, e, i, action_out);
}

/* ------------------------------------------------------------------ a round's set-up */
/* what LostMinesState._setup_round reads of the game, for a match without a fixed deal
   (core/lost_mines.py _setup_of, one per player count): parsed once per such tuple */
typedef struct {
    PyObject *src, *removed;
    int nstarts, start_g[4], start_ot[4], nmines, mine_g[LHID], mine_id[LHID], ntreasures,
        treasure[LDECK], ndwarves, dwarf[LDECK], dwarf_start[LCARDS], ndeck, deck[LDECK],
        aside, hand;
} Setup;
static Setup su;

static int ids_of(PyObject *seq, int *out, int *n, int most) {
    Py_ssize_t k = PyTuple_GET_SIZE(seq);
    if (k > most) { PyErr_SetString(PyExc_ValueError, "lost mines core: set-up"); return -1; }
    for (Py_ssize_t i = 0; i < k; i++) out[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
    *n = (int)k;
    return PyErr_Occurred() ? -1 : 0;
}

/* (start cells, start tiles, mine cells, mines, treasures, dwarf cards, each dwarf card's
   start cell by card, dwarf cards removed, pile, cards set aside, hand size) */
static int load_setup(PyObject *o) {
    int k;
    if (su.src == o) return 0;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 11) {
        PyErr_SetString(PyExc_ValueError, "lost mines core: set-up");
        return -1;
    }
    if (ids_of(PyTuple_GET_ITEM(o, 0), su.start_g, &su.nstarts, 4)
        || ids_of(PyTuple_GET_ITEM(o, 1), su.start_ot, &k, 4)
        || ids_of(PyTuple_GET_ITEM(o, 2), su.mine_g, &su.nmines, LHID)
        || ids_of(PyTuple_GET_ITEM(o, 3), su.mine_id, &k, LHID)
        || ids_of(PyTuple_GET_ITEM(o, 4), su.treasure, &su.ntreasures, LDECK)
        || ids_of(PyTuple_GET_ITEM(o, 5), su.dwarf, &su.ndwarves, LDECK)
        || ids_of(PyTuple_GET_ITEM(o, 6), su.dwarf_start, &k, LCARDS)
        || ids_of(PyTuple_GET_ITEM(o, 8), su.deck, &su.ndeck, LDECK))
        return -1;
    su.aside = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 9));
    su.hand = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, 10));
    Py_XDECREF(su.src);
    Py_XDECREF(su.removed);
    su.src = o; Py_INCREF(o);
    su.removed = PyTuple_GET_ITEM(o, 7); Py_INCREF(su.removed);
    return 0;
}

/* a new list of n new empty containers made by ``make`` (list, dict or set) */
static PyObject *empties(int n, PyObject *(*make)(PyObject *), PyObject *arg) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *e = make(arg);
        if (e == NULL) { Py_CLEAR(l); break; }
        PyList_SET_ITEM(l, i, e);
    }
    return l;
}
static PyObject *new_list(PyObject *arg) { (void)arg; return PyList_New(0); }
static PyObject *new_dict(PyObject *arg) { (void)arg; return PyDict_New(); }

/* LostMinesState._setup_round for a match without a fixed deal: the same numbers drawn from
   ``rs`` (the state's generator), the same cards; the fields only a new round changes are
   written at once, the rest (hands, pile, maze, pawns, tokens) by the next sync_out */
static int setup_round(W *w, uint64_t *rs, int round_no, Py_ssize_t logged) {
    Tables *t = w->t;
    PyObject *st = w->state;
    int n = w->n, m[LHID], tr[LDECK], dw[LDECK], deck[LDECK], aside[LDECK], nd, nt;
    memset(w->tile, 0xff, sizeof w->tile);
    memset(w->hid, 0xff, sizeof w->hid);
    memset(w->cons, 0, sizeof w->cons);
    memset(w->over, 0, sizeof w->over);
    memset(w->trap, 0, sizeof w->trap);
    memset(w->ovb, 0, sizeof w->ovb);
    memset(w->trb, 0, sizeof w->trb);
    memset(w->troll, 0xff, sizeof w->troll);
    memset(w->pawns, 0, sizeof w->pawns);
    w->ntj = 0; w->norder = 0; w->nh = 0; w->version = 0;
    for (int i = 0; i < su.nstarts; i++) place(w, su.start_g[i], su.start_ot[i]);
    memcpy(m, su.mine_id, (size_t)su.nmines * sizeof(int));
    shuffle_ids(rs, m, su.nmines);
    for (int i = 0; i < su.nmines; i++) { w->version++; w->hid[su.mine_g[i]] = (int16_t)m[i]; }
    for (int g = 0; g < LNC; g++) if (w->hid[g] >= 0) w->hcell[w->nh++] = g;
    all_bits(w);
    nt = su.ntreasures;
    memcpy(tr, su.treasure, (size_t)nt * sizeof(int));
    shuffle_ids(rs, tr, nt);
    if (n > nt || n > LSLOTS) { PyErr_SetString(PyExc_ValueError, "lost mines core: treasures"); return -1; }
    w->nslot = n;
    for (int i = 0; i < n; i++) { w->stype[i] = t->ttype[tr[i]]; w->owner[i] = -1; w->ncol[i] = 0; }
    nd = su.ndwarves;
    memcpy(dw, su.dwarf, (size_t)nd * sizeof(int));
    shuffle_ids(rs, dw, nd);
    int dwarves[LSEATS];
    for (int s = 0; s < n; s++) {  /* popped from the end, seat 0 first */
        dwarves[s] = dw[nd - 1 - s];
        w->pawn[s] = su.dwarf_start[dwarves[s]];
        w->pseg[s] = 0;
        w->pawns[w->pawn[s]]++;
    }
    memcpy(deck, su.deck, (size_t)su.ndeck * sizeof(int));
    shuffle_ids(rs, deck, su.ndeck);
    int left = su.ndeck;
    for (int k = 0; k < su.aside; k++) aside[k] = deck[--left];
    for (int s = 0; s < n; s++) { w->hn[s] = 0; w->nfront[s] = 0; }
    int k = su.hand * n < left ? su.hand * n : left;  /* engine.game.deal_round */
    for (int i = 0; i < n; i++) {
        int seat = (w->turn + i) % n;
        for (int j = i; j < k; j += n) w->hand[seat][w->hn[seat]++] = deck[left - 1 - j];
    }
    left -= k;
    memcpy(w->deck, deck, (size_t)left * sizeof(int));
    w->ndeck = left;
    w->dragon = -1; w->phase = CARD; w->pend_kind = 0; w->pending_draw = 0; w->proposed = 0;
    w->nvoters = 0; w->current = w->turn;
    w->d_maze = w->d_owner = w->d_front = w->d_traps = w->d_over = w->deck_full = 1;
    w->hdirty = ~0u; w->d_pawn = 1;
    Py_XDECREF(w->discards);
    w->discards = PyList_New(0);
    if (w->discards == NULL) return -1;
    Py_INCREF(w->discards);
    if (set_new(st, "_round", PyLong_FromLong(round_no)) < 0
        || set_new(st, "round_start", PyLong_FromSsize_t(logged + (round_no > 1))) < 0
        || set_new(st, "layout", code_list(w, tr, n)) < 0
        || set_new(st, "treasures_out", code_list(w, tr + n, nt - n)) < 0
        || set_new(st, "dwarves", code_list(w, dwarves, n)) < 0
        || set_new(st, "dwarf_aside", code_list(w, dw, nd - n)) < 0
        || set_new(st, "dwarf_removed", PySequence_List(su.removed)) < 0
        || set_new(st, "aside", code_list(w, aside, su.aside)) < 0
        || set_new(st, "hands", empties(n, new_list, NULL)) < 0
        || set_new(st, "deck", PyList_New(0)) < 0
        || set_new(st, "pawn", int_list(w->pseg, n)) < 0  /* (zeros) filled by sync_out */
        || set_new(st, "pawn_seg", int_list(w->pseg, n)) < 0
        || set_new(st, "discards", w->discards) < 0
        || set_new(st, "seen_mines", empties(n, new_dict, NULL)) < 0
        || set_new(st, "seen_treasures", empties(n, PySet_New, NULL)) < 0
        || set_new(st, "seen_dwarves", empties(n, PySet_New, NULL)) < 0)
        return -1;
    return 0;
}

/* LostMinesState._end_round calls _setup_round where the next round begins; while the core
   calls it, an instance attribute answers that call (this marker), and the core sets the
   round up itself */
static int setup_called;
static PyObject *setup_marker(PyObject *self, PyObject *noargs) {
    (void)self; (void)noargs;
    setup_called = 1;
    Py_RETURN_NONE;
}
static PyMethodDef marker_def = {"_setup_round", setup_marker, METH_NOARGS, NULL};
static PyObject *marker;

/* ------------------------------------------------------------------ the play-out */

/* the state's own _end_round (``reason``: "vote", or NULL), where the core sets the rounds
   up (``setup`` not None) with the marker in place of its _setup_round; then the next round
   set up by the core (setup_called); the chooser ``rng`` read back in between (Python's
   set-up draws from it when it is the state's own) */
static int end_round(W *w, PyObject *setup, PyObject *reason, PyObject *rng) {
    int take = setup != Py_None;
    setup_called = 0;
    if (take && set_attr(w->state, "_setup_round", marker) < 0) return -1;
    PyObject *r = reason == NULL ? PyObject_CallMethod(w->state, "_end_round", NULL)
                                 : PyObject_CallMethod(w->state, "_end_round", "O", reason);
    if (take && del_attr(w->state, "_setup_round") < 0) { Py_XDECREF(r); return -1; }
    if (r == NULL) return -1;
    Py_DECREF(r);
    if (get_rng(rng, &w->rng) < 0) return -1;
    if (!setup_called) return 0;
    int round_no;
    if (load_setup(setup) < 0 || attr_int(w->state, "turn", &w->turn) < 0
        || attr_int(w->state, "_round", &round_no) < 0)
        return -1;
    return setup_round(w, w->srng, round_no + 1, PyList_GET_SIZE(w->history));
}

/* the card ids of the state's list ``name`` of codes (the dwarf cards, the treasures laid
   out), at most ``most`` */
static int ids_in(W *w, const char *name, int *out, int most) {
    PyObject *l = get_attr(w->state, name);
    if (l == NULL) return -1;
    int n, rc = load_cards(w, l, out, &n, most);
    Py_DECREF(l);
    if (rc > 0) PyErr_Format(PyExc_ValueError, "lost mines core: the state's %s", name);
    return rc ? -1 : 0;
}

/* round_points (games/lost_mines/state.py) on the core: selfish dwarves keep their own; each
   team shares its total, rounded down, the rest to its members with the single most valuable
   treasure, split evenly; the dragon costs its holder up to dragon_penalty */
static void round_points(W *w, const int *dwarves, const int *layout, long *points) {
    Tables *t = w->t;
    long value[LSEATS], best[LSEATS];
    int n = w->n;
    for (int s = 0; s < n; s++) {
        value[s] = best[s] = points[s] = 0;
        for (int k = 0; k < w->ncol[s]; k++) {
            long v = t->value[layout[w->col[s][k]]];
            value[s] += v;
            if (v > best[s]) best[s] = v;
        }
        if (t->team[dwarves[s]] < 0) points[s] = value[s];
    }
    for (int clan = 0; clan < t->nclans; clan++) {
        long total = 0, top = -1;
        int members = 0, tied = 0;
        for (int s = 0; s < n; s++)
            if (t->team[dwarves[s]] == clan) { members++; total += value[s]; if (best[s] > top) top = best[s]; }
        if (!members) continue;
        long share = total / members, rest = total % members;
        for (int s = 0; s < n; s++) if (t->team[dwarves[s]] == clan) points[s] += share;
        if (!rest) continue;
        for (int s = 0; s < n; s++) if (t->team[dwarves[s]] == clan && best[s] == top) tied++;
        for (int s = 0; s < n; s++)
            if (t->team[dwarves[s]] == clan && best[s] == top) points[s] += rest / tied;
    }
    if (w->dragon >= 0)
        points[w->dragon] -= points[w->dragon] < t->dragon_penalty ? points[w->dragon]
                                                                    : t->dragon_penalty;
}

static PyObject *long_list(const long *a, int n) {
    PyObject *l = PyList_New(n);
    for (int i = 0; l != NULL && i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (v == NULL) { Py_CLEAR(l); break; }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

/* the round's RoundResult (LostMinesState._end_round's, with its details in the same order)
   appended to the state's results, its totals added up */
static int record_round(W *w, int round_no, const int *dwarves, const long *points) {
    Tables *t = w->t;
    PyObject *st = w->state, *details = NULL, *o = NULL, *totals = NULL, *layout = NULL,
             *results = NULL, *rr = NULL;
    int n = w->n, ok = 0;
    long sum[LSEATS], top = points[0];
    if (!(totals = get_attr(st, "totals")) || !(layout = get_attr(st, "layout"))) goto out;
    for (int s = 0; s < n; s++) {
        sum[s] = PyLong_AsLong(PyList_GET_ITEM(totals, s)) + points[s];
        if (points[s] > top) top = points[s];
    }
    Py_CLEAR(totals);
    if (PyErr_Occurred() || !(details = PyDict_New())) goto out;
    if (!(o = get_attr(st, "dwarves"))) goto out;
    Py_SETREF(o, PySequence_List(o));
    if (o == NULL || PyDict_SetItem(details, name_of("dwarves"), o) < 0) goto out;
    Py_SETREF(o, PyList_New(n));
    for (int s = 0; o != NULL && s < n; s++) {
        PyObject *pile = PyList_New(w->ncol[s]);
        if (pile == NULL) { Py_CLEAR(o); break; }
        for (int k = 0; k < w->ncol[s]; k++) {
            PyObject *code = PyList_GET_ITEM(layout, w->col[s][k]);
            Py_INCREF(code);
            PyList_SET_ITEM(pile, k, code);
        }
        PyList_SET_ITEM(o, s, pile);
    }
    if (o == NULL || PyDict_SetItem(details, name_of("treasures"), o) < 0) goto out;
    Py_SETREF(o, w->dragon < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(w->dragon));
    if (o == NULL || PyDict_SetItem(details, name_of("dragon"), o) < 0) goto out;
    if (!(totals = long_list(sum, n)) || PyDict_SetItem(details, name_of("totals"), totals) < 0)
        goto out;
    Py_SETREF(o, PyList_New(n));
    for (int s = 0; o != NULL && s < n; s++) PyList_SET_ITEM(o, s, Py_NewRef(t->identity[dwarves[s]]));
    if (o == NULL || PyDict_SetItem(details, name_of("roles"), o) < 0) goto out;
    Py_SETREF(o, PyList_New(0));
    for (int s = 0; o != NULL && top > 0 && s < n; s++)
        if (points[s] == top) {
            PyObject *v = PyLong_FromLong(s);
            if (v == NULL || PyList_Append(o, v) < 0) Py_CLEAR(o);
            Py_XDECREF(v);
        }
    if (o == NULL || PyDict_SetItem(details, name_of("winners"), o) < 0) goto out;
    Py_SETREF(o, long_list(points, n));
    if (o == NULL) goto out;
    rr = new_round_result(t->round_result, round_no, o, details);
    if (rr == NULL || !(results = get_attr(st, "results"))) goto out;
    Py_SETREF(results, PySequence_List(results));
    if (results == NULL || PyList_Append(results, rr) < 0
        || set_attr(st, "totals", totals) < 0 || set_attr(st, "results", results) < 0)
        goto out;
    ok = 1;
out:
    Py_XDECREF(details); Py_XDECREF(o); Py_XDECREF(totals); Py_XDECREF(layout);
    Py_XDECREF(results); Py_XDECREF(rr);
    return ok ? 0 : -1;
}

/* last_round's holder of a round whose end is not written back: views.LaterRoundEnd, made
   as LaterRoundEnd.by makes one, of core/lost_mines.py's _unpacked_end and the round's
   number, reason and the core's position packed (int32s: the face-up cards as laid (how
   many, then grid cell and oriented tile each), the face-down cards by cell (how many,
   cell, card id), the pawns (how many seats, a cell per seat), the forest tiles and the traps (how many,
   then the cells, the joints, by grid), the trolls as laid (how many, joint and seat each),
   the cards in front (per seat: how many, card ids)), made into the state's own
   ended_round's holder and read only when the round's end is (most never are) */
static PyObject *ended_round(W *w, int round_no, PyObject *reason) {
    Tables *t = w->t;
    int32_t buf[1 + 2 * LNC + 1 + 2 * LHID + 1 + LSEATS + 1 + LNC + 1 + 2 * LNC + 1 + 2 * LTROLLS
                + LSEATS * (1 + LFRONT)];
    int k = 0, at;
    buf[k++] = w->norder;
    for (int i = 0; i < w->norder; i++) { buf[k++] = w->order[i]; buf[k++] = w->tile[w->order[i]]; }
    at = k++;
    buf[at] = 0;
    for (int g = LG; g < LNC - LG; g++)
        if (w->hid[g] >= 0) { buf[k++] = g; buf[k++] = w->hid[g]; buf[at]++; }
    buf[k++] = w->n;
    for (int s = 0; s < w->n; s++) buf[k++] = w->pawn[s];
    at = k++;
    buf[at] = 0;
    for (int q = 0; q < LNC / 64; q++)
        for (uint64_t b = w->ovb[q]; b; b &= b - 1) { buf[k++] = q * 64 + __builtin_ctzll(b); buf[at]++; }
    at = k++;
    buf[at] = 0;
    for (int q = 0; q < 2 * LNC / 64; q++)
        for (uint64_t b = w->trb[q]; b; b &= b - 1) { buf[k++] = q * 64 + __builtin_ctzll(b); buf[at]++; }
    buf[k++] = w->ntj;
    for (int i = 0; i < w->ntj; i++) { buf[k++] = w->tj[i]; buf[k++] = w->troll[w->tj[i]]; }
    for (int s = 0; s < w->n; s++) {
        buf[k++] = w->nfront[s];
        for (int i = 0; i < w->nfront[s]; i++) buf[k++] = w->front[s][i];
    }
    PyTypeObject *tp = (PyTypeObject *)t->later_type;
    PyObject *packed = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)k * (Py_ssize_t)sizeof(int32_t)),
             *args = packed == NULL ? NULL : Py_BuildValue("(iOO)", round_no, reason, packed),
             *r = args == NULL ? NULL : tp->tp_alloc(tp, 0);
    if (r != NULL && (PyObject_GenericSetAttr(r, name_of("make"), t->unpacked_end) < 0
                      || PyObject_GenericSetAttr(r, name_of("args"), args) < 0
                      || PyObject_GenericSetAttr(r, name_of("made"), Py_None) < 0))
        Py_CLEAR(r);
    Py_XDECREF(packed); Py_XDECREF(args);
    return r;
}

/* the match's rounds (its options' ``rounds``) */
static int match_rounds(PyObject *st, int *rounds) {
    PyObject *game = get_attr(st, "game"), *options = game ? get_attr(game, "options") : NULL;
    int bad = options == NULL || attr_int(options, "rounds", rounds) < 0;
    Py_XDECREF(game); Py_XDECREF(options);
    return bad ? -1 : 0;
}

/* LostMinesState._end_round on the core, for a match whose rounds the core sets up: the
   round's end kept for its first read (``written``: the state was written back, so the
   state's own _round_end, the maze marked shared; else made of the core's position), the
   scores and the round's record, then the match's end or the next round, set up here
   (setup_called) */
static int end_round_core(W *w, PyObject *reason, int written, int rounds) {
    Tables *t = w->t;
    PyObject *st = w->state, *o;
    int dwarves[LSEATS], layout[LSLOTS], round_no, all = 1, bad;
    long points[LSEATS];
    setup_called = 0;
    for (int i = 0; i < w->nslot; i++) if (w->owner[i] < 0) all = 0;
    if (reason == NULL) reason = all ? t->r_treasures : t->r_exhausted;
    if (attr_int(st, "_round", &round_no) < 0) return -1;
    if (!written) {
        if (set_new(st, "_last_round", ended_round(w, round_no, reason)) < 0) return -1;
    } else {
        if (set_new(st, "_last_round", PyObject_CallMethod(st, "_round_end", "O", reason)) < 0
            || !(o = get_attr(st, "_mt")))
            return -1;
        bad = set_attr(o, "shared", Py_True);
        Py_DECREF(o);
        if (bad) return -1;
    }
    if (ids_in(w, "dwarves", dwarves, w->n) < 0 || ids_in(w, "layout", layout, w->nslot) < 0)
        return -1;
    round_points(w, dwarves, layout, points);
    if (record_round(w, round_no, dwarves, points) < 0
        || set_attr(st, "pending", Py_None) < 0 || set_new(st, "voters", PyList_New(0)) < 0)
        return -1;
    if (round_no >= rounds) return set_attr(st, "terminal", Py_True);
    w->turn = (w->turn + 1) % w->n;
    if (set_new(st, "turn", PyLong_FromLong(w->turn)) < 0) return -1;
    setup_called = 1;
    return setup_round(w, w->srng, round_no + 1, PyList_GET_SIZE(w->history));
}

static W rw;                                 /* the rollout API's held state (see below) */
static PyObject *res_ref, *res_plain;
static PyObject *resident_state(void);
static int release_resident(void);  /* the rollout API's state given back (see below) */
static int take_held(W *w, int shared);  /* the rollout API's state taken by a play-out */
static void let_go(void);
static void drop(void);
static PyObject *play(PyObject *state, PyObject *rng, int until, int even, Tables *t,
                      PyObject *setup, int own_end, int held) {
    W *w = held ? &rw : &work;  /* (a held state is played where the core holds it) */
    PyObject *discards = held ? rw.discards : NULL;
    int shared, terminal, round0, round_no, finished = 1, rc, rounds = 0;
    long played = 0;
    {
        PyObject *own = get_attr(state, "rng");
        if (own == NULL) return NULL;
        shared = own == rng;
        Py_DECREF(own);
    }
    w->t = t; w->state = state;
    w->history = w->actors = NULL;
    w->discards = discards;  /* (a held state's: taken from the core's hold) */
    if (state_flags(state, &terminal, &round0) < 0 || (own_end && match_rounds(state, &rounds) < 0))
        goto error;
    round_no = round0;
    if (terminal) { Py_CLEAR(w->discards); return Py_BuildValue("(lO)", 0L, Py_True); }
    if (!(w->history = get_attr(state, "history")) || !(w->actors = get_attr(state, "actors"))
        || get_rng(rng, &w->rng) < 0)
        goto error;
    rc = held ? take_held(w, shared) : sync_in(w, shared);
    if (rc < 0) goto error;
    if (rc > 0) { finished = 0; goto done; }
    while (!terminal && !(until && round_no != round0)) {
        PyObject *action = NULL;
        int res = decide(w, even, &action);
        if (res < 0) goto error;
        played++;
        if (res == GO_ON) {
            int a = PyList_Append(w->history, action);
            Py_DECREF(action);
            if (a < 0) goto error;
            continue;
        }
        /* the round is over: the state as Python's has it when _end_round is called (the
           action logged after), the generators written back; the next round set up by the
           core, or read in */
        /* a round the core ends and sets the next one up after, unless it is the match's
           last, is not written back: the play-out's end writes the next one */
        int write = !own_end || round_no >= rounds;
        if (write && (sync_out(w, shared) < 0 || put_rng(rng, w->rng) < 0)) {
            Py_DECREF(action);
            goto error;
        }
        PyObject *reason = res == VOTED_END ? t->vote_reason : NULL;
        int bad = (own_end ? load_setup(setup) < 0 || end_round_core(w, reason, write, rounds) < 0
                           : end_round(w, setup, reason, rng) < 0)
                  || PyList_Append(w->history, action) < 0;
        Py_DECREF(action);
        if (bad || state_flags(state, &terminal, &round_no) < 0) goto error;
        if (setup_called) continue;  /* the core's own round (written back below) */
        if (terminal || (until && round_no != round0)) goto whole;  /* Python's state is whole */
        rc = sync_in(w, shared);
        if (rc < 0) goto error;
        if (rc > 0) { finished = 0; goto done; }
    }
    if (sync_out(w, shared) < 0) goto error;
done:
    if (put_rng(rng, w->rng) < 0) goto error;
whole:
    Py_CLEAR(w->history); Py_CLEAR(w->actors); Py_CLEAR(w->discards);
    return Py_BuildValue("(lO)", played, finished ? Py_True : Py_False);
error:
    Py_CLEAR(w->history); Py_CLEAR(w->actors); Py_CLEAR(w->discards);
    return NULL;
}

/* lost_mines_play_out(state, rng, until_round_end, even, tables, setup) -> (played, finished)
 * setup: the game's round set-up (core/lost_mines.py _setup_of), or None (rounds set up in
 * Python: a fixed deal).  finished False: the core stopped at a position it does not take (written back), and the
 * caller plays the rest in Python. */
static PyObject *lost_mines_play_out(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *rng, *caps, *setup;
    int until, even, own_end;
    if (!PyArg_ParseTuple(args, "OOppOOp", &state, &rng, &until, &even, &caps, &setup,
                          &own_end))
        return NULL;
    if (own_end && setup == Py_None) {
        PyErr_SetString(PyExc_ValueError, "lost mines core: a round's end on the core sets "
                        "the next round up");
        return NULL;
    }
    Tables *t = PyCapsule_GetPointer(caps, "pysaboteur._core.LostMinesTables");
    if (t == NULL) return NULL;
    /* one working state for the process: a second play-out while one is in a Python call
       (another thread, while this one ends a round) is played in Python instead */
    if (wait_core()) return Py_BuildValue("(lO)", 0L, Py_False);  /* (this thread's own: pure) */
    take_busy();
    /* the state the rollout API holds (a new match's, most often) is played from where the
       core holds it: not written back and read in again */
    int held = res_ref != NULL && resident_state() == state && rw.t == t;
    if (held) {  /* its own class again, nothing held (the position stays where it is) */
        if (set_attr(state, "__class__", res_plain) < 0) { drop(); busy = 0; return NULL; }
        let_go();
    } else if (release_resident() < 0) {
        busy = 0;
        return NULL;
    }
    PyObject *result = play(state, rng, until, even, t, setup, own_end, held);
    busy = 0;
    return result;
}

/* ------------------------------------------------------------------ the rollout API */
/* legal_actions, legal_count, legal_action, random_action and apply on the core (as
 * classic.c's): the position of the state played a decision at a time stays here between
 * calls (the "resident" state: rw), so that a call costs what the decision costs, not a
 * reading of the whole position.  While it is resident the state's class is core/resident.py's
 * subclass of its own, whose properties for the fields the core keeps a copy of (the maze,
 * _mt, hands, pile, pawns, tokens, treasures' owners, votes, what is pending) give the state
 * back to Python first (release).  Everything a decision changes is written into the state
 * as it is applied (write_step: the hands, the pile, the pawns, the tokens, the treasures
 * taken, the phase and the seats, the state's generator after a trap, the logs), but for
 * the maze, which is written when the state is given back.  A round's end is the core's as
 * in play() (the next round set up here, the state written whole and kept resident) where
 * the core sets the rounds up; else Python's _end_round, and the state is given back. */
/* the resident state (a weak reference: the core keeps no state alive; one that dies
   resident leaves nothing to write back); its own class is res_plain */
static Menu rmenu;
static int rmenu_ok;
static PyObject *rlist;  /* rmenu's actions, in order (the core's own list, never handed out) */
static PyObject *rlast;  /* the action legal_action or random_action handed out last, */
static int rlast_at;     /* at this index of the menu (apply finds it without a list) */

/* every action of the menu, in order: the list legal_actions() gives */
static PyObject *menu_list(W *w, Menu *m) {
    Tables *t = w->t;
    int total = 0, at = 0;
    for (int k = 0; k < m->n; k++) total += m->e[k].count;
    PyObject *list = PyList_New(total);
    if (list == NULL) return NULL;
    for (int k = 0; k < m->n; k++) {
        Entry *e = &m->e[k];
        if (e->tag == T_PLACE) {  /* the fitting cells walked once */
            int om = t->open_mask[t->ootile[e->card][e->aux]];
            PyObject *row = t->place_act[e->card][e->aux];
            for (int w6 = 0; w6 < LNC / 64; w6++)
                for (uint64_t b = w->pcb[w6]; b && at < total; b &= b - 1) {
                    int g = w6 * 64 + __builtin_ctzll(b);
                    if (!t->fits[w->cons[g]][om]) continue;
                    PyObject *a = PyTuple_GET_ITEM(row, g);
                    Py_INCREF(a);
                    PyList_SET_ITEM(list, at++, a);
                }
            continue;
        }
        for (int i = 0; i < e->count && at < total; i++) {
            PyObject *a = action_at(w, m, e, i);
            if (a == NULL) { Py_DECREF(list); return NULL; }
            PyList_SET_ITEM(list, at++, a);
        }
    }
    if (at != total) {
        Py_DECREF(list);
        PyErr_SetString(PyExc_AssertionError, "lost mines core: the menu's count");
        return NULL;
    }
    return list;
}

/* the scalars write_step tells the state when they change */
enum { S_PHASE, S_CURRENT, S_TURN, S_DRAW, S_PROPOSED, S_DRAGON, S_PEND, NSAID };
static void said_now(W *w) {
    w->said[S_PHASE] = w->phase; w->said[S_CURRENT] = w->current; w->said[S_TURN] = w->turn;
    w->said[S_DRAW] = w->pending_draw; w->said[S_PROPOSED] = w->proposed;
    w->said[S_DRAGON] = w->dragon; w->said[S_PEND] = w->pend_kind;
    w->hdirty = 0; w->d_pawn = 0;
}

/* d[name] = v (steals v): a field of the resident state written past its class's
   properties (which would give the state back to Python) */
static int put_own(PyObject *d, const char *name, PyObject *v) {
    if (v == NULL) return -1;
    PyObject *k = name_of(name);
    int r = k == NULL ? -1 : PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return r;
}

/* d[name] (borrowed) */
static PyObject *own_item(PyObject *d, const char *name) {
    PyObject *k = name_of(name), *v = k == NULL ? NULL : PyDict_GetItemWithError(d, k);
    if (v == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, name);
    return v;
}

/* what a decision changed written into the resident state: all but the maze (sync_out's
   writes, only of what changed) */
static int write_step(W *w) {
    PyObject *st = w->state, *d = PyObject_GenericGetDict(st, NULL), *o;
    if (d == NULL) return -1;
    int r = -1;
    if (w->hdirty) {
        if (!(o = own_item(d, "hands"))) goto out;
        for (int s = 0; s < w->n; s++) {
            if (!(w->hdirty & (1u << s))) continue;
            PyObject *l = code_list(w, w->hand[s], w->hn[s]);
            int bad = l == NULL || PyList_SetSlice(PyList_GET_ITEM(o, s), 0, PY_SSIZE_T_MAX, l) < 0;
            Py_XDECREF(l);
            if (bad) goto out;
        }
        w->hdirty = 0;
    }
    if (w->deck_full) {  /* a new match's first round: the whole pile */
        PyObject *l = code_list(w, w->deck, w->ndeck);
        int bad = l == NULL || !(o = own_item(d, "deck")) || PyList_SetSlice(o, 0, PY_SSIZE_T_MAX, l) < 0;
        Py_XDECREF(l);
        if (bad) goto out;
        w->ndeck0 = w->ndeck;
        w->deck_full = 0;
    } else if (w->ndeck != w->ndeck0) {
        if (!(o = own_item(d, "deck")) || PyList_SetSlice(o, w->ndeck, PY_SSIZE_T_MAX, NULL) < 0)
            goto out;
        w->ndeck0 = w->ndeck;
    }
    if (w->d_pawn) {  /* changed in place, as LostMinesState._move does */
        PyObject *pawn = own_item(d, "pawn"), *seg = pawn ? own_item(d, "pawn_seg") : NULL;
        if (seg == NULL) goto out;
        for (int s = 0; s < w->n; s++)
            if (PyList_SetItem(pawn, s, cell_obj(w->pawn[s])) < 0
                || PyList_SetItem(seg, s, PyLong_FromLong(w->pseg[s])) < 0)
                goto out;
        w->d_pawn = 0;
    }
    if (w->d_front) {
        PyObject *trolls, *front;
        if (front_objs(w, &trolls, &front) < 0 || put_own(d, "trolls", trolls) < 0
            || put_own(d, "in_front", front) < 0)
            goto out;
        w->d_front = 0;
    }
    if (w->d_traps) {
        if (put_own(d, "traps", cell_set(w->trb, 1)) < 0) goto out;
        w->d_traps = 0;
    }
    if (w->d_over) {
        if (put_own(d, "overcome", cell_set(w->ovb, 0)) < 0) goto out;
        w->d_over = 0;
    }
    if (w->d_owner) {
        PyObject *col = PyList_New(w->n);
        for (int s = 0; col != NULL && s < w->n; s++) {
            PyObject *l = int_list(w->col[s], w->ncol[s]);
            if (l == NULL) { Py_CLEAR(col); break; }
            PyList_SET_ITEM(col, s, l);
        }
        if (put_own(d, "owner", int_list(w->owner, w->nslot)) < 0 || put_own(d, "collected", col) < 0)
            goto out;
        w->d_owner = 0;
    }
    if (w->phase != w->said[S_PHASE] && put_own(d, "phase", PyLong_FromLong(w->phase)) < 0) goto out;
    if (w->current != w->said[S_CURRENT] && put_own(d, "current", PyLong_FromLong(w->current)) < 0)
        goto out;
    if (w->turn != w->said[S_TURN] && put_own(d, "turn", PyLong_FromLong(w->turn)) < 0) goto out;
    if (w->pending_draw != w->said[S_DRAW]
        && put_own(d, "pending_draw", PyLong_FromLong(w->pending_draw)) < 0)
        goto out;
    if (w->proposed != w->said[S_PROPOSED]
        && put_own(d, "proposed", Py_NewRef(w->proposed ? Py_True : Py_False)) < 0)
        goto out;
    if (w->dragon != w->said[S_DRAGON]
        && put_own(d, "dragon", w->dragon < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(w->dragon)) < 0)
        goto out;
    /* the votes change only in or out of a vote; what is pending, only while something is */
    if ((w->phase == VOTE || w->said[S_PHASE] == VOTE)
        && put_own(d, "voters", int_list(w->voters, w->nvoters)) < 0)
        goto out;
    if (w->pend_kind || w->said[S_PEND]) {
        PyObject *p;
        if (w->pend_kind == 1) {
            PyObject *ways = PyTuple_New(w->pend_nways);
            for (int i = 0; ways != NULL && i < w->pend_nways; i++)
                PyTuple_SET_ITEM(ways, i, Py_NewRef(w->pend_ways[i] ? Py_True : Py_False));
            p = ways == NULL ? NULL : Py_BuildValue("(liN)", py_cell(w->pend_g), w->pend_entry, ways);
        } else {
            p = w->pend_kind == 2 ? int_list(w->pend_slots, w->pend_nslots) : Py_NewRef(Py_None);
        }
        if (put_own(d, "pending", p) < 0) goto out;
    }
    w->said[S_PHASE] = w->phase; w->said[S_CURRENT] = w->current; w->said[S_TURN] = w->turn;
    w->said[S_DRAW] = w->pending_draw; w->said[S_PROPOSED] = w->proposed;
    w->said[S_DRAGON] = w->dragon; w->said[S_PEND] = w->pend_kind;
    r = 0;
out:
    Py_DECREF(d);
    return r;
}

/* nothing resident any more */
static void forget(void) {
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    Py_CLEAR(rw.history); Py_CLEAR(rw.actors); Py_CLEAR(rw.discards);
}

/* the resident state (borrowed), or NULL (none, or it died) */
static PyObject *resident_state(void) {
    if (res_ref == NULL) return NULL;
    PyObject *st = PyWeakref_GET_OBJECT(res_ref);
    if (st == Py_None) { forget(); return NULL; }
    return st;
}


/* after an error: the resident state its own class again, as it is, and nothing resident
   (the error kept) */
static void drop(void) {
    PyObject *st = resident_state(), *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (st != NULL && res_plain != NULL && (PyObject *)Py_TYPE(st) != res_plain
        && set_attr(st, "__class__", res_plain) < 0)
        PyErr_Clear();
    PyErr_Restore(type, value, tb);
    forget();
}

/* the resident state given back to Python: its own class again, the maze written if it
   changed (everything else was written as the decisions were applied; the state's
   generator too, so it is not written here: Python may have drawn from it since) */
static int release(void) {
    PyObject *st = resident_state();
    if (st == NULL) return 0;
    Py_INCREF(st);
    PyObject *plain = res_plain;
    Py_INCREF(plain);
    rw.state = st;
    int r = 0;
    if (rw.d_maze && (made_maze = make_maze(&rw)) == NULL) r = -1;  /* (while still held) */
    if (r == 0) r = set_attr(st, "__class__", plain);
    if (r == 0) r = sync_out(&rw, 1);
    Py_CLEAR(made_maze);
    forget();
    Py_DECREF(st); Py_DECREF(plain);
    return r;
}

/* ``state`` made the resident one (``ctx``: core/lost_mines.py's (tables, resident class,
   _next_setup)): 1; 0 where the core does not take it now (the game ended, a position it
   does not take, the core busy with another play-out); -1 on an error */
static int enter(PyObject *state, PyObject *ctx) {
    if (res_ref != NULL && resident_state() == state) return 1;
    int rc = release();
    if (rc < 0) return -1;
    W *w = &rw;
    Tables *t = PyCapsule_GetPointer(PyTuple_GET_ITEM(ctx, 0), "pysaboteur._core.LostMinesTables");
    if (t == NULL) return -1;
    w->t = t; w->state = state;
    w->history = w->actors = w->discards = NULL;
    int terminal, round_no;
    rc = -1;
    if (state_flags(state, &terminal, &round_no) < 0) goto out;
    if (terminal) { rc = 0; goto out; }
    if (!(w->history = get_attr(state, "history")) || !(w->actors = get_attr(state, "actors")))
        goto out;
    rc = sync_in(w, 0);  /* (the state's own generator read: w->srng) */
    if (rc != 0) { rc = rc < 0 ? -1 : 0; goto out; }
    said_now(w);
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
    Py_CLEAR(w->history); Py_CLEAR(w->actors); Py_CLEAR(w->discards);
    return rc;
}

/* nothing held any more, the held position kept where it is for a play-out to go on with
   (its discards' list with it) */
static void let_go(void) {
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast); Py_CLEAR(res_ref); Py_CLEAR(res_plain);
    Py_CLEAR(rw.history); Py_CLEAR(rw.actors);
}

/* the held state's position taken by a play-out (play on rw: its state, logs and chooser
   read, let_go done): not written back and read in again; everything not written yet is
   written when the play-out stops, as the play-out's own changes are */
static int take_held(W *w, int shared) {
    if (shared) {
        w->srng = &w->rng;
    } else {  /* the state's own generator, read afresh (Python may have drawn from it) */
        PyObject *r = get_attr(w->state, "rng");
        int bad = r == NULL || get_rng(r, &w->own_rng) < 0;
        Py_XDECREF(r);
        if (bad) return -1;
        w->srng = &w->own_rng;
    }
    return 0;
}

/* lost_mines_first_round(state, tables, setup, ctx) -> bool: a new match's first round set
 * up by the core (LostMinesState._setup_round for a match without a fixed deal: the same
 * numbers drawn from the state's generator, the same cards), and the state held by the
 * rollout API (ctx: core/lost_mines.py's (tables, held class, _next_setup)): what
 * _setup_round sets that is not guarded (the round's cards, the looks, the phase, the
 * seats) written now, the rest (hands, pile, maze, pawns, tokens, treasures' owners, votes)
 * when Python reads it (release), at the first decision applied (write_step) or at the
 * end of a play-out, which takes the state from where the core holds it; False: the core
 * is busy (the caller sets the round up in Python). */
static PyObject *lost_mines_first_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *caps, *setup, *ctx, *game = NULL, *srng = NULL, *result = NULL, *ref = NULL;
    if (!PyArg_ParseTuple(args, "OOOO!", &state, &caps, &setup, &PyTuple_Type, &ctx)) return NULL;
    if (PyTuple_GET_SIZE(ctx) != 3) { PyErr_SetString(PyExc_TypeError, "lost mines core: ctx"); return NULL; }
    Tables *t = PyCapsule_GetPointer(caps, "pysaboteur._core.LostMinesTables");
    if (t == NULL) return NULL;
    if (wait_core()) Py_RETURN_FALSE;
    take_busy();
    if (release_resident() < 0) { busy = 0; return NULL; }
    W *w = &rw;
    w->t = t; w->state = state;
    w->history = w->actors = w->discards = NULL;
    int round_no;
    if (!(game = get_attr(state, "game")) || attr_int(game, "players", &w->n) < 0
        || attr_int(state, "turn", &w->turn) < 0 || attr_int(state, "_round", &round_no) < 0
        || !(w->history = get_attr(state, "history")) || !(w->actors = get_attr(state, "actors")))
        goto out;
    if (w->n < 2 || w->n > t->seats) { PyErr_SetString(PyExc_ValueError, "lost mines core: players"); goto out; }
    w->srng = &w->own_rng;
    if (!(srng = get_attr(state, "rng")) || get_rng(srng, &w->own_rng) < 0 || load_setup(setup) < 0
        || setup_round(w, w->srng, round_no + 1, PyList_GET_SIZE(w->history)) < 0
        || put_rng(srng, w->own_rng) < 0
        || set_new(state, "phase", PyLong_FromLong(w->phase)) < 0
        || set_new(state, "current", PyLong_FromLong(w->current)) < 0
        || set_new(state, "pending_draw", PyLong_FromLong(w->pending_draw)) < 0
        || set_attr(state, "proposed", w->proposed ? Py_True : Py_False) < 0
        || set_attr(state, "dragon", Py_None) < 0 || set_attr(state, "pending", Py_None) < 0
        || set_new(state, "voters", PyList_New(0)) < 0)
        goto out;
    said_now(w);
    w->hdirty = ~0u; w->d_pawn = 1;  /* (Python's hands and pawns are not written yet) */
    PyObject *plain = (PyObject *)Py_TYPE(state);
    if (!(ref = PyWeakref_NewRef(state, NULL)) || set_attr(state, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0)
        goto out;
    res_ref = ref; ref = NULL;
    res_plain = Py_NewRef(plain);
    rmenu_ok = 0;
    result = Py_NewRef(Py_True);
out:
    Py_XDECREF(game); Py_XDECREF(srng); Py_XDECREF(ref);
    if (result == NULL) { Py_CLEAR(w->history); Py_CLEAR(w->actors); Py_CLEAR(w->discards); }
    busy = 0;
    return result;
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
        Py_XSETREF(rlast, Py_NewRef(a));
        rlast_at = index;
    }
    return a;
}



/* the resident state's round ended with ``action`` (applied, not logged yet; ``res``
   ROUND_END or VOTED_END): the round's end as play() has it, then either the next round set
   up on the core, the state written whole and kept resident, or the state given back
   (Python ended the round or set the next one up, the match ended) */
static int step_round_end(PyObject *state, PyObject *ctx, PyObject *action, int res) {
    W *w = &rw;
    Tables *t = w->t;
    PyObject *st = resident_state();
    if (st != state) { PyErr_SetString(PyExc_AssertionError, "lost mines core: not the resident state"); return -1; }
    /* Python reads the state from here: its own class, the core's copy kept */
    if (set_attr(st, "__class__", res_plain) < 0) { drop(); return -1; }
    /* (the set-up, or None: a fixed deal; whether the round's end is the core's) */
    PyObject *next = PyObject_CallOneArg(PyTuple_GET_ITEM(ctx, 2), st);  /* lost_mines.py */
    if (next != NULL && (!PyTuple_Check(next) || PyTuple_GET_SIZE(next) != 2)) {
        Py_CLEAR(next);
        PyErr_SetString(PyExc_TypeError, "lost mines core: the next round's set-up");
    }
    if (next == NULL) { forget(); return -1; }
    PyObject *setup = PyTuple_GET_ITEM(next, 0), *reason = res == VOTED_END ? t->vote_reason : NULL;
    int own_end = PyObject_IsTrue(PyTuple_GET_ITEM(next, 1)), terminal, round_no, rounds = 0,
        rc = -1, keep = 0;
    setup_called = 0;
    if (state_flags(st, &terminal, &round_no) < 0 || (own_end && match_rounds(st, &rounds) < 0))
        goto out;
    /* a round the core ends and sets the next one up after, unless it is the match's last,
       is not written back (the next one is, whole) */
    int write = !own_end || round_no >= rounds;
    if (write && sync_out(w, 0) < 0) goto out;
    if (own_end) {
        if (load_setup(setup) < 0 || end_round_core(w, reason, write, rounds) < 0) goto out;
    } else {  /* the state's own (a fixed deal's rounds are set up in Python) */
        PyObject *r = reason == NULL ? PyObject_CallMethod(st, "_end_round", NULL)
                                     : PyObject_CallMethod(st, "_end_round", "O", reason);
        if (r == NULL) goto out;
        Py_DECREF(r);
    }
    if (PyList_Append(w->history, action) < 0) goto out;
    if (own_end && setup_called) {  /* the next round, set up here: written whole */
        if (sync_out(w, 0) < 0) goto out;
        keep = 1;
    }
    rc = 0;
out:
    Py_DECREF(next);
    if (rc == 0 && keep) {  /* resident in the new round */
        said_now(w);
        rmenu_ok = 0;
        Py_CLEAR(rlist); Py_CLEAR(rlast);
        if (set_attr(st, "__class__", PyTuple_GET_ITEM(ctx, 1)) < 0) { drop(); return -1; }
        return 0;
    }
    forget();  /* Python's state is whole (or an error left it as it is) */
    return rc;
}

/* lost_mines_legal(state, ctx) -> list, or None (not taken: Python lists them) */
static PyObject *lost_mines_legal_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    ENTER(args[0], args[1], Py_RETURN_NONE);
    if (rlist == NULL) {
        Menu *m = resident_menu();
        if (m == NULL || (rlist = menu_list(&rw, m)) == NULL) return NULL;
    }
    return PyList_GetSlice(rlist, 0, PY_SSIZE_T_MAX);  /* the caller's own copy */
}

/* lost_mines_count(state, ctx) -> int, or -1 (not taken) */
static PyObject *lost_mines_count_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (!step_args(args, nargs, 2)) return NULL;
    ENTER(args[0], args[1], return PyLong_FromLong(-1));
    Menu *m = resident_menu();
    return m == NULL ? NULL : PyLong_FromLong(menu_total(m));
}

/* lost_mines_nth(state, ctx, index) -> the action, or None (not taken) */
static PyObject *lost_mines_nth_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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

/* lost_mines_random(state, ctx, rng) -> rng.below(legal_count()) drawn, that action; None
   (not taken: nothing drawn) */
static PyObject *lost_mines_random_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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

/* lost_mines_apply(state, ctx, action) -> 0: applied (and logged); 1: not among the legal
   actions (nothing changed); 2: not taken (nothing changed: Python applies it) */
static PyObject *lost_mines_apply_held(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
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
        for (Py_ssize_t k = 0; k < n; k++)  /* the interned action itself, as a rule */
            if (PyList_GET_ITEM(rlist, k) == action) { index = k; break; }
        for (Py_ssize_t k = 0; index < 0 && k < n; k++) {  /* else an equal one of its type */
            PyObject *a = PyList_GET_ITEM(rlist, k);   /* (is_listed: NoMove() == ProposeEnd()) */
            if (Py_TYPE(a) != Py_TYPE(action)) continue;
            int eq = PyObject_RichCompareBool(a, action, Py_EQ);
            if (eq < 0) return NULL;
            if (eq) index = k;
        }
    }
    if (index < 0) return PyLong_FromLong(1);
    int i = (int)index;
    Entry *e = entry_of(m, &i);
    /* the state's generator (a trap's card, the next round's deal), read afresh: Python may
       have drawn from it since (the chooser may be the state's own) */
    PyObject *srng = get_attr(state, "rng");
    if (srng == NULL) return NULL;
    if (get_rng(srng, &rw.own_rng) < 0) { Py_DECREF(srng); return NULL; }
    rw.srng = &rw.own_rng;
    uint64_t drawn = rw.own_rng;
    PyObject *played = NULL;
    int res = act(&rw, m, e, i, &played);
    rmenu_ok = 0;
    Py_CLEAR(rlist); Py_CLEAR(rlast);
    if (res < 0) {
        Py_DECREF(srng);
        drop();  /* (a half-made decision: Python's state is not to be trusted either) */
        return NULL;
    }
    Py_DECREF(played);  /* the history logs the caller's action, as State.apply does */
    PyObject *history = rw.history;
    Py_INCREF(history);
    int bad;
    if (res != GO_ON) {
        bad = step_round_end(state, ctx, action, res) < 0;  /* (the action logged there) */
    } else {
        bad = write_step(&rw) < 0 || (rw.own_rng != drawn && put_rng(srng, rw.own_rng) < 0)
              || PyList_Append(history, action) < 0;
    }
    Py_DECREF(history);
    Py_DECREF(srng);
    if (bad) return NULL;
    return PyLong_FromLong(0);
}

/* each call holds the core from start to end: its calls into Python let other threads run,
   which wait for it (wait_core) */
HELD(lost_mines_legal, Py_RETURN_NONE)
HELD(lost_mines_count, return PyLong_FromLong(-1))
HELD(lost_mines_nth, Py_RETURN_NONE)
HELD(lost_mines_random, Py_RETURN_NONE)
HELD(lost_mines_apply, return PyLong_FromLong(2))

/* lost_mines_release(state): the state given back to Python if it is the resident one
   (None: whichever is) */
static PyObject *lost_mines_release(PyObject *self, PyObject *state) {
    (void)self;
    if (wait_core()) {
        PyErr_SetString(PyExc_RuntimeError, "lost mines core: a held state read while the core plays it");
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

/* legal_actions, legal_count, legal_action and apply of the held class (core.h's) */
HELD_METHODS(lost_mines)

PyMethodDef lost_mines_methods[] = {
    {"lost_mines_first_round", lost_mines_first_round, METH_VARARGS,
     "A new match's first round set up by the core: (state, tables, setup) -> bool."},
    {"lost_mines_unpack_maze", lost_mines_unpack_maze, METH_O,
     "A Lost Mines PackedMaze made the plain Maze it stands for, in place."},
    {"lost_mines_tables", lost_mines_tables, METH_O,
     "Compile The Lost Mines' tables (a spec dict, core/lost_mines.py)."},
    {"lost_mines_play_out", lost_mines_play_out, METH_VARARGS,
     "The Lost Mines' State.play_out: (state, rng, until_round_end, even, tables, setup) -> "
     "(played, finished)."},
    {"lost_mines_legal", (PyCFunction)(void (*)(void))lost_mines_legal, METH_FASTCALL,
     "The rollout API: legal_actions() of (state, ctx) on the core, or None (not taken)."},
    {"lost_mines_count", (PyCFunction)(void (*)(void))lost_mines_count, METH_FASTCALL,
     "The rollout API: legal_count() of (state, ctx), or -1 (not taken)."},
    {"lost_mines_nth", (PyCFunction)(void (*)(void))lost_mines_nth, METH_FASTCALL,
     "The rollout API: legal_action(index) of (state, ctx, index), or None (not taken)."},
    {"lost_mines_random", (PyCFunction)(void (*)(void))lost_mines_random, METH_FASTCALL,
     "The rollout API: random_action(rng) of (state, ctx, rng), or None (not taken)."},
    {"lost_mines_apply", (PyCFunction)(void (*)(void))lost_mines_apply, METH_FASTCALL,
     "The rollout API: apply(action) of (state, ctx, action): 0 applied, 1 not legal, 2 not taken."},
    {"lost_mines_release", lost_mines_release, METH_O,
     "The rollout API's resident state given back to Python (the state, or None: whichever)."},
    {"lost_mines_held_methods", lost_mines_held_methods, METH_O,
     "The rollout API's C methods for the class of a held state: (cls) -> {name: method}."},
    {NULL, NULL, 0, NULL},
};

/* what the module needs made once, before any call */
int lost_mines_init(void) {
    marker = PyCFunction_New(&marker_def, NULL);
    return marker == NULL ? -1 : 0;
}
