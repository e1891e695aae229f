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

/* ------------------------------------------------------------------ attributes */
/* attribute names as interned str objects, made once (PyObject_GetAttrString would make and
   hash a new str at every call): by the address of the C literal; one cache per file */
static PyObject *name_of(const char *name) {
    static const char *keys[128];
    static PyObject *vals[128];
    static int n;
    for (int i = 0; i < n; i++) if (keys[i] == name) return vals[i];
    PyObject *s = PyUnicode_InternFromString(name);  /* kept for the process's life */
    if (s != NULL && n < 128) { keys[n] = name; vals[n] = s; n++; }
    return s;
}
static inline PyObject *get_attr(PyObject *o, const char *name) {
    PyObject *k = name_of(name);
    return k == NULL ? NULL : PyObject_GetAttr(o, k);
}
static inline int set_attr(PyObject *o, const char *name, PyObject *v) {
    PyObject *k = name_of(name);
    return k == NULL ? -1 : PyObject_SetAttr(o, k, v);
}
static inline int del_attr(PyObject *o, const char *name) {
    PyObject *k = name_of(name);
    return k == NULL ? -1 : PyObject_DelAttr(o, k);
}

/* ------------------------------------------------------------------ a state's fields */
/* an int attribute (0; -1: error) */
static inline int core_attr_int(PyObject *o, const char *name, int *out) {
    PyObject *v = get_attr(o, name);
    if (v == NULL) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}
/* an engine.rng.Rng's state, read and written (0; -1: error) */
static inline int core_get_rng(PyObject *rng, uint64_t *s) {
    PyObject *v = get_attr(rng, "state");
    if (v == NULL) return -1;
    *s = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}
static inline int core_put_rng(PyObject *rng, uint64_t s) {
    PyObject *v = PyLong_FromUnsignedLongLong(s);
    if (v == NULL) return -1;
    int r = set_attr(rng, "state", v);
    Py_DECREF(v);
    return r;
}
/* a state's ``terminal`` and ``_round`` (0; -1: error) */
static inline int core_state_flags(PyObject *st, int *terminal, int *round_no) {
    PyObject *v = get_attr(st, "terminal");
    if (v == NULL) return -1;
    *terminal = PyObject_IsTrue(v);
    Py_DECREF(v);
    return core_attr_int(st, "_round", round_no);
}

/* ------------------------------------------------------------------ the game families */
/* classic.c: Saboteur and Saboteur 2 */
extern PyMethodDef classic_methods[];
int classic_init(void);
/* lost_mines.c: The Lost Mines */
extern PyMethodDef lost_mines_methods[];
int lost_mines_init(void);

#endif
