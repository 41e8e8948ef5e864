"""Start the app as ``streamlit run`` does, with Nagle's algorithm off on every connection.

    python -m deploy.serve                                   # streamlit run app/streamlit_app.py
    python -m deploy.serve --server.port 8600                # any `streamlit run` option after it
    TE_WARM_FIRST=1 python -m deploy.serve                   # import every page, load every model, run every page

Why: Streamlit 1.67 serves through uvicorn on a listening socket it binds itself with ``socket.socket(family)`` —
protocol 0. asyncio turns Nagle's algorithm off (``TCP_NODELAY``) on a connection only when the socket's protocol
is ``IPPROTO_TCP``, and an accepted socket inherits the listener's protocol number, so every websocket keeps Nagle
on: a second small message in a rerun waits for the browser's delayed acknowledgement (up to 40 ms on Linux). Here
the listener is re-wrapped with its protocol named, so asyncio sets ``TCP_NODELAY`` on every connection it accepts.
``bench.load --think 0`` measures the difference; the fix belongs upstream (``_bind_socket`` in
``streamlit/web/server/starlette/starlette_server.py``: ``socket.socket(family, socket.SOCK_STREAM,
socket.IPPROTO_TCP)``).

Two costs that grow with the readers a process serves are cut the same way, in this process only: config options
are read from a memo between changes (``patch_config_reads``: Streamlit reads them under a lock for every message
and scans every option six times a script run for the theme), and the media files no session references are swept
at most once a second, not at the end of every script run (``patch_media_sweep``).
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


class _Remembered:
    """Answers kept until ``forget``; an answer computed while something forgot them is not kept (a reader that began
    before an option was set cannot store what it read before)."""

    def __init__(self) -> None:
        import threading

        self.answers: dict = {}
        self.generation = 0
        self.lock = threading.Lock()

    def get(self, key, compute):
        try:
            return self.answers[key]
        except KeyError:
            pass
        generation = self.generation
        value = compute()
        with self.lock:
            if generation == self.generation:
                self.answers[key] = value
        return value

    def forget(self, *_) -> None:
        with self.lock:
            self.generation += 1
            self.answers.clear()


def patch_config_reads() -> None:
    """Remember Streamlit's reads of its config options between changes (idempotent). ``config.get_option`` takes the
    config lock on every call, and Streamlit calls it for every message it sends (``populate_hash_if_needed`` reads
    ``global.minCachedMessageSize``) and several times a script run; with 128 readers of GPT's sampling slider the
    lock is contended (profiled under load: bench/NOTES.md). ``config.get_options_for_section`` scans every option,
    six times a script run for the theme part of the ``new_session`` message. The answers are forgotten whenever an
    option is set, deleted, or the config files are parsed again, the only ways the options change; a section's dict
    is the caller's own copy."""
    from streamlit import config

    if getattr(config.get_option, "te_memo", False):
        return
    memo = _Remembered()
    read_option, scan = config.get_option, config.get_options_for_section

    def get_option(key: str):
        return memo.get(key, lambda: read_option(key))

    def options_for_section(section: str) -> dict:
        return dict(memo.get(("section", section), lambda: scan(section)))

    set_option, delete_option = config._set_option, config._delete_option

    def set_and_forget(key: str, value, where_defined: str) -> None:
        set_option(key, value, where_defined)
        memo.forget()

    def delete_and_forget(key: str) -> None:
        delete_option(key)
        memo.forget()

    get_option.te_memo = True  # type: ignore[attr-defined]
    config.get_option = get_option
    config.get_options_for_section = options_for_section
    config._set_option = set_and_forget
    config._delete_option = delete_and_forget
    config.on_config_parsed(memo.forget, force_connect=True)


SWEEP_EVERY_S = 1.0


def patch_media_sweep(every_s: float = SWEEP_EVERY_S) -> None:
    """Sweep Streamlit's media file manager at most once every ``every_s`` seconds per process (idempotent). Streamlit
    sweeps it at the end of every script run, fragment runs included: under its lock, a scan of every session's files
    for those no session references any more (download buttons' deferred payloads, images). Its cost grows with the
    sessions a process holds; with 128 readers it is a measurable share of the time the server holds the
    interpreter lock (bench/NOTES.md). A skipped sweep is not made up later: an orphan waits for the first script run
    (or closed session) that ends ``every_s`` or more after the last sweep, so an idle process keeps its last orphans
    until its next reader's run. A download marked for deletion gets at least ``every_s`` of grace before it goes
    (Streamlit's own grace is one sweep, however soon that comes)."""
    import threading
    import time

    from streamlit.runtime.media_file_manager import MediaFileManager

    sweep = MediaFileManager.remove_orphaned_files
    if getattr(sweep, "te_every_s", None) is not None:
        return
    last = [float("-inf")]
    lock = threading.Lock()

    def remove_orphaned_files(self) -> None:
        now = time.monotonic()
        with lock:
            if now - last[0] < every_s:
                return
            last[0] = now
        sweep(self)

    remove_orphaned_files.te_every_s = every_s  # type: ignore[attr-defined]
    MediaFileManager.remove_orphaned_files = remove_orphaned_files


def warm_first() -> float:
    """Load every checkpoint, its ONNX Runtime sessions and the corpus in this process before the server starts, so
    that ``/_stcore/health`` answering means ready (a Kubernetes readiness probe, the launcher's wait). The app's own
    warm-up object is started here and filled (``services.warm_up`` is cached per process), so the first script run
    finds it done. Returns the seconds it took."""
    import time

    from app.shared.services import begin_warm_up

    start = time.perf_counter()
    state = begin_warm_up()
    if state.thread is not None:
        state.thread.join()
    seconds = time.perf_counter() - start
    print(
        f"deploy.serve: warmed {state.done} of {state.total} checkpoints in {seconds:.1f} s {state.error}", flush=True
    )
    return seconds


def warm_pages(langs: tuple[str, ...] = ("en", "zh")) -> float:
    """Run every page once at its defaults, in each language, in this process before the server starts
    (``TE_WARM_FIRST``; ``TE_WARM_PAGES=0`` skips it). What a page's first visit computes — held-out numbers, a
    default text's forward pass, its figures — lands in the process's caches (``st.cache_data``,
    ``st.cache_resource``, ``figures.cached``), which every session shares: a class opening its pages at once no
    longer queues behind each process computing them for its first visitor (``bench.classroom --arrive``). The pages
    run through Streamlit's own script runner for tests (``AppTest``), with no session or socket. A page that fails
    here is left for its first visitor, who sees the page's own message. Returns the seconds it took."""
    import time

    from streamlit.testing.v1 import AppTest

    from app.catalog import available_papers, available_tools

    start = time.perf_counter()
    pages = [p.script for p in (*available_papers(), *available_tools())]
    failed = []
    for lang in langs:
        at = AppTest.from_file(str(ENTRY), default_timeout=600)
        at.query_params["lang"] = lang
        at.run()
        for script in pages:
            try:
                at.switch_page(script).run()
                ok = not at.exception
            except Exception:  # noqa: BLE001 - the page's first visitor gets its own message
                ok = False
            if not ok:
                failed.append(f"{script} ({lang})")
    seconds = time.perf_counter() - start
    note = f"; not warmed: {', '.join(failed)}" if failed else ""
    print(f"deploy.serve: ran {len(pages)} pages in {len(langs)} languages in {seconds:.1f} s{note}", flush=True)
    return seconds


def import_first() -> float:
    """Import every page's modules and what the pages import at first use (``services.import_pages``) before the
    server starts, so that no reader's run imports a module while another reader's run finds it half-initialised
    (pandas, which Plotly's array check reads from ``sys.modules``, failed a page's first visit on a fresh process
    under a class's load). Returns the seconds it took."""
    import logging
    import time

    from app.shared.services import import_pages

    start = time.perf_counter()
    caching = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = caching.level
    caching.setLevel(logging.ERROR)  # each st.cache_data decorated before the server exists says so; harmless here
    try:
        names = import_pages()
    finally:
        caching.setLevel(level)
    seconds = time.perf_counter() - start
    print(f"deploy.serve: imported {len(names)} modules of the app in {seconds:.1f} s", flush=True)
    return seconds


def main(argv: list[str] | None = None) -> int:
    from streamlit.web import cli

    if os.environ.get("TE_NODELAY", "1") != "0":  # TE_NODELAY=0: Streamlit as it is (bench.load --nodelay 0)
        patch_streamlit()
    patch_config_reads()
    patch_media_sweep()
    if os.environ.get("TE_WARM_FIRST") == "1":  # /_stcore/health answering means ready
        import_first()
        if os.environ.get("TE_WARM_UP", "1") != "0":
            warm_first()
            if os.environ.get("TE_WARM_PAGES", "1") != "0":
                warm_pages()
    args = sys.argv[1:] if argv is None else argv
    sys.argv = ["streamlit", "run", str(ENTRY), *args]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main())
