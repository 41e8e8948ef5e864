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

And the theme settings are read once: Streamlit builds a ``new_session`` message at the start of every script run,
a fragment's included, and fills its theme part with six calls of ``config.get_options_for_section``, each a scan of
every config option (``patch_theme_options``).
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


def patch_theme_options() -> None:
    """Remember ``config.get_options_for_section``'s answer per section (idempotent). Streamlit calls it six times a
    script run for the theme part of the ``new_session`` message, each call a scan of every config option (py-spy:
    6% of the server's time holding the interpreter lock when MoE's layer slider reran four fragments in two script
    runs). The answers are forgotten whenever an option is set or the config files are parsed again, the only ways
    the options change; a caller gets its own copy of the dict."""
    from streamlit import config

    scan = config.get_options_for_section
    if getattr(scan, "te_memo", False):
        return
    answers: dict[str, dict] = {}

    def options_for_section(section: str) -> dict:
        found = answers.get(section)
        if found is None:
            found = answers[section] = scan(section)
        return dict(found)

    set_option = config._set_option

    def set_and_forget(key: str, value, where_defined: str) -> None:
        answers.clear()
        set_option(key, value, where_defined)

    options_for_section.te_memo = True  # type: ignore[attr-defined]
    config.get_options_for_section = options_for_section
    config._set_option = set_and_forget
    config.on_config_parsed(answers.clear, force_connect=True)


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
    patch_theme_options()
    if os.environ.get("TE_WARM_FIRST") == "1" and os.environ.get("TE_WARM_UP", "1") != "0":
        warm_first()
    args = sys.argv[1:] if argv is None else argv
    sys.argv = ["streamlit", "run", str(ENTRY), *args]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main())
