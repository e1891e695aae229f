"""Several server processes, nginx and PostgreSQL on one machine: the set-up of
docs/deploy.md, started for tests and load figures::

    python -m pysaboteur.web.cluster --processes 3 --port 8080 \\
        --database-url postgresql+psycopg://postgres:postgres@localhost/postgres

starts ``saboteur serve --cluster`` ``--processes`` times (ports from ``--first-port``, or
free ones), writes an nginx configuration (:func:`nginx_conf`, the one docs/deploy.md
explains) into a working directory and runs nginx from Debian's packages with it
(``--tls-port``: also HTTPS, with a self-signed certificate made by ``openssl``), then
waits until Ctrl-C.  ``--fresh-database``: a new, empty database on that server (dropped
at the end) instead of the URL's own.  Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

#: the part of a path that routes a request: the table id (12 hex digits), else the
#: client's address (a tutorial's session lives in one process; one address's new tables
#: all meet one process's --tables-per-minute)
NGINX_TEMPLATE = """\
# pysaboteur behind nginx: {processes} server processes sharing one PostgreSQL database.
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log warn;
events {{ worker_connections 4096; }}

http {{
    access_log off;
    client_body_temp_path {workdir}/tmp/body;
    proxy_temp_path {workdir}/tmp/proxy;
    fastcgi_temp_path {workdir}/tmp/fastcgi;
    uwsgi_temp_path {workdir}/tmp/uwsgi;
    scgi_temp_path {workdir}/tmp/scgi;

    # WebSockets: pass the upgrade on; other requests may reuse upstream connections
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ""      "";
    }}
    # the key of a request: its table's id (every request of a table goes to the process
    # that owns it), else the client's address (a tutorial's session lives in one process's
    # memory, and one address's new tables all count against one process's per-address
    # limit: lobby, new tables, tutorials, games, cards, puzzles, pages)
    map $uri $saboteur_key {{
        "~^/api/tables/(?<table>[0-9a-f]{{12}})(/|$)"  $table;
        default                                      $binary_remote_addr;
    }}

    upstream saboteur {{
        hash $saboteur_key consistent;
{servers}
        keepalive 32;
    }}

    server {{
        listen 127.0.0.1:{port};
{tls}
        location / {{
            proxy_pass http://saboteur;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            # a process that is down: the next one on the ring (its tables' new owner);
            # a request already sent is not sent again (the client retries: an action
            # names its index, so a retry is never applied twice)
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 3;
            proxy_connect_timeout 2s;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            # no temporary files: nginx's workers may not write in this directory
            proxy_max_temp_file_size 0;
        }}
    }}
}}
"""

TLS_TEMPLATE = """\
        listen 127.0.0.1:{tls_port} ssl;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
"""


def nginx_conf(ports: list[int], port: int, workdir: Path, tls_port: int | None = None,
               cert: Path | None = None, key: Path | None = None,
               fail_timeout: float = 3.0) -> str:
    """The nginx configuration: one upstream per server process on 127.0.0.1."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout={fail_timeout:g}s;"
                        for p in ports)
    tls = ""
    if tls_port is not None:
        tls = TLS_TEMPLATE.format(tls_port=tls_port, cert=cert, key=key)
    return NGINX_TEMPLATE.format(processes=len(ports), workdir=workdir, servers=servers,
                                 port=port, tls=tls)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 30.0, proc: subprocess.Popen[bytes] | None = None,
              path: str = "/healthz") -> None:
    """Wait until ``GET path`` on 127.0.0.1:``port`` answers 200."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the process on port {port} exited ({proc.returncode})")
        try:
            if httpx.get(f"http://127.0.0.1:{port}{path}", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"nothing answered on port {port}")


def fresh_database(url: str) -> str:
    """A new, empty database on the server of ``url`` (PostgreSQL): its URL."""
    import psycopg

    from .owners import conninfo

    name = f"pysaboteur_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(conninfo(url), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    import psycopg

    from .owners import conninfo

    name = url.rsplit("/", 1)[1]
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(conninfo(admin_url), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None)


class Forked:
    """A server process forked by the :func:`zygote` (the part of ``Popen`` used here)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = -1
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = time.monotonic() + (timeout if timeout is not None else 1e9)
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.02)
        return self.returncode or 0

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)


def zygote() -> None:
    """Import the server once, then fork one server per line of stdin (its arguments as
    JSON, then its log file): started in a fraction of a second, not after seconds of
    imports (tests that kill and start servers again).  Writes each child's pid."""
    import json

    from . import __main__ as web_main
    from . import server  # noqa: F401 - imported once, here, for every child

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    for line in sys.stdin:
        args, log = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            os.dup2(fd, 2)
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)
            code = 0
            try:
                web_main.main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                code = 1
            os._exit(code)
        print(pid, flush=True)


class Cluster:
    """``processes`` servers (``saboteur serve --cluster``) on one database, nginx in
    front on ``port``: :meth:`start`, :meth:`kill` (SIGKILL), :meth:`restart`,
    :meth:`stop`.  ``fork``: servers forked from one process that imported the server
    once (:func:`zygote`), so that a restart takes a fraction of a second."""

    def __init__(self, database_url: str, processes: int = 3, port: int | None = None,
                 tls_port: int | None = None, workdir: Path | None = None,
                 first_port: int | None = None, serve_args: list[str] | None = None,
                 quiet: bool = True, fork: bool = False) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.tls_port = tls_port
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="pysaboteur-cluster-")
            workdir = Path(self._tmp.name)
        self.workdir = workdir
        self.ports = ([first_port + i for i in range(processes)] if first_port
                      else [free_port() for _ in range(processes)])
        self.serve_args = serve_args if serve_args is not None else []
        self.quiet = quiet
        self.procs: list[Any] = [None] * processes
        self.nginx: subprocess.Popen[bytes] | None = None
        self._zygote: subprocess.Popen[str] | None = None
        if fork:
            self._zygote = subprocess.Popen(
                [sys.executable, "-c", "from pysaboteur.web.cluster import zygote; zygote()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _server(self, i: int) -> Any:
        args = ["--port", str(self.ports[i]), "--database-url", self.database_url,
                "--cluster", *self.serve_args]
        if self._zygote is not None:
            import json

            assert self._zygote.stdin is not None and self._zygote.stdout is not None
            log_path = str(self.workdir / f"server-{i}.log")
            self._zygote.stdin.write(json.dumps([args, log_path]) + "\n")
            self._zygote.stdin.flush()
            return Forked(int(self._zygote.stdout.readline()))
        out: Any = subprocess.DEVNULL
        if not self.quiet:
            out = None
        log = open(self.workdir / f"server-{i}.log", "ab")  # noqa: SIM115 - the child's
        cmd = [sys.executable, "-m", "pysaboteur.web", *args]
        proc = subprocess.Popen(cmd, stdout=out, stderr=log)
        log.close()
        return proc

    def start(self, timeout: float = 120.0) -> Cluster:
        from .db import Database

        (self.workdir / "tmp").mkdir(parents=True, exist_ok=True)
        Database(self.database_url).close()  # the schema once, not by every process at once
        for i in range(len(self.ports)):
            self.procs[i] = self._server(i)
        for i, port in enumerate(self.ports):
            wait_port(port, timeout, proc=self.procs[i])
        self._start_nginx()
        return self

    def _start_nginx(self) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
        cert = key = None
        if self.tls_port is not None:
            cert, key = self.workdir / "cert.pem", self.workdir / "key.pem"
            if not cert.exists():
                subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                "-keyout", str(key), "-out", str(cert), "-days", "2",
                                "-subj", "/CN=localhost"], check=True, capture_output=True)
        conf = self.workdir / "nginx.conf"
        conf.write_text(nginx_conf(self.ports, self.port, self.workdir, self.tls_port, cert,
                                   key))
        self.nginx = subprocess.Popen(
            [binary, "-p", str(self.workdir), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(self.workdir / "nginx.out", "ab"))  # noqa: SIM115
        wait_port(self.port, proc=self.nginx, path="/api/games")

    def route(self, n: int) -> None:
        """Send the proxy's traffic to the first ``n`` processes only (the configuration
        written again, nginx reloaded): the load test's 1, 2, 3 processes."""
        assert self.nginx is not None
        cert, key = self.workdir / "cert.pem", self.workdir / "key.pem"
        conf = self.workdir / "nginx.conf"
        conf.write_text(nginx_conf(self.ports[:n], self.port, self.workdir, self.tls_port,
                                   cert, key))
        os.kill(self.nginx.pid, signal.SIGHUP)
        time.sleep(1.0)  # the new workers take over; the old ones finish what they serve
        wait_port(self.port, proc=self.nginx, path="/api/games")

    def pid(self, i: int) -> int:
        proc = self.procs[i]
        assert proc is not None
        return int(proc.pid)

    def kill(self, i: int) -> None:
        """SIGKILL server ``i`` (no clean-up of any kind: its sockets and database
        connections close as the kernel ends the process)."""
        proc = self.procs[i]
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)

    def restart(self, i: int, wait: bool = True, timeout: float = 120.0) -> None:
        self.kill(i)
        self.procs[i] = self._server(i)
        if wait:
            wait_port(self.ports[i], timeout, proc=self.procs[i])

    def stop(self) -> None:
        for proc in [self.nginx, *self.procs]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in [self.nginx, *self.procs]:
            if proc is not None:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        if self._zygote is not None:
            self._zygote.kill()
            self._zygote.wait(10)
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                self._tmp.cleanup()

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m pysaboteur.web.cluster", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--database-url", required=True,
                   help="postgresql+psycopg://user:password@host/database")
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--port", type=int, default=8080, help="nginx's port (HTTP)")
    p.add_argument("--tls-port", type=int, default=None,
                   help="also HTTPS on this port (a self-signed certificate)")
    p.add_argument("--first-port", type=int, default=8001,
                   help="the first server's port (the others follow)")
    p.add_argument("--fresh-database", action="store_true",
                   help="a new, empty database on that server, dropped at the end")
    p.add_argument("serve_args", nargs="*", help="more options for every server "
                                                 "(after --), e.g. -- --bot-delay 0.2")
    a = p.parse_args(argv)
    url = fresh_database(a.database_url) if a.fresh_database else a.database_url
    cluster = Cluster(url, a.processes, a.port, a.tls_port, first_port=a.first_port,
                      serve_args=a.serve_args, quiet=False)
    try:
        cluster.start()
        print(f"pysaboteur: {a.processes} processes on ports {cluster.ports}, nginx on "
              f"{cluster.url}" + (f" and https://127.0.0.1:{a.tls_port}" if a.tls_port else "")
              + f" (configuration and logs in {cluster.workdir}); Ctrl-C stops", flush=True)
        while all(proc is not None and proc.poll() is None
                  for proc in [cluster.nginx, *cluster.procs]):
            time.sleep(0.5)
        print("pysaboteur: a process ended; stopping", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
        if a.fresh_database:
            drop_database(url)


if __name__ == "__main__":
    main()
