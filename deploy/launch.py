"""Serve the app from N Streamlit processes on one machine behind nginx, for a class at once.

    python -m deploy.launch                      # one process per core, on http://127.0.0.1:8080
    python -m deploy.launch --processes 4 --port 80 --address 0.0.0.0

Why several processes: one Streamlit process serves every session from one Python interpreter, so it uses about one
core however many readers wait (``python -m bench.load`` measures it). Why nginx in front, with sticky sessions: a
Streamlit session lives in the process that holds its websocket, and that process alone knows the session's uploaded
files and media; so every request of one browser must reach the same process. Open-source nginx has no sticky-cookie
directive, so the configuration below picks a process at random for a browser without the cookie (``split_clients``),
remembers it in the ``te_process`` cookie, and routes by that cookie (``map``). Websockets are upgraded and kept open
for a day.

The launcher writes the nginx configuration into a private folder (nginx's pid, logs and temporary files too), starts
the Streamlit processes and nginx, waits until every process answers ``/_stcore/health`` through nginx, and stops
them all on Ctrl-C or SIGTERM. nginx comes from the system (Debian: ``apt-get install nginx``).
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


def shares(n: int) -> list[str]:
    """``split_clients`` shares for n processes: n − 1 equal percentages (two decimals, nginx's precision) and ``*``
    for the rest, so every process gets about 1/n of the new browsers."""
    each = f"{100 / n:.2f}%"
    return [each] * (n - 1) + ["*"]


def nginx_config(ports: list[int], listen: str, run_dir: Path) -> str:
    """The whole nginx.conf: one upstream per Streamlit process, cookie-sticky routing, websocket upgrade."""
    upstreams = "\n".join(
        f"    upstream {upstream_name(i)} {{ server 127.0.0.1:{p}; keepalive 16; }}" for i, p in enumerate(ports)
    )
    split = "\n".join(f"        {s} {upstream_name(i)};" for i, s in enumerate(shares(len(ports))))
    known = "\n".join(f"        {upstream_name(i)} {upstream_name(i)};" for i in range(len(ports)))
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

    # A browser without the cookie gets a process at random; with it, its own process.
    split_clients "${{remote_addr}}${{remote_port}}${{msec}}" $te_new {{
{split}
    }}
    map $cookie_{COOKIE} $te_process {{
        default $te_new;
{known}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" "";
    }}

    server {{
        listen {listen};
        location / {{
            proxy_pass http://$te_process;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1d;
            proxy_send_timeout 1d;
            proxy_request_buffering off;
            add_header Set-Cookie "{COOKIE}=$te_process; Path=/; HttpOnly; SameSite=Lax" always;
            add_header X-TE-Upstream $upstream_addr always;
        }}
    }}
}}
"""


@dataclass
class Cluster:
    """The running processes: ``url`` is nginx's address; ``ports`` the Streamlit processes' own."""

    url: str
    ports: list[int]
    run_dir: Path
    procs: list[subprocess.Popen] = field(default_factory=list)

    def stop(self, keep_logs: bool = False) -> None:
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
    timeout: float = 120,
) -> Cluster:
    """Start ``processes`` Streamlit processes (one per core by default) and nginx on ``address:port``; return once
    each process answers its health check and nginx answers too (or raise with the logs' folder)."""
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
    # Each process loads every model before it answers (deploy.serve, TE_WARM_FIRST), so "healthy" below means
    # ready to serve without a cold first visit; TE_WARM_UP=0 in the environment turns that off.
    env = {"TE_WARM_FIRST": "1", **os.environ, "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}
    try:
        for i, p in enumerate(ports):
            log = open(run_dir / f"streamlit-{i}.log", "w")  # noqa: SIM115 (closed with the process)
            cmd = streamlit_command(p, extra)
            cluster.procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
        conf = run_dir / "nginx.conf"
        conf.write_text(nginx_config(ports, f"{address}:{port}", run_dir))
        nginx_log = open(run_dir / "nginx.out", "w")  # noqa: SIM115
        cluster.procs.append(
            subprocess.Popen([nginx, "-p", str(run_dir), "-c", str(conf)], stdout=nginx_log, stderr=subprocess.STDOUT)
        )
        deadline = time.monotonic() + timeout
        waiting = [f"http://127.0.0.1:{p}" for p in ports] + [cluster.url]
        while waiting:
            for proc in cluster.procs:
                if proc.poll() is not None:
                    raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}; logs in {run_dir}")
            waiting = [u for u in waiting if not healthy(u)]
            if waiting and time.monotonic() > deadline:
                raise RuntimeError(f"not healthy within {timeout:.0f} s: {waiting}; logs in {run_dir}")
            time.sleep(0.2)
    except BaseException:
        cluster.stop(keep_logs=True)  # the message names the folder
        raise
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
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    try:
        while not stopping and all(p.poll() is None for p in cluster.procs):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
