"""The optional compiled core (issue 24): an accelerator behind the engine's API, never a
requirement.

``pip install -e .`` builds the C extension ``pysaboteur._core`` where a C compiler and the
Python headers are there (``setup.py``); where the build cannot run, the install still
succeeds and the engine runs pure.  The pure-Python engine stays the reference and the
readable statement of the rules: the core plays exactly its games (the same states,
histories, round results and generator states, bit for bit; ``tests/test_core.py`` and
``python -m pysaboteur.core.differential``) and reads every card table from it.

* ``PYSABOTEUR_PURE=1`` in the environment forces the pure path;
* :func:`available` says whether the extension is built and loadable, :func:`active`
  whether the engine uses it now, :func:`describe` says which path runs and why;
* :func:`use_pure` switches the compiled path off (and on again) inside a process, for
  tests and benchmarks that run both paths side by side.

Besides the game families, the core gives ``engine.rng.Rng`` its ``below`` and ``next64``
(the same numbers, in C: every loop that picks moves calls them), put on the class when the
compiled path is on.

The core is one C module made of one file per game family (``core/core.h``, ``setup.py``'s
``CORE_SOURCES``); on the Python side each family is a module here (:data:`FAMILIES`) that
compiles its tables from the engine's and says which state classes it plays
(``play_out_for``, ``setup_for``, ``steps_for``: the rollout API, ``release``) and what it
covers (``COVERS``).  Everything else runs in Python.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from types import ModuleType
from typing import Any, NamedTuple

_ext: ModuleType | None = None
_why = ""
_forced = os.environ.get("PYSABOTEUR_PURE", "").strip() not in ("", "0")
if _forced:
    _why = "PYSABOTEUR_PURE is set"
else:
    try:
        from .. import _core as _ext  # type: ignore[attr-defined, no-redef]
    except ImportError as exc:  # not built here (no compiler at install time, or a copy)
        _why = f"the compiled core is not built ({exc})"

_pure = _ext is None
_warned = False

#: engine.rng.Rng's own methods, and the core's (``below``, ``next64``: the same numbers),
#: put on the class while the compiled path is on
_RNG_PURE: dict[str, Any] = {}
_RNG_CORE: dict[str, Any] = {}


def _use_rng(compiled: bool) -> None:
    from ..engine.rng import Rng

    if not _RNG_PURE:
        _RNG_PURE.update({name: Rng.__dict__[name] for name in ("below", "next64")})
        if _ext is not None:
            _RNG_CORE.update(_ext.rng_methods(Rng))
    for name, method in (_RNG_CORE if compiled and _RNG_CORE else _RNG_PURE).items():
        setattr(Rng, name, method)


if not _pure:
    _use_rng(True)

#: the game families on the core, each a module of this package (the Python half of one C
#: file): asked in turn for a state class's compiled play-out and set-up
FAMILIES = ("classic", "duel", "lost_mines")


def _families() -> list[ModuleType]:
    return [import_module(f"{__name__}.{name}") for name in FAMILIES]


def available() -> bool:
    """Is the compiled core built and loadable (whatever ``PYSABOTEUR_PURE`` says)?"""
    if _ext is not None:
        return True
    try:
        from .. import _core  # type: ignore[attr-defined]  # noqa: F401
    except ImportError:
        return False
    return True


def active() -> bool:
    """Does the engine play on the compiled core now?"""
    return not _pure


def describe() -> str:
    """Which path the engine runs, and why, in one line."""
    if not _pure:
        covers = "; ".join(family.COVERS for family in _families())
        return f"compiled core (pysaboteur._core): {covers}"
    if _ext is not None:
        return "pure Python (the compiled core is switched off in this process)"
    return f"pure Python ({_why})"


def extension() -> ModuleType | None:
    """The extension module when the compiled path is on, else None (says once why not)."""
    global _warned
    if _pure:
        if _ext is None and not _forced and not _warned:
            _warned = True
            warnings.warn(f"pysaboteur runs pure Python: {_why}", RuntimeWarning, stacklevel=3)
        return None
    return _ext


@contextmanager
def use_pure(pure: bool = True) -> Iterator[None]:
    """Inside the block the engine runs pure (``pure=False``: compiled, when built)."""
    global _pure
    from ..engine import menu

    before = _pure
    _release()
    _pure = pure or _ext is None
    CLONES.clear()
    _use_rng(not _pure)
    menu.forget_compiled()
    try:
        yield
    finally:
        _release()
        _pure = before
        CLONES.clear()
        _use_rng(not _pure)
        menu.forget_compiled()


def _release() -> None:
    """Every state the core's rollout API holds given back to Python."""
    if _ext is not None:
        for family in _families():
            family.release()


def compiled_play_out(cls: type) -> Callable[..., Any] | None:
    """The compiled ``play_out`` of the state class ``cls``, or None (played in Python)."""
    if extension() is None:
        return None
    cls = getattr(cls, "_plain", cls)  # a state the rollout API holds: its own class
    for family in _families():
        fast: Callable[..., Any] | None = family.play_out_for(cls)
        if fast is not None:
            return fast
    return None


def compiled_steps(cls: type) -> Any:
    """The rollout API on the core for states of ``cls`` (``resident.Steps``), or None."""
    if extension() is None:
        return None
    cls = getattr(cls, "_plain", cls)  # a state the rollout API holds: its own class
    for family in _families():
        steps = family.steps_for(cls)
        if steps is not None:
            return steps
    return None


def compiled_setup(cls: type) -> Callable[..., Any] | None:
    """The compiled first-round set-up of the state class ``cls`` (a new match without a
    fixed deal), or None (set up in Python)."""
    if extension() is None:
        return None
    cls = getattr(cls, "_plain", cls)  # a state the rollout API holds: its own class
    for family in _families():
        fast: Callable[..., Any] | None = family.setup_for(cls)
        if fast is not None:
            return fast
    return None


class CloneSpec(NamedTuple):
    """What a state class's ``clone`` copies, for the core's (``core/clone.c``, which knows no
    game): ``new.__dict__ = self.__dict__.copy()``, then a new generator and a new memo, the
    ``lists`` copied (``.copy()``) and the lists of lists ``nested`` copied two deep; the rest
    is shared with the state (copy-on-write)."""

    lists: tuple[str, ...]
    nested: tuple[str, ...] = ("hands",)
    cls: type | None = None  # the clone's class (None: the state's own)
    rng: str = "rng"
    rng_way: int = 0  # RNG_SET, RNG_NEW or RNG_CLONE
    memo: str = "_mt"  # marked shared, the clone's a new one, shared too
    memo_value: bool = False  # the clone's memo keeps the old one's value (else None)


#: how a :class:`CloneSpec` makes the clone's generator from the state's ``old``:
#: ``Rng.__new__(Rng)`` with ``old.state`` as it is, ``Rng(old.state)`` (masked to 64 bits),
#: ``old.clone()``
RNG_SET, RNG_NEW, RNG_CLONE = 0, 1, 2

#: the compiled clones by state class (None: cloned in Python), filled by the games' ``clone``
#: (:func:`compiled_clone`) and emptied when the core is switched on or off
CLONES: dict[type, Callable[[Any], Any] | None] = {}
UNKNOWN: Any = object()


def compiled_clone(cls: type, spec: CloneSpec) -> Callable[[Any], Any] | None:
    """The core's clone (a function: state -> its clone) of the states of ``cls`` as ``spec``
    says, or None (cloned in Python); kept in :data:`CLONES`.  A state the rollout API holds
    is given back to Python by its class's ``clone`` first: its class gets None."""
    fast: Callable[[Any], Any] | None = None
    if not _pure and _ext is not None and not hasattr(cls, "_plain"):
        from ..engine.maze import Memo
        from ..engine.rng import Rng

        fast = _ext.cloner(cls, spec.cls, spec.lists, spec.nested, spec.rng, spec.rng_way,
                           spec.memo, spec.memo_value, Rng, Memo)
    CLONES[cls] = fast
    return fast
