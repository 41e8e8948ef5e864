"""deploy/serve.py: connections that Streamlit's listener accepts get TCP_NODELAY from asyncio; TE_WARM_FIRST=1
imports every page and loads every model before the server answers."""

from __future__ import annotations

import asyncio
import socket

import pytest

from deploy import serve


def _nodelay_of_accepted(listener: socket.socket) -> int:
    """Serve one connection on ``listener`` with asyncio (as uvicorn does) and read TCP_NODELAY on its socket."""

    async def main() -> int:
        seen: asyncio.Future = asyncio.get_running_loop().create_future()

        def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_client, sock=listener)
        host, port = listener.getsockname()[:2]
        _, writer = await asyncio.open_connection(host, port)
        value = await asyncio.wait_for(seen, 10)
        writer.close()
        server.close()
        await server.wait_closed()
        return value

    return asyncio.run(main())


def _listener() -> socket.socket:
    """A listener bound as Streamlit 1.67 binds it: ``socket.socket(family)``, protocol 0."""
    sock = socket.socket(family=socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    return sock


def test_the_rewrapped_listener_gives_every_connection_tcp_nodelay():
    listener = serve.tcp_listener(_listener())
    assert listener.proto == socket.IPPROTO_TCP
    assert _nodelay_of_accepted(listener) != 0


def test_streamlits_binding_is_patched_once_and_still_binds():
    from streamlit.web.server.starlette import starlette_server

    serve.patch_streamlit()
    bind = starlette_server._bind_socket
    serve.patch_streamlit()  # idempotent: not wrapped twice
    assert starlette_server._bind_socket is bind
    sock = bind("127.0.0.1", 0, 8)
    try:
        assert sock.proto == socket.IPPROTO_TCP and sock.getsockname()[1] > 0
    finally:
        sock.close()


def test_warm_first_loads_every_checkpoint_before_the_server_answers():
    from bench.common import ROOT, free_port, start_server
    from models import zoo

    port = free_port()
    proc = start_server(port, env={"TE_WARM_FIRST": "1", "TE_WARM_UP": "1", "TE_WARM_PAGES": "0"})
    try:
        log = (ROOT / "artifacts" / f"server-{port}.log").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    n = len(zoo.available())
    assert f"deploy.serve: warmed {n} of {n} checkpoints" in log, log[-2000:]
    assert log.index("deploy.serve: warmed") < log.index(f":{port}")  # before Streamlit printed its address
    assert log.index("deploy.serve: imported") < log.index("deploy.serve: warmed")  # the pages' modules, first


@pytest.mark.slow
def test_warm_pages_runs_every_page_in_both_languages_before_the_server_answers():
    """A class's processes answer only after every page has run once at its defaults in each language
    (``warm_pages``), so that no student's first visit computes what an earlier session already has."""
    from app.catalog import available_papers, available_tools
    from bench.common import ROOT, free_port, start_server

    port = free_port()
    proc = start_server(port, env={"TE_WARM_FIRST": "1", "TE_WARM_UP": "1", "TE_WARM_PAGES": "1"}, timeout=900)
    try:
        log = (ROOT / "artifacts" / f"server-{port}.log").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    n = len(available_papers()) + len(available_tools())
    ran = f"deploy.serve: ran {n} pages in 2 languages in "
    assert ran in log and "not warmed" not in log, log[-3000:]
    assert log.index("deploy.serve: warmed") < log.index(ran) < log.index(f":{port}")


IMPORTED = """
import sys
from deploy import serve

serve.import_first()
half = sorted(n for n, m in list(sys.modules.items()) if getattr(getattr(m, "__spec__", None), "_initializing", 0))
pandas = sys.modules.get("pandas")
print("HALF", half)
print("PANDAS", pandas is not None and hasattr(pandas, "Series") and hasattr(pandas, "DataFrame"))
print("MODULES", " ".join(sorted(sys.modules)))
"""


def test_the_pages_imports_are_complete_before_the_server_answers():
    """In a fresh process, what ``deploy.serve`` does before the server starts with TE_WARM_FIRST=1
    (``import_first``) leaves no module half-imported, pandas whole (Plotly's array check reads it from
    ``sys.modules`` without the import lock: a reader's first figure failed while another reader's table was still
    importing it), and every page's modules, the checkpoints' architectures and the graph objects the pages draw
    imported, so that no reader's first run imports them beside another's."""
    import subprocess
    import sys

    from bench.common import ROOT

    out = subprocess.run(
        [sys.executable, "-c", IMPORTED], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    ).stdout
    lines = dict(
        line.split(" ", 1) for line in out.splitlines() if line.split(" ", 1)[0] in {"HALF", "PANDAS", "MODULES"}
    )
    assert lines["HALF"] == "[]" and lines["PANDAS"] == "True", out[-2000:]
    modules = set(lines["MODULES"].split())
    wanted = {"pyarrow.pandas_compat", "app.llama.views", "app.t5.sections", "app.mistral.service", "models.t5"}
    wanted |= {"plotly.graph_objs.heatmap", "plotly.graph_objs.bar", "plotly.graph_objs.scatter"}
    assert wanted <= modules, wanted - modules


def test_config_reads_are_remembered_until_an_option_is_set():
    """``patch_config_reads``: an option and a section's options come from a memo, equal to a fresh read, a section's
    dict a copy for each caller, and both forgotten when an option is set."""
    from streamlit import config

    serve.patch_config_reads()
    read, get = config.get_options_for_section, config.get_option
    serve.patch_config_reads()  # idempotent: not wrapped twice
    assert config.get_options_for_section is read and config.get_option is get
    key, before = "theme.primaryColor", get("theme.primaryColor")
    assert before == config.get_config_options()[key].value  # the memo's answer is the option's value
    first = read("theme")
    assert first == read("theme") and first is not read("theme")
    first["primaryColor"] = "#000001"  # a caller's copy: changing it changes nothing
    assert read("theme")["primaryColor"] == before
    try:
        config.set_option(key, "#123456")
        assert read("theme")["primaryColor"] == "#123456" and get(key) == "#123456"
    finally:
        config.set_option(key, before)
    assert read("theme")["primaryColor"] == before and get(key) == before


def test_an_answer_read_while_an_option_changed_is_not_kept():
    memo = serve._Remembered()

    def stale():
        memo.forget()  # an option was set while this read was under way
        return "old"

    assert memo.get("k", stale) == "old"
    assert memo.get("k", lambda: "new") == "new"  # read again, not the stale answer
    assert memo.get("k", lambda: "newer") == "new"  # now kept


def test_the_media_sweep_runs_at_most_once_a_second(monkeypatch):
    """``patch_media_sweep``: Streamlit's sweep of orphaned media files runs at the end of every script run; patched,
    a second call within ``SWEEP_EVERY_S`` does nothing, and one after it sweeps."""
    import time

    from streamlit.runtime.media_file_manager import MediaFileManager

    swept = []
    monkeypatch.setattr(MediaFileManager, "remove_orphaned_files", lambda self: swept.append(self))
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    serve.patch_media_sweep(1.0)
    patched = MediaFileManager.remove_orphaned_files
    serve.patch_media_sweep(1.0)  # idempotent: not wrapped twice
    assert MediaFileManager.remove_orphaned_files is patched
    manager = object.__new__(MediaFileManager)
    manager.remove_orphaned_files()
    clock[0] += 0.5
    manager.remove_orphaned_files()
    assert swept == [manager]
    clock[0] += 0.6
    manager.remove_orphaned_files()
    assert swept == [manager, manager]
