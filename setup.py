"""The optional compiled core (``pysaboteur._core``, issue 24): built where a C compiler and
the Python headers are there; where the build fails the install still succeeds, says so
once, and the engine runs pure (``pysaboteur.core.describe()``).  Everything else about the
package is in ``pyproject.toml``."""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """``build_ext`` that lets a failed compile go (the engine then runs pure)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all, or no headers
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    @staticmethod
    def _skip(exc: Exception) -> None:
        print(f"WARNING: pysaboteur's compiled core was not built ({exc}); the engine runs "
              "pure Python", file=sys.stderr)


#: the core's files: the module, then one file per game family (``core/core.h`` declares
#: each family's entry points, ``module.c`` gathers them into one module)
CORE_SOURCES = ["module.c", "classic.c", "duel.c", "lost_mines.c", "determinize.c", "clone.c"]

setup(
    ext_modules=[Extension("pysaboteur._core",
                           [f"src/pysaboteur/core/{name}" for name in CORE_SOURCES],
                           depends=["src/pysaboteur/core/core.h"],
                           extra_compile_args=["-O2"], optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
