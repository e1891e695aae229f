"""``python -m pysaboteur.web``: the same as ``saboteur serve``."""

from __future__ import annotations

import argparse

from .server import serve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m pysaboteur.web", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database-url", default=None)
    p.add_argument("--bot-delay", type=float, default=0.6)
    p.add_argument("--allow-seed", action="store_true")
    p.add_argument("--open", action="store_true", help="open the browser")
    a = p.parse_args(argv)
    serve(a.host, a.port, a.database_url, a.bot_delay, a.open, a.allow_seed)


if __name__ == "__main__":
    main()
