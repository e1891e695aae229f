"""``python -m pysaboteur.web``: the same as ``saboteur serve`` (every limit an option)."""

from __future__ import annotations

import argparse
import sys

from .limits import Limits


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pysaboteur.web", description=__doc__,
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--database-url", default=None,
                   help="SQLAlchemy URL (default: a SQLite file in your data directory)")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before moving")
    p.add_argument("--allow-seed", action="store_true", help="accept chosen seeds (tests only)")
    p.add_argument("--open", action="store_true", help="open the browser")
    several = p.add_argument_group("several processes (docs/deploy.md)")
    several.add_argument("--cluster", action=argparse.BooleanOptionalAction, default=False,
                         help="one of several processes sharing a PostgreSQL database: "
                              "each table owned by one process at a time")
    several.add_argument("--takeover-timeout", type=float, default=5.0, metavar="FLOAT",
                         help="seconds to wait for a table's owner to hand it over")
    several.add_argument("--forwarded-allow-ips", default="127.0.0.1",
                         help="proxies whose X-Forwarded-For is believed ('*': any)")
    group = p.add_argument_group("limits")
    for (option, kind, default, text), name in zip(Limits.options(), Limits.names(),
                                                    strict=True):
        if kind is bool:
            group.add_argument(option, dest=name, action=argparse.BooleanOptionalAction,
                               default=default, help=text)
        else:
            group.add_argument(option, dest=name, type=kind, default=default, help=text,
                               metavar=kind.__name__.upper())
    return p


def main(argv: list[str] | None = None) -> None:
    a = parser().parse_args(argv)
    limits = Limits(**{name: getattr(a, name) for name in Limits.names()})
    from .server import StartError, serve

    try:
        serve(a.host, a.port, a.database_url, a.bot_delay, a.open, a.allow_seed, limits=limits,
              cluster=a.cluster, takeover_timeout=a.takeover_timeout,
              forwarded_allow_ips=a.forwarded_allow_ips)
    except StartError as exc:
        print(f"python -m pysaboteur.web: {' '.join(str(exc).split())}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
