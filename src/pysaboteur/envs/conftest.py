"""Doctest collection: skip the interface modules whose optional extra is not installed."""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore_glob: list[str] = []
if find_spec("numpy") is None:
    collect_ignore_glob += ["*.py", "games/*.py"]
if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
    collect_ignore_glob += ["pettingzoo.py", "gymnasium.py"]
if find_spec("pyspiel") is None:
    collect_ignore_glob += ["openspiel.py"]
