/* State.clone on the compiled core (issue 24): one function for every game, which knows
 * nothing of any game.  A game's state class says what its clone copies in a spec compiled
 * once in Python (pysaboteur.core.CloneSpec; cloner(spec) here makes it a plan and gives
 * back a callable: state -> its clone); the games' own clone methods stay the reference and
 * the pure path, and the one made here is theirs, step for step:
 *
 *     new = cls.__new__(cls)                    (cls: the spec's, else the state's own)
 *     new.__dict__ = nd = state.__dict__.copy()
 *     nd[rng] = a new Rng of the state's rng's state (as the spec's way says)
 *     state's memo.shared = True; nd[memo] = a new Memo (value: the old one's, or None),
 *                                            shared
 *     nd[name] = nd[name].copy()                for name in the spec's lists
 *     nd[name] = [x.copy() for x in nd[name]]   for name in the spec's lists of lists
 *
 * Everything else is shared with the state, copy-on-write, as the games' docstrings say.
 */
#include "core.h"
#include <structmember.h>

/* how a clone's generator is made from the state's (the spec's rng_way) */
enum {
    RNG_SET = 0,    /* Rng.__new__(Rng), its state the old one's as it is (ClassicState) */
    RNG_NEW = 1,    /* Rng(old.state): the state masked to 64 bits (DuelState) */
    RNG_CLONE = 2,  /* old.clone(): Rng's own is Rng(self.state) (LostMinesState) */
};

typedef struct {
    PyObject *cls;               /* the clone's class, NULL: the state's own */
    PyObject *plain;             /* the class whose dict is read and set without look-ups */
    PyObject *lists, *nested;    /* tuples of interned field names */
    PyObject *rng_name, *memo_name;
    int rng_way, memo_value;
    PyObject *rng_type, *memo_type, *rng_clone;  /* engine.rng.Rng, engine.maze.Memo, Rng.clone */
    Py_ssize_t off_state, off_value, off_shared; /* their __slots__ (-1: by name) */
} Plan;

static PyObject *s_dict, *s_state, *s_value, *s_shared, *s_copy, *s_clone, *empty, *mask;

/* a new object of ``type`` as type.__new__(type) makes it: object.__new__'s allocation
   where that is the class's __new__ and all it does (no arguments to check, not abstract,
   no instance dict to set up: the __slots__ classes Rng and Memo) */
#ifndef Py_TPFLAGS_MANAGED_DICT
#define Py_TPFLAGS_MANAGED_DICT 0
#endif
static inline PyObject *new_of(PyTypeObject *t) {
    if (t->tp_new == PyBaseObject_Type.tp_new && t->tp_dictoffset == 0
        && !(t->tp_flags & (Py_TPFLAGS_IS_ABSTRACT | Py_TPFLAGS_MANAGED_DICT)))
        return t->tp_alloc(t, 0);
    return t->tp_new(t, empty, NULL);
}

/* a __slots__ member's offset in the objects of ``type`` (-1: not a plain object slot of a
   type with the generic attribute access: then the attribute is read and set by name) */
static Py_ssize_t slot_of(PyObject *type, PyObject *name) {
    PyTypeObject *t = (PyTypeObject *)type;
    if (t->tp_setattro != PyObject_GenericSetAttr || t->tp_getattro != PyObject_GenericGetAttr)
        return -1;
    PyObject *descr = _PyType_Lookup(t, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    return m->type == T_OBJECT_EX && !(m->flags & READONLY) ? m->offset : -1;
}


/* the field ``name`` of a state's dict: borrowed (AttributeError, as self.name raises) */
static inline PyObject *field_of(PyObject *d, PyObject *name) {
    PyObject *v = PyDict_GetItemWithError(d, name);
    if (v == NULL && !PyErr_Occurred()) PyErr_SetObject(PyExc_AttributeError, name);
    return v;
}

/* x.copy(): a list's slice, else the object's own copy */
static inline PyObject *copy_of(PyObject *x) {
    if (PyList_CheckExact(x)) return PyList_GetSlice(x, 0, PY_SSIZE_T_MAX);
    return PyObject_CallMethodNoArgs(x, s_copy);
}

/* [x.copy() for x in l] */
static PyObject *copies_of(PyObject *l) {
    if (!PyList_CheckExact(l)) {
        PyObject *out = PyList_New(0), *it = PyObject_GetIter(l), *x;
        if (out == NULL || it == NULL) { Py_XDECREF(out); Py_XDECREF(it); return NULL; }
        while ((x = PyIter_Next(it)) != NULL) {
            PyObject *c = copy_of(x);
            Py_DECREF(x);
            if (c == NULL || PyList_Append(out, c) < 0) { Py_XDECREF(c); Py_CLEAR(out); break; }
            Py_DECREF(c);
        }
        Py_DECREF(it);
        if (out != NULL && PyErr_Occurred()) Py_CLEAR(out);
        return out;
    }
    Py_ssize_t n = PyList_GET_SIZE(l);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        if (i >= PyList_GET_SIZE(l)) {  /* a copy called back into Python and cut l */
            if (PyList_SetSlice(out, i, n, NULL) < 0) Py_CLEAR(out);
            break;
        }
        PyObject *x = PyList_GET_ITEM(l, i);
        Py_INCREF(x);
        PyObject *c = copy_of(x);
        Py_DECREF(x);
        if (c == NULL) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

/* the clone's generator, from the state's ``old`` (a new reference) */
static PyObject *rng_of(const Plan *p, PyObject *old) {
    int way = p->rng_way;
    if (way == RNG_CLONE) {
        /* Rng's own clone is Rng(self.state); anything else is called */
        PyObject *own = Py_IS_TYPE(old, (PyTypeObject *)p->rng_type)
            ? _PyType_Lookup(Py_TYPE(old), s_clone) : NULL;
        if (own != p->rng_clone) return PyObject_CallMethodNoArgs(old, s_clone);
        way = RNG_NEW;
    }
    int mine = Py_IS_TYPE(old, (PyTypeObject *)p->rng_type);
    PyObject *state = get_slot(old, mine ? p->off_state : -1, s_state);
    if (state == NULL) return NULL;
    if (way == RNG_NEW) {  /* seed & _MASK: the same number when it is one of 64 bits */
        int fits = PyLong_CheckExact(state);
        if (fits && PyLong_AsUnsignedLongLong(state) == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) { Py_DECREF(state); return NULL; }
            PyErr_Clear();
            fits = 0;
        }
        if (!fits) Py_SETREF(state, PyNumber_And(state, mask));
        if (state == NULL) return NULL;
    }
    PyObject *r = new_of((PyTypeObject *)p->rng_type);
    if (r == NULL || set_slot(r, p->off_state, s_state, state) < 0) Py_CLEAR(r);
    Py_DECREF(state);
    return r;
}

/* the clone's memo, the state's ``old`` marked shared (a new reference) */
static PyObject *memo_of(const Plan *p, PyObject *old) {
    int mine = Py_IS_TYPE(old, (PyTypeObject *)p->memo_type);
    if (set_slot(old, mine ? p->off_shared : -1, s_shared, Py_True) < 0) return NULL;
    PyObject *value = Py_None;
    if (p->memo_value) {
        value = get_slot(old, mine ? p->off_value : -1, s_value);
        if (value == NULL) return NULL;
    } else Py_INCREF(value);
    PyObject *memo = new_of((PyTypeObject *)p->memo_type);
    if (memo == NULL || set_slot(memo, p->off_value, s_value, value) < 0
        || set_slot(memo, p->off_shared, s_shared, Py_True) < 0) Py_CLEAR(memo);
    Py_DECREF(value);
    return memo;
}

static int put_new(PyObject *d, PyObject *k, PyObject *v) {  /* steals v */
    if (v == NULL) return -1;
    int r = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return r;
}

static PyObject *clone_call(PyObject *capsule, PyObject *state) {
    const Plan *p = PyCapsule_GetPointer(capsule, NULL);
    if (p == NULL) return NULL;
    /* the class the plan was made for: its __dict__ is the object's own (no property of a
       class of its own: checked by cloner), read and set as object's descriptor does */
    int plain = (PyObject *)Py_TYPE(state) == p->plain;
    PyObject *d = plain ? PyObject_GenericGetDict(state, NULL) : PyObject_GetAttr(state, s_dict);
    PyObject *nd = NULL, *new = NULL;
    if (d == NULL) return NULL;
    if (!PyDict_Check(d)) { PyErr_SetString(PyExc_TypeError, "core: a state's __dict__"); goto fail; }
    PyTypeObject *cls = p->cls != NULL ? (PyTypeObject *)p->cls : Py_TYPE(state);
    new = new_of(cls);
    if (new == NULL || (nd = PyDict_Copy(d)) == NULL) goto fail;
    if ((PyObject *)cls == p->plain ? PyObject_GenericSetDict(new, nd, NULL) < 0
                                    : PyObject_SetAttr(new, s_dict, nd) < 0)
        goto fail;
    PyObject *old = field_of(d, p->rng_name);
    if (old == NULL || put_new(nd, p->rng_name, rng_of(p, old)) < 0) goto fail;
    old = field_of(d, p->memo_name);
    if (old == NULL || put_new(nd, p->memo_name, memo_of(p, old)) < 0) goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->lists); i++) {
        PyObject *name = PyTuple_GET_ITEM(p->lists, i), *l = field_of(nd, name);
        if (l == NULL || put_new(nd, name, copy_of(l)) < 0) goto fail;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p->nested); i++) {
        PyObject *name = PyTuple_GET_ITEM(p->nested, i), *l = field_of(nd, name);
        if (l == NULL || put_new(nd, name, copies_of(l)) < 0) goto fail;
    }
    Py_DECREF(d);
    Py_DECREF(nd);
    return new;
fail:
    Py_DECREF(d);
    Py_XDECREF(nd);
    Py_XDECREF(new);
    return NULL;
}

static PyMethodDef clone_def = {
    "clone", clone_call, METH_O, "The state's clone on the compiled core (core/clone.c)."};

static void plan_free(PyObject *capsule) {
    Plan *p = PyCapsule_GetPointer(capsule, NULL);
    if (p == NULL) { PyErr_Clear(); return; }
    Py_XDECREF(p->cls); Py_XDECREF(p->plain); Py_XDECREF(p->lists); Py_XDECREF(p->nested);
    Py_XDECREF(p->rng_name); Py_XDECREF(p->memo_name);
    Py_XDECREF(p->rng_type); Py_XDECREF(p->memo_type); Py_XDECREF(p->rng_clone);
    PyMem_Free(p);
}

/* a tuple of field names, each interned (a new reference) */
static PyObject *names_of(PyObject *seq) {
    PyObject *given = PySequence_Tuple(seq);
    if (given == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(given);
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != NULL && i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(given, i);
        if (!PyUnicode_CheckExact(s)) {
            PyErr_SetString(PyExc_TypeError, "core: a clone's fields are names");
            Py_CLEAR(t);
            break;
        }
        Py_INCREF(s);
        PyUnicode_InternInPlace(&s);
        PyTuple_SET_ITEM(t, i, s);
    }
    Py_DECREF(given);
    return t;
}

/* Is ``__dict__`` of the objects of ``type`` the one every class gets (the object's own
   dict, read and set by the generic functions), and their attributes generic? */
static int plain_dict(PyObject *type) {
    PyTypeObject *t = (PyTypeObject *)type;
    if (!(t->tp_flags & Py_TPFLAGS_HEAPTYPE) || t->tp_getattro != PyObject_GenericGetAttr
        || t->tp_setattro != PyObject_GenericSetAttr)
        return 0;
    PyObject *descr = _PyType_Lookup(t, s_dict);
    return descr != NULL && Py_IS_TYPE(descr, &PyGetSetDescr_Type)
        && ((PyGetSetDescrObject *)descr)->d_getset->set != NULL
        && strcmp(((PyGetSetDescrObject *)descr)->d_getset->name, "__dict__") == 0
        && PyType_IsSubtype(((PyDescrObject *)descr)->d_type, &PyBaseObject_Type);
}

/* cloner(key, cls, lists, nested, rng_name, rng_way, memo_name, memo_value, Rng, Memo) ->
   a function state -> clone (cls None: the state's own class; key: the class of the states
   it will clone, mostly) */
static PyObject *cloner(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *key, *cls, *lists, *nested, *rng_name, *memo_name, *rng_type, *memo_type;
    int rng_way, memo_value;
    if (!PyArg_ParseTuple(args, "O!OOOUiUpO!O!:cloner", &PyType_Type, &key, &cls, &lists,
                          &nested, &rng_name, &rng_way, &memo_name, &memo_value, &PyType_Type,
                          &rng_type, &PyType_Type, &memo_type))
        return NULL;
    if (cls != Py_None && !PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "core: a clone's class");
        return NULL;
    }
    if (rng_way < RNG_SET || rng_way > RNG_CLONE) {
        PyErr_SetString(PyExc_ValueError, "core: a clone's rng way");
        return NULL;
    }
    Plan *p = PyMem_Calloc(1, sizeof(Plan));
    if (p == NULL) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(p, NULL, plan_free);
    if (capsule == NULL) { PyMem_Free(p); return NULL; }
    if (cls != Py_None) { Py_INCREF(cls); p->cls = cls; }
    if (plain_dict(key)) { Py_INCREF(key); p->plain = key; }
    Py_INCREF(rng_type); p->rng_type = rng_type;
    Py_INCREF(memo_type); p->memo_type = memo_type;
    Py_INCREF(rng_name); PyUnicode_InternInPlace(&rng_name); p->rng_name = rng_name;
    Py_INCREF(memo_name); PyUnicode_InternInPlace(&memo_name); p->memo_name = memo_name;
    p->rng_way = rng_way;
    p->memo_value = memo_value;
    p->rng_clone = _PyType_Lookup((PyTypeObject *)rng_type, s_clone);
    Py_XINCREF(p->rng_clone);
    p->off_state = slot_of(rng_type, s_state);
    p->off_value = slot_of(memo_type, s_value);
    p->off_shared = slot_of(memo_type, s_shared);
    if ((p->lists = names_of(lists)) == NULL || (p->nested = names_of(nested)) == NULL) {
        Py_DECREF(capsule);
        return NULL;
    }
    PyObject *fn = PyCFunction_NewEx(&clone_def, capsule, NULL);
    Py_DECREF(capsule);
    return fn;
}

PyMethodDef clone_methods[] = {
    {"cloner", cloner, METH_VARARGS,
     "A state class's clone on the core: (key, cls, lists, nested, rng_name, rng_way, memo_name, "
     "memo_value, Rng, Memo) -> function(state) -> clone (see core/clone.c)."},
    {NULL, NULL, 0, NULL},
};

int clone_init(void) {
    struct { PyObject **at; const char *text; } names[] = {
        {&s_dict, "__dict__"}, {&s_state, "state"}, {&s_value, "value"},
        {&s_shared, "shared"}, {&s_copy, "copy"}, {&s_clone, "clone"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((*names[i].at = PyUnicode_InternFromString(names[i].text)) == NULL) return -1;
    if ((empty = PyTuple_New(0)) == NULL) return -1;
    mask = PyLong_FromUnsignedLongLong(UINT64_MAX);
    return mask == NULL ? -1 : 0;
}
