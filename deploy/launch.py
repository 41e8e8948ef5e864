"""Serve the app from N Streamlit processes on one machine behind nginx, for a class at once.

    python -m deploy.launch                      # one process per core, on http://127.0.0.1:8080
    python -m deploy.launch --processes 4 --port 80 --address 0.0.0.0

Why several processes: one Streamlit process serves every session from one Python interpreter, so it uses about one
core however many readers wait (``python -m bench.load`` measures it). Why nginx in front, with sticky sessions: a
Streamlit session lives in the process that holds its websocket, and that process alone knows the session's uploaded
files and media; so every request of one browser must reach the same process. Open-source nginx has no sticky-cookie
directive, so the configuration below sends a browser without the cookie to the processes in turn (round robin over
the upstream ``te_any``), remembers the process that answered in the ``te_process`` cookie (``$upstream_addr`` mapped
back to its name), and routes by that cookie (``map``). Websockets are upgraded and kept open for a day.

A process that dies does not take the class with it. Each process's upstream lists the other processes as
``backup``: a browser whose process is down is sent to a live one (nginx retries a refused connection there), and
its cookie is rewritten to the process that answered, so it stays there. Its websocket closed with the process;
Streamlit's client shows that it is reconnecting, opens a new session on the live process and reruns the page from
its URL, which holds the page's state. The launcher restarts the dead process on its port, waiting 1, 2, 4 ... up to
``BACKOFF_MAX_S`` seconds between attempts (back to 1 s once a process has run ``BACKOFF_RESET_S``); new browsers
reach it again once it answers.

The launcher writes the nginx configuration into a private folder (nginx's pid, logs and temporary files too), starts
the Streamlit processes and nginx, waits until every process answers ``/_stcore/health`` through nginx, watches them
(``Cluster.supervise``), and stops them all on Ctrl-C or SIGTERM. nginx comes from the system (Debian: ``apt-get
install nginx``).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COOKIE = "te_process"
# nginx must not refuse what Streamlit accepts: the app's own server.maxUploadSize, in MB.
UPLOAD_MB = int(tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]["maxUploadSize"])


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((address, 0))
        return s.getsockname()[1]


def streamlit_command(port: int, extra: list[str] | None = None) -> list[str]:
    """``streamlit run`` of the app through ``deploy.serve`` (Nagle's algorithm off), headless, on
    127.0.0.1:``port`` (run it from the repository root)."""
    return [
        sys.executable,
        "-m",
        "deploy.serve",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        *(extra or []),
    ]


def upstream_name(i: int) -> str:
    return f"te{i}"


ANY = "te_any"  # the upstream of every process, in turn: where a browser without a (known) cookie goes


def upstream_block(i: int, ports: list[int]) -> str:
    """Process ``i``'s upstream: its own server first, the other processes as ``backup`` (nginx passes a request
    there when this one refuses the connection, and keeps off it for ``fail_timeout``)."""
    others = "".join(f" server 127.0.0.1:{p} backup;" for j, p in enumerate(ports) if j != i)
    own = f"server 127.0.0.1:{ports[i]} max_fails=1 fail_timeout=2s;"
    return f"    upstream {upstream_name(i)} {{ {own}{others} keepalive 16; }}"


def nginx_config(ports: list[int], listen: str, run_dir: Path) -> str:
    """The whole nginx.conf: one upstream per Streamlit process (the others its backups) and one of them all in
    turn, cookie-sticky routing to the process that last answered, websocket upgrade."""
    upstreams = "\n".join(upstream_block(i, ports) for i in range(len(ports)))
    every = " ".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in ports)
    known = "\n".join(f"        {upstream_name(i)} {upstream_name(i)};" for i in range(len(ports)))
    # $upstream_addr lists every server tried ("127.0.0.1:8501, 127.0.0.1:8502"); the last one answered
    served = "\n".join(f'        "~(^|\\s)127\\.0\\.0\\.1:{p}$" {upstream_name(i)};' for i, p in enumerate(ports))
    return f"""# Written by deploy/launch.py for {len(ports)} Streamlit processes; see its docstring.
daemon off;
worker_processes 1;
pid {run_dir}/nginx.pid;
error_log {run_dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {run_dir}/tmp/body;
    proxy_temp_path {run_dir}/tmp/proxy;
    fastcgi_temp_path {run_dir}/tmp/fastcgi;
    uwsgi_temp_path {run_dir}/tmp/uwsgi;
    scgi_temp_path {run_dir}/tmp/scgi;
    client_max_body_size {UPLOAD_MB}m;
    tcp_nodelay on;

{upstreams}
    upstream {ANY} {{ {every} keepalive 16; }}

    # A browser without the cookie (or with an unknown one) goes to the processes in turn; with it, to its own.
    map $cookie_{COOKIE} $te_process {{
        default {ANY};
{known}
    }}
    # The process that answered, for the cookie: another than the cookie's when that one was down.
    map $upstream_addr $te_served {{
        default $te_process;
{served}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" "";
    }}

    server {{
        listen {listen};
        location / {{
            proxy_pass http://$te_process;
            proxy_next_upstream error timeout http_502;
            proxy_connect_timeout 2s;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1d;
            proxy_send_timeout 1d;
            proxy_request_buffering off;
            add_header Set-Cookie "{COOKIE}=$te_served; Path=/; HttpOnly; SameSite=Lax" always;
            add_header X-TE-Upstream $upstream_addr always;
        }}
    }}
}}
"""


BACKOFF_FIRST_S = 1.0  # a dead process is started again after this long, then twice as long each time it dies soon
BACKOFF_MAX_S = 30.0
BACKOFF_RESET_S = 60.0  # a process that ran this long before it died is restarted after BACKOFF_FIRST_S again


@dataclass
class Child:
    """One process the launcher keeps running: its command, its log (appended to across restarts), the running
    ``Popen``, and when it is due to start again if it died."""

    name: str
    args: list[str]
    log: Path
    env: dict[str, str] | None = None
    proc: subprocess.Popen | None = None
    started: float = 0.0
    restarts: int = 0
    backoff: float = BACKOFF_FIRST_S
    due: float | None = None

    def spawn(self) -> None:
        with open(self.log, "a") as log:  # the child holds its own copy of the descriptor
            self.proc = subprocess.Popen(self.args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.started = time.monotonic()


@dataclass
class Cluster:
    """The running processes: ``url`` is nginx's address; ``ports`` the Streamlit processes' own; ``children`` the
    Streamlit processes, then nginx."""

    url: str
    ports: list[int]
    run_dir: Path
    children: list[Child] = field(default_factory=list)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _watch: threading.Thread | None = None

    @property
    def procs(self) -> list[subprocess.Popen]:
        """The running ``Popen`` of every child, Streamlit processes first, nginx last."""
        return [c.proc for c in self.children if c.proc is not None]

    def check(self, now: float | None = None) -> None:
        """One look at the children: a dead one is given a time to start again (its back-off, doubled for the next
        death up to ``BACKOFF_MAX_S``), and started once that time has come. The others keep serving meanwhile."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if self._stopping.is_set():
                return
            for c in self.children:
                code = c.proc.poll()
                if code is None:
                    if now - c.started >= BACKOFF_RESET_S:
                        c.backoff = BACKOFF_FIRST_S
                    continue
                if c.due is None:
                    c.due = now + c.backoff
                    print(f"deploy.launch: {c.name} exited with {code}; restarting in {c.backoff:g} s", flush=True)
                    c.backoff = min(c.backoff * 2, BACKOFF_MAX_S)
                elif now >= c.due:
                    c.spawn()
                    c.due, c.restarts = None, c.restarts + 1

    def supervise(self, every_s: float = 0.2) -> None:
        """Watch the children on a thread of this process until ``stop`` (``check`` every ``every_s``)."""

        def watch() -> None:
            while not self._stopping.wait(every_s):
                self.check()

        self._watch = threading.Thread(target=watch, name="te-launch-watch", daemon=True)
        self._watch.start()

    def stop(self, keep_logs: bool = False) -> None:
        with self._lock:
            self._stopping.set()
        if self._watch is not None:
            self._watch.join()
        for p in reversed(self.procs):  # nginx first
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        if not keep_logs:
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def nginx_binary() -> str:
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if path is None:
        raise FileNotFoundError("nginx is not installed (Debian: apt-get install nginx)")
    return path


def have_nginx() -> bool:
    try:
        nginx_binary()
    except FileNotFoundError:
        return False
    return True


def healthy(url: str) -> bool:
    """Whether the server at ``url`` answers ``/_stcore/health``."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def start(
    processes: int | None = None,
    port: int = 8080,
    address: str = "127.0.0.1",
    extra: list[str] | None = None,
    timeout: float = 900,
) -> Cluster:
    """Start ``processes`` Streamlit processes (one per core by default) and nginx on ``address:port``; return once
    each process answers its health check and nginx answers too (or raise with the logs' folder), with a thread
    that restarts any of them that dies (``Cluster.supervise``)."""
    n = processes or os.cpu_count() or 1
    nginx = nginx_binary()
    run_dir = Path(tempfile.mkdtemp(prefix="te-deploy-"))
    (run_dir / "tmp").mkdir()
    # nginx started as root runs its worker as an unprivileged user, which must reach the temporary folders.
    run_dir.chmod(0o755)
    (run_dir / "tmp").chmod(0o777)
    ports = [free_port() for _ in range(n)]
    cluster = Cluster(
        url=f"http://{'127.0.0.1' if address == '0.0.0.0' else address}:{port}", ports=ports, run_dir=run_dir
    )
    # One cookie secret for all processes, so the XSRF cookie one process signs is valid at any other.
    # Each process loads every model and runs every page once before it answers (deploy.serve, TE_WARM_FIRST), so
    # "healthy" below means ready to serve a class without a cold first visit (a minute or more on 2 cores, hence the
    # timeout); TE_WARM_UP=0 in the environment turns all of it off, TE_WARM_PAGES=0 the pages alone.
    env = {"TE_WARM_FIRST": "1", **os.environ, "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}
    try:
        for i, p in enumerate(ports):
            child = Child(f"process {i} (:{p})", streamlit_command(p, extra), run_dir / f"streamlit-{i}.log", env)
            child.spawn()
            cluster.children.append(child)
        conf = run_dir / "nginx.conf"
        conf.write_text(nginx_config(ports, f"{address}:{port}", run_dir))
        cluster.children.append(Child("nginx", [nginx, "-p", str(run_dir), "-c", str(conf)], run_dir / "nginx.out"))
        cluster.children[-1].spawn()
        deadline = time.monotonic() + timeout
        waiting = [f"http://127.0.0.1:{p}" for p in ports] + [cluster.url]
        while waiting:
            for proc in cluster.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}; logs in {run_dir}")
            # nginx is asked last: a process it finds not yet listening counts as failed for a while, and the
            # first browsers would all go to the others
            waiting = [u for u in waiting if (u == cluster.url and len(waiting) > 1) or not healthy(u)]
            if waiting and time.monotonic() > deadline:
                raise RuntimeError(f"not healthy within {timeout:.0f} s: {waiting}; logs in {run_dir}")
            time.sleep(0.2)
    except BaseException:
        cluster.stop(keep_logs=True)  # the message names the folder
        raise
    cluster.supervise()
    return cluster


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m deploy.launch", description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", type=int, default=None, help="Streamlit processes (default: one per core)")
    ap.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080)")
    ap.add_argument("--address", default="127.0.0.1", help="nginx's address (0.0.0.0 to serve the network)")
    args = ap.parse_args(argv)
    if args.processes is not None and args.processes < 1:
        ap.error("--processes must be at least 1")
    cluster = start(args.processes, args.port, args.address)
    print(f"Serving {len(cluster.ports)} processes at {cluster.url} (Ctrl-C stops them)", flush=True)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    try:
        while not stopping.wait(0.5):  # a process that dies is restarted by the cluster's watch; the others serve on
            pass
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
