/* Determinization on the compiled core (issue 24): a whole sample of a determinizer in C.
 *
 * A determinizer (each game's determinize.py) is built once from one seat's view; it hands the
 * core a plan (``det_plan``: what it worked out from the view, nothing else), and each
 * ``det_sample(plan, rng)`` then does what the determinizer's pure ``sample`` does: the
 * template's clone, the numbers of ``engine.rng.Draws.take`` (the same words of the chooser's
 * generator), the unknown cards' order (``engine.rng.reorder``: the Lehmer code's digits,
 * read straight off the words: the digits of a number in the mixed radix n, n - 1, ..., 1
 * are those of the number modulo n!), the hands, piles and passes cut from it, the maze of
 * the face-down cards' deal (the determinizer's own ``Deals``, looked up by the same code),
 * the looks, and the dwarf cards (weighted as ``_deal_roles`` weighs them, with the same
 * floating-point sums) or, in The Lost Mines, the treasures' values and the clans' deals
 * (``_pick``).  The same sample, bit for bit, as the pure path from the same generator.
 */
#include "core.h"
#include <math.h>
#include <structmember.h>

#define DMAXN 1024  /* unknown cards at most (more: the determinizer stays pure) */
#define DMAXW 160   /* words of one Lehmer code at most (1024! < 2**8770) */
#define DMAXC 64    /* calls of the generator */
#define DMAXS 16    /* seats */

/* a group of a Lehmer code's radixes (top, top - 1, ..., top - g + 1), their product below
   2**64 shifted to its top bit (by shift) with its reciprocal for udiv_2by1; the group's
   first glo radixes' product below 2**32 (d_lo, v_lo, shift_lo the same way), the rest's too */
typedef struct { uint64_t d, v, d_lo, v_lo; int shift, shift_lo, top, g, glo; } Group;

typedef struct { int n, words, at, ngroups; PyObject *bound; Group *groups; } Call;  /* n = -1: a raw number */

enum { K_CLASSIC = 1, K_LOST_MINES = 2 };

typedef struct {
    int kind;
    PyObject *spec;  /* the spec tuple: keeps every object read from it alive */
    PyObject *template, *rng_type, *memo_type, *cards;
    Py_ssize_t off_state, off_value, off_shared;  /* Rng.state, Memo.value, Memo.shared */
    int ncalls, words, seat, ncards;
    Call calls[DMAXC];
    /* Saboteur, Saboteur 2 */
    int nother, oseat[DMAXS], ohand[DMAXS], opass[DMAXS], deck, aside;
    PyObject *mazes, *looked, *role_pool, *looks;
    int nrseats, rseat[DMAXS], weighted, spare, aside_roles, expansion;
    double *weights;  /* [role seat][index in role_pool] */
    int npass;
    int nkinds;         /* the unknown cards' distinct codes */
    int *card_kind;     /* per unknown card, its code's index among them */
    PyObject **passes;  /* the tuples (seat, card) of passes: [other seat][kind], shared by
                           every plan (pass_tuples), looked up at first use */
    /* The Lost Mines */
    PyObject *codes, *treasures, *clans;
} Plan;

static PyObject *s_dict, *s_mt, *s_value, *s_shared, *s_state, *s_hidden, *s_cells, *empty;
static PyObject *k_rng, *k_mt, *k_history, *k_actors, *k_deck, *k_discards, *k_passed,
    *k_hands, *k_aside, *k_maze, *k_seen, *k_roles, *k_spare_roles, *k_hats_aside,
    *k_inspected, *k_pawn, *k_pawn_seg, *k_seen_mines, *k_layout, *k_treasures_out,
    *k_dwarves, *k_dwarf_aside;
/* the lists a clone copies that a sample keeps (ClassicState.clone, LostMinesState.clone;
   the rest a sample replaces), NULL-ended; set by determinize_init */
static PyObject *classic_lists[4], *lost_mines_lists[6];

/* everything a plan holds (its spec, if it got one; what it made) */
static void plan_release(Plan *p) {
    Py_XDECREF(p->spec);
    if (p->passes != NULL)
        for (int i = 0; i < p->nother * p->nkinds; i++) Py_XDECREF(p->passes[i]);
    PyMem_Free(p->passes);
    PyMem_Free(p->card_kind);
    PyMem_Free(p->weights);
    PyMem_Free(p);
}

static void plan_free(PyObject *capsule) {
    Plan *p = PyCapsule_GetPointer(capsule, "pysaboteur.det_plan");
    if (p != NULL) plan_release(p);
}

/* ------------------------------------------------------------------ the numbers */
/* the groups of a Lehmer code of c->n items, from n down to 2 (the last item's digit is 0):
   as many radixes as keep their product below 2**32, then as many again; made once per n
   and shared by every plan (kept for the process's life: a few kilobytes per n) */
static Group *groups_by_n[DMAXN + 1];
static int ngroups_by_n[DMAXN + 1];
static int make_groups(Call *c) {
    if (groups_by_n[c->n] != NULL) {
        c->groups = groups_by_n[c->n];
        c->ngroups = ngroups_by_n[c->n];
        return 0;
    }
    c->groups = PyMem_RawMalloc(sizeof(Group) * (size_t)c->n);
    if (c->groups == NULL) { PyErr_NoMemory(); return -1; }
    c->ngroups = 0;
    for (int i = c->n; i >= 2;) {
        Group *g = &c->groups[c->ngroups++];
        uint64_t lo = 1, hi = 1;
        g->top = i; g->g = 0;
        while (i - g->g >= 2 && lo * (uint64_t)(i - g->g) < (1ULL << 32)) lo *= (uint64_t)(i - g->g++);
        g->glo = g->g;
        while (i - g->g >= 2 && hi * (uint64_t)(i - g->g) < (1ULL << 32)) hi *= (uint64_t)(i - g->g++);
        g->shift = __builtin_clzll(lo * hi);
        g->d = lo * hi << g->shift;
        g->v = (uint64_t)(~(unsigned __int128)0 / g->d);  /* floor((2**128 - 1) / d) - 2**64 */
        g->shift_lo = __builtin_clzll(lo);
        g->d_lo = lo << g->shift_lo;
        g->v_lo = (uint64_t)(~(unsigned __int128)0 / g->d_lo);
        i -= g->g;
    }
    groups_by_n[c->n] = c->groups;
    ngroups_by_n[c->n] = c->ngroups;
    return 0;
}

/* calls: [(n, words, bound or None)]: n = -1 a raw number (one word), n < 2 nothing, else a
   Lehmer code of n items over ``words`` words (engine.rng._plan), its bound n! given where
   the code itself is needed and n! > 2**64 */
static int read_calls(Plan *p, PyObject *calls) {
    if (!PyList_Check(calls) || PyList_GET_SIZE(calls) > DMAXC) goto bad;
    p->ncalls = (int)PyList_GET_SIZE(calls);
    int at = 0;
    for (int i = 0; i < p->ncalls; i++) {
        Call *c = &p->calls[i];
        long n, words;
        PyObject *bound;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(calls, i), "llO", &n, &words, &bound)) return -1;
        if (words < 0 || words > DMAXW || n > DMAXN || (n == -1 && words != 1)
            || (n >= 0 && n < 2 && words != 0) || (n >= 2 && n <= 20 && words != 2)) goto bad;
        c->n = (int)n; c->words = (int)words; c->at = at;
        c->bound = bound == Py_None ? NULL : bound;
        at += c->words;
        if (n >= 2 && make_groups(c) < 0) return -1;
    }
    p->words = at;
    if (at <= 4096) return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "core: a determinizer's calls");
    return -1;
}


/* (u1 u0) divided by a normalized d (its top bit set, u1 < d) with its reciprocal v =
   floor((2**128 - 1) / d) - 2**64: the quotient, the remainder in *r, no division (Moller and
   Granlund, "Improved division by invariant integers", algorithm 4) */
static inline uint64_t udiv_2by1(uint64_t u1, uint64_t u0, uint64_t d, uint64_t v, uint64_t *r) {
    unsigned __int128 q = (unsigned __int128)v * u1 + ((unsigned __int128)u1 << 64 | u0);
    uint64_t q1 = (uint64_t)(q >> 64) + 1, q0 = (uint64_t)q, rr = u0 - q1 * d;
    if (rr > q0) { q1--; rr += d; }
    if (rr >= d) { q1++; rr -= d; }
    *r = rr;
    return q1;
}

/* a 32-bit number's quotient by a radix d (2 <= d <= DMAXN) without a division: Lemire,
   Kaser and Kurz's fastdiv, exact for every 32-bit number; magic[d] is 2**64 / d rounded up
   (set by determinize_init) */
static uint64_t magic[DMAXN + 1];
static inline uint32_t fast_div(uint32_t a, uint32_t d) {
    return (uint32_t)(((unsigned __int128)magic[d] * a) >> 64);
}

/* the index of the k-th bit set in x (k below the bits set): Vigna's broadword select
   ("Broadword implementation of rank/select queries", 2008): the bytes' running counts side
   by side, the byte found by comparing them all with k at once, the bit by a table
   (select_in_byte[byte | rank << 8], set by determinize_init) */
static uint8_t select_in_byte[256 * 8];
static inline int select_bit(uint64_t x, uint32_t k) {
    const uint64_t ones4 = 0x1111111111111111ULL, ones8 = 0x0101010101010101ULL,
                   msbs8 = 0x8080808080808080ULL;
    uint64_t s = x - ((x & 0xA * ones4) >> 1);
    s = (s & 0x3 * ones4) + ((s >> 2) & 0x3 * ones4);
    s = (s + (s >> 4)) & 0xF * ones8;
    uint64_t sums = s * ones8;  /* byte i: the bits set in bytes 0..i */
    uint64_t below = ((k * ones8 | msbs8) - sums) & msbs8;  /* the bytes whose sum is <= k */
    int place = (int)((((below >> 7) * ones8) >> 56) * 8);
    uint32_t rank = k - (uint32_t)(((sums << 8) >> place) & 0xFF);
    return place + select_in_byte[((x >> place) & 0xFF) | rank << 8];
}

/* reorder(code, range(n)), first the digits: the Lehmer code's digits (lowest first, radix n,
   n - 1, ...).  The code's words are read as one number (the first the most significant), its
   64-bit limbs divided by a group of radixes at a time (make_groups), the remainder split in
   two 32-bit parts and those into their digits (engine.rng.lehmer) */
static void digits_of(const uint64_t *v, const Call *c, int *digit) {
    uint64_t limbs[DMAXW + 1], *limb = limbs + 1;  /* limb[-1] = 0 */
    int top = c->words - 1, done = 0;
    limbs[0] = 0;
    for (int k = 0; k < c->words; k++) limb[k] = v[c->at + c->words - 1 - k];
    while (top > 0 && limb[top] == 0) top--;
    for (int gi = 0; gi < c->ngroups; gi++) {
        const Group *grp = &c->groups[gi];
        int sh = grp->shift;
        uint64_t rem = 0, low;
        if (sh) {
            rem = limb[top] >> (64 - sh);
            for (int k = top; k >= 0; k--)
                limb[k] = udiv_2by1(rem, limb[k] << sh | limb[k - 1] >> (64 - sh), grp->d,
                                    grp->v, &rem);
        } else
            for (int k = top; k >= 0; k--) limb[k] = udiv_2by1(rem, limb[k], grp->d, grp->v, &rem);
        while (top > 0 && limb[top] == 0) top--;
        rem >>= sh;  /* below the product: its low radixes' part, then the rest's */
        sh = grp->shift_lo;  /* 32 to 63 */
        uint32_t r_hi = (uint32_t)udiv_2by1(rem >> (64 - sh), rem << sh, grp->d_lo, grp->v_lo, &low);
        uint32_t r32 = (uint32_t)(low >> sh), radix = (uint32_t)grp->top;
        for (int d = 0; d < grp->g; d++, done++, radix--) {
            if (d == grp->glo) r32 = r_hi;
            uint32_t q = fast_div(r32, radix);
            digit[done] = (int)(r32 - q * radix);
            r32 = q;
        }
    }
    digit[done] = 0;  /* the last item */
}

/* then the items: each digit j the index of the next item among those left (pool.pop(j)).
   The items left are the bits of words; before[w] counts those in the words before w, so
   that the j-th one's word is found without a branch, and its bit by SELECT */
#define SELECT_ITEMS(SELECT)                                                              \
    uint64_t left[DMAXN / 64];                                                            \
    int before[DMAXN / 64], nmask = (n + 63) / 64;                                        \
    for (int w = 0; w < nmask; w++) {                                                     \
        int in = (w + 1) * 64 <= n ? 64 : n - w * 64;                                     \
        left[w] = in == 64 ? ~0ULL : (1ULL << in) - 1;                                    \
        before[w] = w * 64;                                                               \
    }                                                                                     \
    for (int i = 0; i < n; i++) {                                                         \
        uint32_t j = (uint32_t)io[i];                                                     \
        int w = 0;                                                                        \
        for (int k = 1; k < nmask; k++) w += (int)j >= before[k];                         \
        int b = SELECT(left[w], j - (uint32_t)before[w]);                                 \
        left[w] &= ~(1ULL << b);                                                          \
        for (int k = 1; k < nmask; k++) before[k] -= k > w;                               \
        io[i] = w * 64 + b;                                                               \
    }

static void items_plain(int n, int *io) { SELECT_ITEMS(select_bit) }

/* with BMI2's pdep where it is fast (not on AMD's families 15h and 17h, where it is
   microcode): the j-th bit set of x is the one pdep puts bit j on */
static int use_pdep;
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PDEP_SELECT(x, j) __builtin_ctzll(_pdep_u64(1ULL << (j), (x)))
__attribute__((target("bmi2"))) static void items_pdep(int n, int *io) { SELECT_ITEMS(PDEP_SELECT) }
#define HAVE_PDEP 1
#endif

static void perm_of(const uint64_t *v, const Call *c, int *out) {
    int n = c->n;
    if (n < 2) { if (n == 1) out[0] = 0; return; }
    digits_of(v, c, out);
#ifdef HAVE_PDEP
    if (use_pdep) { items_pdep(n, out); return; }
#endif
    items_plain(n, out);
}

/* det_select(pdep) -> bool: whether the items are selected with pdep (where the processor has
   it fast; None: as found); the previous setting (for tests of both ways) */
static PyObject *det_select(PyObject *self, PyObject *arg) {
    (void)self;
    PyObject *before = PyBool_FromLong(use_pdep);
    if (arg != Py_None) {
        int on = PyObject_IsTrue(arg);
        if (on < 0) { Py_DECREF(before); return NULL; }
#ifdef HAVE_PDEP
        use_pdep = on && __builtin_cpu_supports("bmi2");
#else
        use_pdep = 0;
#endif
    }
    return before;
}

/* the code itself (what Draws.take gives: the words' number modulo n!), for a Deals look-up */
static PyObject *code_of(const uint64_t *v, const Call *c) {
    if (c->n < 2) return PyLong_FromLong(0);
    if (c->bound == NULL) {
        if (c->n > 20) { PyErr_SetString(PyExc_ValueError, "core: a code's bound"); return NULL; }
        uint64_t f = 1;
        for (int i = 2; i <= c->n; i++) f *= (uint64_t)i;
        unsigned __int128 x = (unsigned __int128)v[c->at] << 64 | v[c->at + 1];
        return PyLong_FromUnsignedLongLong((uint64_t)(x % f));
    }
    unsigned char buf[8 * DMAXW];
    for (int k = 0; k < c->words; k++)
        for (int b = 0; b < 8; b++) buf[8 * k + b] = (unsigned char)(v[c->at + k] >> (56 - 8 * b));
    PyObject *num = _PyLong_FromByteArray(buf, (size_t)(8 * c->words), 0, 0);
    if (num == NULL) return NULL;
    PyObject *x = PyNumber_Remainder(num, c->bound);
    Py_DECREF(num);
    return x;
}

/* deals[code] of a determinizer's Deals (a dict that makes what it lacks): a new reference */
static PyObject *deal_of(PyObject *deals, PyObject *code) {
    PyObject *v = PyDict_Check(deals) ? PyDict_GetItemWithError(deals, code) : NULL;
    if (v != NULL) { Py_INCREF(v); return v; }
    return PyErr_Occurred() ? NULL : PyObject_GetItem(deals, code);
}

/* ------------------------------------------------------------------ the clone */
static PyObject *new_obj(PyObject *type) {
    PyTypeObject *t = (PyTypeObject *)type;
    return t->tp_new(t, empty, NULL);
}

/* a __slots__ member's offset in the objects of ``type`` (-1: not a plain object slot of a
   type with the generic setattr: then the attribute is set and read by name) */
static Py_ssize_t slot_offset(PyObject *type, PyObject *name) {
    PyTypeObject *t = (PyTypeObject *)type;
    if (t->tp_setattro != PyObject_GenericSetAttr || t->tp_getattro != PyObject_GenericGetAttr)
        return -1;
    PyObject *descr = _PyType_Lookup(t, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    return (m->type == T_OBJECT_EX || m->type == T_OBJECT) && !(m->flags & READONLY) ? m->offset : -1;
}


/* the words of every call, drawn from the chooser ``rng`` as Draws.take draws them (next64,
   in order); its state read and written by its slot where it is the engine's Rng */
static int draw_words(Plan *p, PyObject *rng, uint64_t *v) {
    Py_ssize_t off = Py_IS_TYPE(rng, (PyTypeObject *)p->rng_type) ? p->off_state : -1;
    PyObject *o = get_slot(rng, off, s_state);
    if (o == NULL) return -1;
    uint64_t st = PyLong_AsUnsignedLongLong(o);
    Py_DECREF(o);
    if (st == (uint64_t)-1 && PyErr_Occurred()) return -1;
    for (int k = 0; k < p->words; k++) {
        uint64_t z = (st += GAMMA);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        v[k] = z ^ (z >> 31);
    }
    o = PyLong_FromUnsignedLongLong(st);
    if (o == NULL) return -1;
    int r = set_slot(rng, off, s_state, o);
    Py_DECREF(o);
    return r;
}

static PyObject *new_rng(Plan *p, uint64_t state) {
    PyObject *r = new_obj(p->rng_type), *v = PyLong_FromUnsignedLongLong(state);
    if (r == NULL || v == NULL || set_slot(r, p->off_state, s_state, v) < 0) { Py_XDECREF(r); r = NULL; }
    Py_XDECREF(v);
    return r;
}

static inline int put(PyObject *d, PyObject *k, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return r;
}

static inline PyObject *field(PyObject *d, PyObject *k) {  /* borrowed */
    PyObject *v = PyDict_GetItemWithError(d, k);
    if (v == NULL && !PyErr_Occurred()) PyErr_SetObject(PyExc_AttributeError, k);
    return v;
}

static inline PyObject *copy_list(PyObject *l) {
    if (!PyList_Check(l)) { PyErr_SetString(PyExc_TypeError, "core: a list expected"); return NULL; }
    return PyList_GetSlice(l, 0, PY_SSIZE_T_MAX);
}

static int copy_field(PyObject *d, PyObject *k) {  /* d[k] = d[k].copy() */
    PyObject *l = field(d, k);
    return l == NULL ? -1 : put(d, k, copy_list(l));
}

/* the template's clone as its class's clone makes it (ClassicState.clone, LostMinesState.clone),
   but for the fields every sample replaces: a new state with a copy of the template's dict,
   the template's memo marked shared and the sample's a new one (its value the template's,
   or none); the lists ``names`` copied.  Returns the state, its dict in *nd (borrowed) */
static PyObject *clone_of(Plan *p, PyObject **nd_out, int memo_value, PyObject *const *names) {
    PyObject *tpl = p->template, *st = NULL, *nd = NULL, *memo = NULL;
    PyObject *d = PyObject_GetAttr(tpl, s_dict);
    if (d == NULL) return NULL;
    if (!PyDict_Check(d)) { PyErr_SetString(PyExc_TypeError, "core: a state's dict"); goto fail; }
    nd = PyDict_Copy(d);
    st = new_obj((PyObject *)Py_TYPE(tpl));
    if (nd == NULL || st == NULL || PyObject_SetAttr(st, s_dict, nd) < 0) goto fail;
    PyObject *old = field(d, k_mt);
    if (old == NULL) goto fail;
    int mine = Py_IS_TYPE(old, (PyTypeObject *)p->memo_type);  /* else: by name */
    if (set_slot(old, mine ? p->off_shared : -1, s_shared, Py_True) < 0) goto fail;
    memo = new_obj(p->memo_type);
    if (memo == NULL) goto fail;
    PyObject *value = Py_None;
    if (memo_value) {
        value = get_slot(old, mine ? p->off_value : -1, s_value);
        if (value == NULL) goto fail;
    } else Py_INCREF(value);
    int r = set_slot(memo, p->off_value, s_value, value);
    Py_DECREF(value);
    if (r < 0 || set_slot(memo, p->off_shared, s_shared, Py_True) < 0) goto fail;
    if (PyDict_SetItem(nd, k_mt, memo) < 0) goto fail;
    for (int i = 0; names[i] != NULL; i++)
        if (copy_field(nd, names[i]) < 0) goto fail;
    Py_DECREF(memo); Py_DECREF(d); Py_DECREF(nd);
    *nd_out = nd;  /* the state's own dict holds it */
    return st;
fail:
    Py_XDECREF(memo); Py_DECREF(d); Py_XDECREF(nd); Py_XDECREF(st);
    return NULL;
}

/* a new list of the items cards[order[from:from + n]] */
static PyObject *cut(PyObject *cards, const int *order, int from, int n) {
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = PyList_GET_ITEM(cards, order[from + i]);
        Py_INCREF(c);
        PyList_SET_ITEM(l, i, c);
    }
    return l;
}

/* the hands: the seat's a copy of the template's, the others' given (stolen) in parts[s] */
static PyObject *hands_of(PyObject *nd, int seat, PyObject **parts) {
    PyObject *old = field(nd, k_hands);
    if (old == NULL) return NULL;
    if (!PyList_Check(old)) { PyErr_SetString(PyExc_TypeError, "core: hands"); return NULL; }
    Py_ssize_t n = PyList_GET_SIZE(old);
    PyObject *hands = PyList_New(n);
    if (hands == NULL) return NULL;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *h = s == seat ? copy_list(PyList_GET_ITEM(old, s)) : parts[s];
        parts[s] = NULL;
        if (h == NULL) { Py_DECREF(hands); return NULL; }
        PyList_SET_ITEM(hands, s, h);
    }
    return hands;
}

/* a list of dicts replaced by a list of their copies (copy-on-write looks) */
static PyObject *copy_dicts(PyObject *l) {
    if (!PyList_Check(l)) { PyErr_SetString(PyExc_TypeError, "core: a list expected"); return NULL; }
    Py_ssize_t n = PyList_GET_SIZE(l);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *d = PyList_GET_ITEM(l, i);
        PyObject *c = PyDict_Check(d) ? PyDict_Copy(d) : PyObject_CallMethod(d, "copy", NULL);
        if (c == NULL) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

/* sum(xs) as the running Python adds floats (3.12 on: Neumaier's compensated sum) */
static double py_sum(const double *x, int n) {
    if (n == 0) return 0.0;
    double f = x[0];
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (int i = 1; i < n; i++) {
        double t = f + x[i];
        if (fabs(f) >= fabs(x[i])) c += (f - t) + x[i];
        else c += (x[i] - t) + f;
        f = t;
    }
    if (c && isfinite(c)) f += c;
#else
    for (int i = 1; i < n; i++) f += x[i];
#endif
    return f;
}

/* ------------------------------------------------------------------ Saboteur, Saboteur 2 */
/* spec: (template, rng_type, memo_type, calls, seat, unknown_cards, sizes [(seat, hand,
   passes)], deck, mazes, looked [(seat, cell)], role_pool, role_seats, weights ([[float]] per
   role seat, by the pool's index) or None, spare, aside, expansion, looks [(a, b)]) */
static int classic_plan(Plan *p, PyObject *spec) {
    PyObject *calls, *sizes, *seats, *weights;
    if (!PyArg_ParseTuple(spec, "OOOOiO!O!iOO!O!O!Oiip" "O!", &p->template, &p->rng_type,
                          &p->memo_type, &calls, &p->seat, &PyList_Type, &p->cards,
                          &PyList_Type, &sizes, &p->deck, &p->mazes, &PyList_Type, &p->looked,
                          &PyList_Type, &p->role_pool, &PyList_Type, &seats, &weights,
                          &p->spare, &p->aside_roles, &p->expansion, &PyList_Type, &p->looks))
        return -1;
    if (read_calls(p, calls) < 0) return -1;
    p->ncards = (int)PyList_GET_SIZE(p->cards);
    p->nother = (int)PyList_GET_SIZE(sizes);
    p->nrseats = (int)PyList_GET_SIZE(seats);
    int npool = (int)PyList_GET_SIZE(p->role_pool), total = 0;
    p->weighted = weights != Py_None;
    if (p->nother >= DMAXS || p->nrseats >= DMAXS || p->ncards > DMAXN || npool > 64
        || p->ncalls < 4 || p->calls[0].n != -1 || p->calls[1].n != p->ncards
        || p->calls[3].n != npool
        || p->ncalls != (p->weighted ? 5 + p->nrseats : 4)
        || (p->weighted && p->calls[4].n != p->nrseats)) goto bad;
    for (int i = 0; i < p->nother; i++) {
        if (!PyArg_ParseTuple(PyList_GET_ITEM(sizes, i), "iii", &p->oseat[i], &p->ohand[i],
                              &p->opass[i])) return -1;
        if (p->oseat[i] < 0 || p->oseat[i] >= DMAXS || p->ohand[i] < 0 || p->opass[i] < 0) goto bad;
        total += p->ohand[i] + p->opass[i];
        p->npass += p->opass[i];
    }
    if (p->deck < 0 || total + p->deck > p->ncards || p->seat < 0 || p->seat >= DMAXS) goto bad;
    p->aside = p->ncards - total - p->deck;
    if (p->npass) {
        p->card_kind = PyMem_Malloc(sizeof(int) * (size_t)(p->ncards + 1));
        if (p->card_kind == NULL) { PyErr_NoMemory(); return -1; }
        for (int i = 0; i < p->ncards; i++) {  /* the unknown cards are sorted: copies in a row */
            int same = i > 0 ? PyObject_RichCompareBool(PyList_GET_ITEM(p->cards, i - 1),
                                                        PyList_GET_ITEM(p->cards, i), Py_EQ) : 0;
            if (same < 0) return -1;
            p->card_kind[i] = same ? p->card_kind[i - 1] : p->nkinds++;
        }
        p->passes = PyMem_Calloc((size_t)(p->nother * p->nkinds + 1), sizeof(PyObject *));
        if (p->passes == NULL) { PyErr_NoMemory(); return -1; }
    }
    for (int i = 0; i < p->nrseats; i++) {
        p->rseat[i] = (int)PyLong_AsLong(PyList_GET_ITEM(seats, i));
        if (p->rseat[i] < 0 || p->rseat[i] >= DMAXS) goto bad;
    }
    if (p->weighted) {
        if (!PyList_Check(weights) || PyList_GET_SIZE(weights) != p->nrseats) goto bad;
        p->weights = PyMem_Malloc(sizeof(double) * (size_t)(p->nrseats * npool + 1));
        if (p->weights == NULL) { PyErr_NoMemory(); return -1; }
        for (int i = 0; i < p->nrseats; i++) {
            PyObject *row = PyList_GET_ITEM(weights, i);
            if (!PyList_Check(row) || PyList_GET_SIZE(row) != npool) goto bad;
            for (int j = 0; j < npool; j++) {
                double w = PyFloat_AsDouble(PyList_GET_ITEM(row, j));
                if (w == -1.0 && PyErr_Occurred()) return -1;
                p->weights[i * npool + j] = w;
            }
        }
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "core: a Saboteur determinizer's plan");
    return -1;
}

/* the tuple (seat, card) of a face-down pass, one for every plan: tuples are values, and a
   few hundred shared ones stay in the processor's caches where each plan's own would not */
static PyObject *pass_tuples;  /* {(seat, card): the same tuple} */
static PyObject *pass_tuple(int seat, PyObject *card) {
    PyObject *t = Py_BuildValue("(iO)", seat, card);
    if (t == NULL) return NULL;
    PyObject *kept = PyDict_SetDefault(pass_tuples, t, t);  /* borrowed */
    Py_XINCREF(kept);
    Py_DECREF(t);
    return kept;
}

/* a sample (Determinizer.sample): the same state as the pure path's, the same words of rng */
static int classic_sample(Plan *p, PyObject *rng, PyObject **result) {
    uint64_t v[4096];
    int order[DMAXN], pool[64], seats_order[DMAXS], dealt[DMAXS];
    PyObject *parts[DMAXS] = {NULL}, *nd, *st = NULL, *x = NULL;
    if (PyList_GET_SIZE(p->cards) != p->ncards) {
        PyErr_SetString(PyExc_RuntimeError, "core: the unknown cards changed");
        return -1;
    }
    if (draw_words(p, rng, v) < 0) return -1;
    st = clone_of(p, &nd, 1, classic_lists);
    if (st == NULL) return -1;
    if (put(nd, k_rng, new_rng(p, v[0])) < 0) goto fail;
    /* the unknown cards: seat by seat the hand then the passes, the pile, the set-aside */
    perm_of(v, &p->calls[1], order);
    /* the passes: the template's, then the other seats' face-down ones (their tuples kept) */
    PyObject *passed = field(nd, k_passed);
    if (passed == NULL) goto fail;
    if (!PyList_Check(passed)) { PyErr_SetString(PyExc_TypeError, "core: passed"); goto fail; }
    Py_ssize_t known = PyList_GET_SIZE(passed);
    PyObject *all = PyList_New(known + p->npass);
    if (all == NULL) goto fail;
    for (Py_ssize_t i = 0; i < known; i++) {
        PyObject *t = PyList_GET_ITEM(passed, i);
        Py_INCREF(t);
        PyList_SET_ITEM(all, i, t);
    }
    if (put(nd, k_passed, all) < 0) goto fail;
    int k = 0;
    for (int i = 0; i < p->nother; i++) {
        int s = p->oseat[i];
        Py_XSETREF(parts[s], cut(p->cards, order, k, p->ohand[i]));
        if (parts[s] == NULL) goto fail;
        k += p->ohand[i];
        for (int j = 0; j < p->opass[i]; j++, k++) {
            PyObject **kept = &p->passes[i * p->nkinds + p->card_kind[order[k]]];
            if (*kept == NULL && (*kept = pass_tuple(s, PyList_GET_ITEM(p->cards, order[k]))) == NULL)
                goto fail;
            Py_INCREF(*kept);
            PyList_SET_ITEM(all, known++, *kept);
        }
    }
    if (put(nd, k_hands, hands_of(nd, p->seat, parts)) < 0
        || put(nd, k_deck, cut(p->cards, order, k, p->deck)) < 0
        || put(nd, k_aside, cut(p->cards, order, k + p->deck, p->aside)) < 0) goto fail;
    /* the maze with the goals dealt (the determinizer's Deals: kept, or made by Python) */
    x = code_of(v, &p->calls[2]);
    if (x == NULL) goto fail;
    PyObject *maze = deal_of(p->mazes, x);
    Py_CLEAR(x);
    if (maze == NULL) goto fail;
    if (put(nd, k_maze, maze) < 0) goto fail;  /* the dict holds it now */
    if (PyList_GET_SIZE(p->looked)) {  /* other seats' map looks at goals still face down */
        PyObject *seen = field(nd, k_seen), *hidden;
        if (seen == NULL || put(nd, k_seen, seen = copy_dicts(seen)) < 0) goto fail;
        if ((hidden = PyObject_GetAttr(maze, s_hidden)) == NULL) goto fail;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p->looked); i++) {
            PyObject *look = PyList_GET_ITEM(p->looked, i);
            PyObject *c = PyTuple_GET_ITEM(look, 1);
            Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(look, 0));
            PyObject *code = PyObject_GetItem(hidden, c);
            int r = code == NULL || s < 0 || s >= PyList_GET_SIZE(seen) ? -1
                    : PyObject_SetItem(PyList_GET_ITEM(seen, s), c, code);
            Py_XDECREF(code);
            if (r < 0) { Py_DECREF(hidden); goto fail; }
        }
        Py_DECREF(hidden);
    }
    /* the dwarf cards (_deal_roles) */
    int npool = p->calls[3].n, nr = p->nrseats, ndealt;
    perm_of(v, &p->calls[3], pool);
    if (!p->weighted) {
        ndealt = nr < npool ? nr : npool;
        for (int i = 0; i < ndealt; i++) { seats_order[i] = i; dealt[i] = pool[i]; }
        memmove(pool, pool + ndealt, sizeof(int) * (size_t)(npool - ndealt));
        npool -= ndealt;
    } else {
        double chances[64];
        perm_of(v, &p->calls[4], seats_order);
        for (int t = 0; t < nr; t++) {
            const double *w = p->weights + seats_order[t] * p->calls[3].n;
            for (int j = 0; j < npool; j++) chances[j] = w[pool[j]];
            uint64_t raw = v[p->calls[5 + t].at];
            double pick = (double)(raw >> 11) / 9007199254740992.0 * py_sum(chances, npool);
            int i = 0, last = npool - 1;
            while (i < last && pick >= chances[i]) { pick -= chances[i]; i++; }
            if (npool == 0) { PyErr_SetString(PyExc_IndexError, "pop from empty list"); goto fail; }
            dealt[t] = pool[i];
            memmove(pool + i, pool + i + 1, sizeof(int) * (size_t)(npool - i - 1));
            npool--;
        }
        ndealt = nr;
    }
    PyObject *roles = field(nd, k_roles);
    if (roles == NULL || put(nd, k_roles, roles = copy_list(roles)) < 0) goto fail;
    for (int t = 0; t < ndealt; t++) {
        int s = p->rseat[seats_order[t]];
        PyObject *role = PyList_GET_ITEM(p->role_pool, dealt[t]);
        Py_INCREF(role);
        if (PyList_SetItem(roles, s, role) < 0) goto fail;
    }
    int spare = p->spare < npool ? p->spare : npool;
    if (put(nd, k_spare_roles, cut(p->role_pool, pool, 0, spare)) < 0) goto fail;
    if (p->expansion) {
        int aside = p->aside_roles < npool - spare ? p->aside_roles : npool - spare;
        if (put(nd, k_hats_aside, cut(p->role_pool, pool, spare, aside)) < 0) goto fail;
        if (PyList_GET_SIZE(p->looks)) {  /* other seats' inspections, on the sampled cards */
            PyObject *insp = field(nd, k_inspected);
            if (insp == NULL || put(nd, k_inspected, insp = copy_dicts(insp)) < 0) goto fail;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p->looks); i++) {
                PyObject *look = PyList_GET_ITEM(p->looks, i);
                PyObject *a = PyTuple_GET_ITEM(look, 0), *b = PyTuple_GET_ITEM(look, 1);
                PyObject *da = PyObject_GetItem(insp, a), *rb = PyObject_GetItem(roles, b);
                int r = da == NULL || rb == NULL ? -1 : PyObject_SetItem(da, b, rb);
                Py_XDECREF(da); Py_XDECREF(rb);
                if (r < 0) goto fail;
            }
        }
    }
    *result = st;
    return 0;
fail:
    for (int s = 0; s < DMAXS; s++) Py_XDECREF(parts[s]);
    Py_XDECREF(x);
    Py_XDECREF(st);
    return -1;
}

/* ------------------------------------------------------------------ The Lost Mines */
/* spec: (template, rng_type, memo_type, calls, seat, unknown_cards, sizes [(seat, hand)],
   deck, aside, mazes, looked [(seat, cell)], codes, treasures [(slots, deals)],
   clans [(seats, options, cumulative, spare)]) */
static int lost_mines_plan(Plan *p, PyObject *spec) {
    PyObject *calls, *sizes;
    if (!PyArg_ParseTuple(spec, "OOOOiO!O!iiOO!OO!O!", &p->template, &p->rng_type,
                          &p->memo_type, &calls, &p->seat, &PyList_Type, &p->cards,
                          &PyList_Type, &sizes, &p->deck, &p->aside, &p->mazes,
                          &PyList_Type, &p->looked, &p->codes, &PyList_Type, &p->treasures,
                          &PyList_Type, &p->clans))
        return -1;
    if (read_calls(p, calls) < 0) return -1;
    p->ncards = (int)PyList_GET_SIZE(p->cards);
    p->nother = (int)PyList_GET_SIZE(sizes);
    int total = 0, ntypes = (int)PyList_GET_SIZE(p->treasures), nchoices = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p->clans); i++) {
        PyObject *clan = PyList_GET_ITEM(p->clans, i);
        if (!PyTuple_Check(clan) || PyTuple_GET_SIZE(clan) != 4
            || !PyList_Check(PyTuple_GET_ITEM(clan, 0)) || !PyList_Check(PyTuple_GET_ITEM(clan, 1))
            || !PyList_Check(PyTuple_GET_ITEM(clan, 2)) || !PyList_Check(PyTuple_GET_ITEM(clan, 3))
            || PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 1)) < 1
            || PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 1)) != PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 2))
            || PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 1)) != PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 3)))
            goto bad;
        nchoices += PyList_GET_SIZE(PyTuple_GET_ITEM(clan, 1)) > 1;
    }
    for (int i = 0; i < ntypes; i++) {
        PyObject *t = PyList_GET_ITEM(p->treasures, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || !PyList_Check(PyTuple_GET_ITEM(t, 0)))
            goto bad;
    }
    if (p->nother >= DMAXS || p->ncards > DMAXN || p->ncalls != 3 + ntypes + nchoices
        || p->calls[0].n != -1 || p->calls[1].n != p->ncards) goto bad;
    for (int i = 3 + ntypes; i < p->ncalls; i++) if (p->calls[i].n != -1) goto bad;
    for (int i = 0; i < p->nother; i++) {
        if (!PyArg_ParseTuple(PyList_GET_ITEM(sizes, i), "ii", &p->oseat[i], &p->ohand[i]))
            return -1;
        if (p->oseat[i] < 0 || p->oseat[i] >= DMAXS || p->ohand[i] < 0) goto bad;
        total += p->ohand[i];
    }
    if (p->deck < 0 || p->aside < 0 || total + p->deck + p->aside > p->ncards
        || p->seat < 0 || p->seat >= DMAXS) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "core: a Lost Mines determinizer's plan");
    return -1;
}

/* _pick: the first cumulative weight above the draw, the last if none is */
static Py_ssize_t pick_of(uint64_t number, PyObject *cumulative) {
    Py_ssize_t n = PyList_GET_SIZE(cumulative), lo = 0, hi = n;
    double last = PyFloat_AsDouble(PyList_GET_ITEM(cumulative, n - 1));
    if (last == -1.0 && PyErr_Occurred()) return -1;
    double x = (double)number / 18446744073709551616.0 * last;
    while (lo < hi) {  /* bisect_right */
        Py_ssize_t mid = (lo + hi) / 2;
        double c = PyFloat_AsDouble(PyList_GET_ITEM(cumulative, mid));
        if (c == -1.0 && PyErr_Occurred()) return -1;
        if (x < c) hi = mid; else lo = mid + 1;
    }
    return lo < n - 1 ? lo : n - 1;
}

/* a sample (Determinizer.sample of games/lost_mines/determinize.py) */
static int lost_mines_sample(Plan *p, PyObject *rng, PyObject **result) {
    uint64_t v[4096];
    int order[DMAXN];
    PyObject *parts[DMAXS] = {NULL}, *nd, *st = NULL, *x = NULL;
    if (PyList_GET_SIZE(p->cards) != p->ncards) {
        PyErr_SetString(PyExc_RuntimeError, "core: the unknown cards changed");
        return -1;
    }
    if (draw_words(p, rng, v) < 0) return -1;
    st = clone_of(p, &nd, 0, lost_mines_lists);
    if (st == NULL) return -1;
    if (put(nd, k_rng, new_rng(p, v[0])) < 0) goto fail;
    /* the unknown cards: the other hands, the pile, the set-aside cards, face-down discards */
    perm_of(v, &p->calls[1], order);
    int k = 0;
    for (int i = 0; i < p->nother; i++) {
        Py_XSETREF(parts[p->oseat[i]], cut(p->cards, order, k, p->ohand[i]));
        if (parts[p->oseat[i]] == NULL) goto fail;
        k += p->ohand[i];
    }
    PyObject *discards = field(nd, k_discards);  /* the clone's copy */
    if (put(nd, k_hands, hands_of(nd, p->seat, parts)) < 0
        || put(nd, k_deck, cut(p->cards, order, k, p->deck)) < 0
        || put(nd, k_aside, cut(p->cards, order, k + p->deck, p->aside)) < 0
        || discards == NULL) goto fail;
    k += p->deck + p->aside;
    for (; k < p->ncards; k++)
        if (PyList_Append(discards, PyList_GET_ITEM(p->cards, order[k])) < 0) goto fail;
    /* the maze with the mines dealt */
    x = code_of(v, &p->calls[2]);
    if (x == NULL) goto fail;
    PyObject *maze = deal_of(p->mazes, x);
    Py_CLEAR(x);
    if (maze == NULL) goto fail;
    if (put(nd, k_maze, maze) < 0) goto fail;
    if (PyList_GET_SIZE(p->looked)) {
        PyObject *seen = field(nd, k_seen_mines), *hidden, *cells;
        if (seen == NULL || put(nd, k_seen_mines, seen = copy_dicts(seen)) < 0) goto fail;
        if ((hidden = PyObject_GetAttr(maze, s_hidden)) == NULL) goto fail;
        if ((cells = PyObject_GetAttr(maze, s_cells)) == NULL) { Py_DECREF(hidden); goto fail; }
        int r = 0;
        for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(p->looked); i++) {
            PyObject *look = PyList_GET_ITEM(p->looked, i), *code;
            PyObject *c = PyTuple_GET_ITEM(look, 1);
            Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(look, 0));
            r = PySequence_Contains(hidden, c);
            if (r == 1) code = PyObject_GetItem(hidden, c);
            else if (r == 0) {
                PyObject *ot = PyObject_GetItem(cells, c);
                code = ot == NULL ? NULL : PyObject_GetItem(p->codes, ot);
                Py_XDECREF(ot);
            } else code = NULL;
            r = code == NULL || s < 0 || s >= PyList_GET_SIZE(seen) ? -1
                : PyObject_SetItem(PyList_GET_ITEM(seen, s), c, code);
            Py_XDECREF(code);
        }
        Py_DECREF(hidden); Py_DECREF(cells);
        if (r < 0) goto fail;
    }
    /* the treasures' values, type by type: the slots' and the ones left out */
    PyObject *layout = field(nd, k_layout), *out = PyList_New(0);
    if (put(nd, k_treasures_out, out) < 0 || layout == NULL
        || put(nd, k_layout, layout = copy_list(layout)) < 0) goto fail;
    int at = 3;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p->treasures); i++, at++) {
        PyObject *t = PyList_GET_ITEM(p->treasures, i), *slots = PyTuple_GET_ITEM(t, 0);
        PyObject *deals = PyTuple_GET_ITEM(t, 1), *deal, *values, *left;
        if ((x = code_of(v, &p->calls[at])) == NULL) goto fail;
        deal = deal_of(deals, x);
        Py_CLEAR(x);
        if (deal == NULL) goto fail;
        if (!PyTuple_Check(deal) || PyTuple_GET_SIZE(deal) != 2
            || !PyList_Check(values = PyTuple_GET_ITEM(deal, 0))
            || !PyList_Check(left = PyTuple_GET_ITEM(deal, 1))) {
            Py_DECREF(deal);
            PyErr_SetString(PyExc_TypeError, "core: a deal of treasures");
            goto fail;
        }
        Py_ssize_t m = PyList_GET_SIZE(slots) < PyList_GET_SIZE(values)
                       ? PyList_GET_SIZE(slots) : PyList_GET_SIZE(values);
        int r = 0;
        for (Py_ssize_t j = 0; r == 0 && j < m; j++) {
            PyObject *code = PyList_GET_ITEM(values, j);
            Py_ssize_t slot = PyLong_AsSsize_t(PyList_GET_ITEM(slots, j));
            if (slot < 0 || slot >= PyList_GET_SIZE(layout)) { r = -1; break; }
            Py_INCREF(code);
            r = PyList_SetItem(layout, slot, code);
        }
        if (r == 0) r = PyList_SetSlice(out, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, left);  /* out += left */
        else if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "core: a slot");
        Py_DECREF(deal);
        if (r < 0) goto fail;
    }
    /* the clans' dwarf cards: a deal drawn by weight where there is a choice */
    PyObject *dwarves = field(nd, k_dwarves), *aside = PyList_New(0);
    if (put(nd, k_dwarf_aside, aside) < 0 || dwarves == NULL
        || put(nd, k_dwarves, dwarves = copy_list(dwarves)) < 0) goto fail;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(p->clans); i++) {
        PyObject *clan = PyList_GET_ITEM(p->clans, i);
        PyObject *seats = PyTuple_GET_ITEM(clan, 0), *options = PyTuple_GET_ITEM(clan, 1);
        Py_ssize_t choice = 0;
        if (PyList_GET_SIZE(options) > 1) {
            choice = pick_of(v[p->calls[at].at], PyTuple_GET_ITEM(clan, 2));
            at++;
            if (choice < 0) goto fail;
        }
        PyObject *deal = PyList_GET_ITEM(options, choice);
        if (!PyTuple_Check(deal) || PyTuple_GET_SIZE(deal) != PyList_GET_SIZE(seats)) {
            PyErr_SetString(PyExc_ValueError, "core: a clan's deal");
            goto fail;
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(seats); j++) {
            Py_ssize_t s = PyLong_AsSsize_t(PyList_GET_ITEM(seats, j));
            PyObject *d = PyTuple_GET_ITEM(deal, j);
            if (s < 0 || s >= PyList_GET_SIZE(dwarves)) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "core: a seat");
                goto fail;
            }
            Py_INCREF(d);
            PyList_SetItem(dwarves, s, d);
        }
        if (PyList_SetSlice(aside, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX,
                            PyList_GET_ITEM(PyTuple_GET_ITEM(clan, 3), choice)) < 0) goto fail;
    }
    *result = st;
    return 0;
fail:
    for (int s = 0; s < DMAXS; s++) Py_XDECREF(parts[s]);
    Py_XDECREF(x);
    Py_XDECREF(st);
    return -1;
}

/* ------------------------------------------------------------------ entry points */
/* det_plan(kind, spec) -> plan: "classic" (Saboteur and Saboteur 2) or "lost-mines" */
static PyObject *det_plan(PyObject *self, PyObject *args) {
    (void)self;
    const char *kind;
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "sO!", &kind, &PyTuple_Type, &spec)) return NULL;
    Plan *p = PyMem_Calloc(1, sizeof(Plan));
    if (p == NULL) return PyErr_NoMemory();
    int r;
    if (strcmp(kind, "classic") == 0) { p->kind = K_CLASSIC; r = classic_plan(p, spec); }
    else if (strcmp(kind, "lost-mines") == 0) { p->kind = K_LOST_MINES; r = lost_mines_plan(p, spec); }
    else { PyErr_SetString(PyExc_ValueError, "core: no such determinizer"); r = -1; }
    if (r == 0 && (!PyType_Check(p->rng_type) || !PyType_Check(p->memo_type))) {
        PyErr_SetString(PyExc_TypeError, "core: a determinizer's types");
        r = -1;
    }
    if (r < 0) { plan_release(p); return NULL; }
    p->off_state = slot_offset(p->rng_type, s_state);
    p->off_value = slot_offset(p->memo_type, s_value);
    p->off_shared = slot_offset(p->memo_type, s_shared);
    Py_INCREF(spec);
    p->spec = spec;
    PyObject *capsule = PyCapsule_New(p, "pysaboteur.det_plan", plan_free);
    if (capsule == NULL) plan_release(p);
    return capsule;
}

/* det_sample(plan, rng) -> a sample, the determinizer's sample(rng) */
static PyObject *det_sample(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    PyObject *result = NULL;
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "det_sample(plan, rng)"); return NULL; }
    PyObject *rng = args[1];
    Plan *p = PyCapsule_GetPointer(args[0], "pysaboteur.det_plan");
    if (p == NULL) return NULL;
    int r = p->kind == K_CLASSIC ? classic_sample(p, rng, &result)
                                 : lost_mines_sample(p, rng, &result);
    return r < 0 ? NULL : result;
}

PyMethodDef determinize_methods[] = {
    {"det_plan", det_plan, METH_VARARGS,
     "A determinizer's plan for the core: (kind, spec) -> plan (see core/determinize.c)."},
    {"det_select", det_select, METH_O,
     "Whether the core selects a Lehmer code's items with pdep: (on or None) -> the previous."},
    {"det_sample", (PyCFunction)(void (*)(void))det_sample, METH_FASTCALL,
     "A determinizer's sample on the core: (plan, rng) -> state."},
    {NULL, NULL, 0, NULL},
};

int determinize_init(void) {
    struct { PyObject **at; const char *text; } names[] = {
        {&s_dict, "__dict__"}, {&s_mt, "_mt"}, {&s_value, "value"}, {&s_shared, "shared"},
        {&s_state, "state"}, {&s_hidden, "hidden"}, {&s_cells, "cells"}, {&k_rng, "rng"},
        {&k_mt, "_mt"}, {&k_history, "history"}, {&k_actors, "actors"}, {&k_deck, "deck"},
        {&k_discards, "discards"}, {&k_passed, "passed"}, {&k_hands, "hands"},
        {&k_aside, "aside"}, {&k_maze, "maze"}, {&k_seen, "seen"}, {&k_roles, "roles"},
        {&k_spare_roles, "spare_roles"}, {&k_hats_aside, "hats_aside"},
        {&k_inspected, "inspected"}, {&k_pawn, "pawn"}, {&k_pawn_seg, "pawn_seg"},
        {&k_seen_mines, "seen_mines"}, {&k_layout, "layout"},
        {&k_treasures_out, "treasures_out"}, {&k_dwarves, "dwarves"},
        {&k_dwarf_aside, "dwarf_aside"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((*names[i].at = PyUnicode_InternFromString(names[i].text)) == NULL) return -1;
    classic_lists[0] = k_history; classic_lists[1] = k_actors; classic_lists[2] = k_discards;
    lost_mines_lists[0] = k_history; lost_mines_lists[1] = k_actors; lost_mines_lists[2] = k_pawn;
    lost_mines_lists[3] = k_pawn_seg; lost_mines_lists[4] = k_discards;
    for (int d = 2; d <= DMAXN; d++) magic[d] = UINT64_MAX / (uint64_t)d + 1;
    for (int byte = 0; byte < 256; byte++)
        for (int rank = 0; rank < 8; rank++) {
            int seen = 0, at = 8;
            for (int bit = 0; bit < 8; bit++)
                if (byte >> bit & 1 && seen++ == rank) { at = bit; break; }
            select_in_byte[byte | rank << 8] = (uint8_t)at;
        }
#ifdef HAVE_PDEP
    __builtin_cpu_init();
    use_pdep = __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam15h")
               && !__builtin_cpu_is("amdfam17h");
#endif
    empty = PyTuple_New(0);
    pass_tuples = PyDict_New();
    return empty == NULL || pass_tuples == NULL ? -1 : 0;
}
