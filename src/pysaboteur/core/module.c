/* pysaboteur._core: the optional compiled core (issue 24), one module made of each game
 * family's file (core.h lists them; setup.py compiles them together).  The pure-Python
 * engine stays the reference: pysaboteur.core says which path runs and why.
 */
#include "core.h"

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pysaboteur._core",
    "The optional compiled core of pysaboteur (see pysaboteur.core).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (classic_init() < 0 || PyModule_AddFunctions(m, classic_methods) < 0
        || lost_mines_init() < 0 || PyModule_AddFunctions(m, lost_mines_methods) < 0
        || duel_init() < 0 || PyModule_AddFunctions(m, duel_methods) < 0
        || determinize_init() < 0 || PyModule_AddFunctions(m, determinize_methods) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
