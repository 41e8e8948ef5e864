"""Start the app as ``streamlit run`` does, with Nagle's algorithm off on every connection.

    python -m deploy.serve                                   # streamlit run app/streamlit_app.py
    python -m deploy.serve --server.port 8600                # any `streamlit run` option after it
    TE_WARM_FIRST=1 python -m deploy.serve                   # load every model before answering at all

Why: Streamlit 1.67 serves through uvicorn on a listening socket it binds itself with ``socket.socket(family)`` —
protocol 0. asyncio turns Nagle's algorithm off (``TCP_NODELAY``) on a connection only when the socket's protocol
is ``IPPROTO_TCP``, and an accepted socket inherits the listener's protocol number, so every websocket keeps Nagle
on: a second small message in a rerun waits for the browser's delayed acknowledgement (up to 40 ms on Linux). Here
the listener is re-wrapped with its protocol named, so asyncio sets ``TCP_NODELAY`` on every connection it accepts.
``bench.load --think 0`` measures the difference; the fix belongs upstream (``_bind_socket`` in
``streamlit/web/server/starlette/starlette_server.py``: ``socket.socket(family, socket.SOCK_STREAM,
socket.IPPROTO_TCP)``).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

ENTRY = Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py"


def tcp_listener(sock: socket.socket) -> socket.socket:
    """The same listening socket, with its protocol number set to IPPROTO_TCP (what ``accept`` passes on)."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.proto == socket.IPPROTO_TCP:
        return sock
    return socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())


def patch_streamlit() -> None:
    """Make Streamlit's own socket binding return ``tcp_listener`` sockets (idempotent)."""
    from streamlit.web.server.starlette import starlette_server

    bind = starlette_server._bind_socket
    if getattr(bind, "te_tcp", False):
        return

    def bind_tcp(address: str, port: int, backlog: int) -> socket.socket:
        return tcp_listener(bind(address, port, backlog))

    bind_tcp.te_tcp = True  # type: ignore[attr-defined]
    starlette_server._bind_socket = bind_tcp


def warm_first() -> float:
    """Load every checkpoint, its ONNX Runtime sessions and the corpus in this process before the server starts, so
    that ``/_stcore/health`` answering means ready (a Kubernetes readiness probe, the launcher's wait). The app's own
    warm-up object is filled (``services.warm_up`` is cached per process), so the first script run finds it done.
    Returns the seconds it took."""
    import time

    from app.shared.services import warm_up

    start = time.perf_counter()
    state = warm_up()
    if state.thread is not None:
        state.thread.join()
    seconds = time.perf_counter() - start
    print(
        f"deploy.serve: warmed {state.done} of {state.total} checkpoints in {seconds:.1f} s {state.error}", flush=True
    )
    return seconds


def main(argv: list[str] | None = None) -> int:
    from streamlit.web import cli

    if os.environ.get("TE_NODELAY", "1") != "0":  # TE_NODELAY=0: Streamlit as it is (bench.load --nodelay 0)
        patch_streamlit()
    if os.environ.get("TE_WARM_FIRST") == "1" and os.environ.get("TE_WARM_UP", "1") != "0":
        warm_first()
    args = sys.argv[1:] if argv is None else argv
    sys.argv = ["streamlit", "run", str(ENTRY), *args]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main())
