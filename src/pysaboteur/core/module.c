/* pysaboteur._core: the optional compiled core (issue 24), one module made of each game
 * family's file (core.h lists them; setup.py compiles them together).  The pure-Python
 * engine stays the reference: pysaboteur.core says which path runs and why.
 */
#include "core.h"

/* ------------------------------------------------------------------ engine.rng.Rng */
/* Rng.below and Rng.next64 in C (core.h's SplitMix64 step, the same numbers): the hottest
   call of every loop that picks moves.  Installed on the Rng class as method descriptors
   (rng_methods(Rng) -> {name: descriptor}: pysaboteur.core puts them on the class and
   takes them off again when the engine runs pure). */
static PyObject *rng_state(PyObject *self, uint64_t *s) {
    PyObject *v = get_attr(self, "state");
    if (v == NULL) return NULL;
    *s = PyLong_AsUnsignedLongLongMask(v);  /* (state + GAMMA) & MASK: any int, as Python */
    if (*s == (uint64_t)-1 && PyErr_Occurred()) { Py_DECREF(v); return NULL; }
    return v;
}

static PyObject *rng_below(PyObject *self, PyObject *n) {
    uint64_t s, k;
    int overflow = 0;
    long long nn = PyLong_Check(n) ? PyLong_AsLongLongAndOverflow(n, &overflow) : -1;
    if (nn < 0 || overflow) {  /* not a small count: Python's arithmetic, the reference's */
        if (nn == -1 && PyErr_Occurred()) return NULL;
        PyObject *x = PyObject_CallMethod(self, "next64", NULL), *r = NULL;
        if (x == NULL) return NULL;
        PyObject *p = PyNumber_Multiply(x, n), *sh = PyLong_FromLong(64);
        if (p != NULL && sh != NULL) r = PyNumber_Rshift(p, sh);
        Py_DECREF(x); Py_XDECREF(p); Py_XDECREF(sh);
        return r;
    }
    PyObject *old = rng_state(self, &s);
    if (old == NULL) return NULL;
    Py_DECREF(old);
    k = below(&s, (uint64_t)nn);
    PyObject *ns = PyLong_FromUnsignedLongLong(s);
    if (ns == NULL || set_attr(self, "state", ns) < 0) { Py_XDECREF(ns); return NULL; }
    Py_DECREF(ns);
    return PyLong_FromUnsignedLongLong(k);
}

static PyObject *rng_next64(PyObject *self, PyObject *noargs) {
    (void)noargs;
    uint64_t s;
    PyObject *old = rng_state(self, &s);
    if (old == NULL) return NULL;
    Py_DECREF(old);
    uint64_t z = (s += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    PyObject *ns = PyLong_FromUnsignedLongLong(s);
    if (ns == NULL || set_attr(self, "state", ns) < 0) { Py_XDECREF(ns); return NULL; }
    Py_DECREF(ns);
    return PyLong_FromUnsignedLongLong(z);
}

static PyMethodDef rng_defs[] = {
    {"below", rng_below, METH_O, "A number in range(n) (engine.rng.Rng.below, in C)."},
    {"next64", rng_next64, METH_NOARGS, "The next 64-bit number (engine.rng.Rng.next64, in C)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *rng_methods(PyObject *self, PyObject *cls) {
    (void)self;
    return held_methods(rng_defs, cls);  /* (core.h: a class's methods made of C functions) */
}

static PyMethodDef module_methods[] = {
    {"rng_methods", rng_methods, METH_O,
     "The C methods of engine.rng.Rng (below, next64) for the class given: {name: method}."},
    {NULL, NULL, 0, NULL},
};

/* clone.c: State.clone for every game (a spec per state class, no game's rules) */
extern PyMethodDef clone_methods[];
int clone_init(void);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pysaboteur._core",
    "The optional compiled core of pysaboteur (see pysaboteur.core).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddFunctions(m, module_methods) < 0
        || classic_init() < 0 || PyModule_AddFunctions(m, classic_methods) < 0
        || lost_mines_init() < 0 || PyModule_AddFunctions(m, lost_mines_methods) < 0
        || duel_init() < 0 || PyModule_AddFunctions(m, duel_methods) < 0
        || determinize_init() < 0 || PyModule_AddFunctions(m, determinize_methods) < 0
        || clone_init() < 0 || PyModule_AddFunctions(m, clone_methods) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
