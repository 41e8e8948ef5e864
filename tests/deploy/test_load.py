"""bench/load.py: simulated readers over Streamlit's websocket protocol, against a real server and through nginx
(a smoke run of a few seconds; `python -m bench.load` makes the full table)."""

from __future__ import annotations

import os

import pytest

from bench import common, load


def test_every_model_page_has_a_slider_to_move():
    """The load benchmark moves a slider on every model page that exists, and each
    slider it names is drawn by that page with that key; a new page joins the table by an entry in WIDGETS."""
    from pathlib import Path

    from app.catalog import available_papers

    papers = {p.page: p for p in available_papers()}
    assert set(load.WIDGETS) == set(papers)
    root = Path(load.__file__).resolve().parents[1] / "app"
    for page, (key, values) in load.WIDGETS.items():
        folder = (root / papers[page].script).parent  # the page script and its sections' modules
        code = "".join(f.read_text(encoding="utf-8") for f in folder.glob("*.py") if f.name != "strings.py")
        assert f'"{key}"' in code, (page, key)  # the key it draws
        assert len(values) == 2 and values[0] != values[1]
    real = [f"{page}?{param}={common.REAL}" for page, param in common.REAL_PAGES.items()]
    assert common.PAGES_ARGS[common.PAGES_ARGS.index("--pages") + 1 :] == [load.EMPTY, *load.WIDGETS, *real]
    assert set(common.REAL_PAGES) <= set(load.WIDGETS)  # a real model's page moves the slider its own page moves


def test_a_select_slider_sends_its_options_text():
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg.FromString(load.rerun_message("scaling", set(), slider=("$$ID-abc-scaling_budget", "1e22 FLOPs")))
    (state,) = msg.rerun_script.widget_states.widgets
    assert state.WhichOneof("value") == "string_array_value" and list(state.string_array_value.data) == ["1e22 FLOPs"]


def test_percentiles_and_summary():
    point = load.Point(latencies_ms=[float(v) for v in range(1, 101)], errors=["x"])
    s = load.summary(point, wall_s=10.0)
    assert (s["reruns"], s["reruns_per_s"], s["errors"]) == (100, 10.0, 1)
    assert s["p50_ms"] == 50.5 and s["p95_ms"] == 95.0 and s["p99_ms"] == 99.0
    assert s["cpu_ms_per_rerun"] is None  # the server's CPU time was not read
    assert s["messages_per_rerun"] is None and s["kb_per_rerun"] is None  # nothing counted
    point.cpu_s = 1.5
    point.messages, point.kilobytes = [18, 20, 97], [3.0, 4.04, 60.0]
    s = load.summary(point, wall_s=10.0)
    assert s["cpu_ms_per_rerun"] == 15.0 and s["messages_per_rerun"] == 20 and s["kb_per_rerun"] == 4.0


def run_of(pages: dict) -> dict:
    """A run's results as load.run returns them, with these pages' points."""
    return {"machine": "m", "when": "w", "seconds_per_point": 1, "think_s": 0.5, "processes": 1, "via": "direct",
            "pages": pages}  # fmt: skip


def test_the_table_sets_each_page_against_the_empty_page():
    point = {"reruns_per_s": 1.0, "p95_ms": 1.0, "p99_ms": 1.0, "errors": 0, "moved": ""}
    results = run_of(
        {
            load.EMPTY: {"8": {**point, "p50_ms": 10.0, "cpu_ms_per_rerun": 4.0}},
            "gpt": {
                "8": {**point, "p50_ms": 15.0, "cpu_ms_per_rerun": 5.0, "messages_per_rerun": 9, "kb_per_rerun": 2.5}
            },
        }
    )
    assert "| gpt | — | 8 | 1.0 | 15.0 | 1.0 | 1.0 | 0 | 1.50 | 5.0 | 1.25 | 9 | 2.5 |" in load.table(results)
    assert "| 4.0 | 1.00 | — | — |" in load.table(results)  # the empty page: no elements counted


def test_the_window_opens_when_every_reader_has_drawn_its_page():
    # No event loop needed (an asyncio.Event binds to one only when awaited): asyncio.run here failed whenever a test
    # before it in the same process had left Playwright's loop running in this thread
    import time

    window = load.Window(sessions=2, seconds=5.0)
    window.arrive()
    assert not window.ready.is_set()
    window.arrive()
    assert window.ready.is_set() and window.until == window.opened + 5.0
    settling = load.Window(sessions=1, seconds=5.0, settle=2.0)
    before = time.monotonic()
    settling.arrive()  # ready at once (readers rerun, not counted), the window two seconds later
    assert settling.ready.is_set() and before + 2.0 <= settling.opened <= time.monotonic() + 2.0


@pytest.mark.e2e
@pytest.mark.parametrize("processes", [0, 2])
def test_readers_rerun_a_page_without_errors(processes):
    """Direct to one process, and through nginx to two: every simulated reader's reruns finish successfully."""
    results = load.run(pages=("attention",), sessions=(3,), seconds=3.0, think=0.2, processes=processes)
    point = results["pages"]["attention"]["3"]
    assert point["errors"] == 0, point["first_error"]
    assert point["reruns"] >= 3 and point["p50_ms"] > 0  # each reader ran the page at least once
    assert point["cpu_ms_per_rerun"] > 0  # the server processes' CPU time in the window, per rerun
    assert results["server_rss_mb"] > 0
    assert "| attention | — | 3 |" in load.table(results)


def test_a_rerun_with_a_new_text_names_the_text_box():
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg.FromString(load.rerun_message("gpt", {"h1"}, ("$$ID-abc-gpt_text", "to be or not")))
    (state,) = msg.rerun_script.widget_states.widgets
    assert (state.id, state.string_value) == ("$$ID-abc-gpt_text", "to be or not")
    assert msg.rerun_script.page_name == "gpt" and list(msg.rerun_script.cached_message_hashes) == ["h1"]
    assert not BackMsg.FromString(load.rerun_message("gpt", set())).rerun_script.widget_states.widgets


def test_a_moved_slider_reruns_its_fragment():
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg.FromString(load.rerun_message("moe", set(), slider=("$$ID-abc-moe_layer", 1.0), fragment="f1"))
    (state,) = msg.rerun_script.widget_states.widgets
    assert (state.id, list(state.double_array_value.data)) == ("$$ID-abc-moe_layer", [1.0])
    assert msg.rerun_script.fragment_id == "f1"


@pytest.mark.e2e
def test_widget_readers_move_each_pages_slider():
    """With mode="widget", the shell around the empty page reruns whole, and GPT's temperature and MoE's layer slider
    each rerun their fragment; every rerun finishes."""
    results = load.run(pages=(load.EMPTY, "gpt", "moe"), sessions=(2,), seconds=4.0, think=0.2, mode="widget")
    for page in (load.EMPTY, "gpt", "moe"):
        point = results["pages"][page]["2"]
        assert point["errors"] == 0, point["first_error"]
        assert point["reruns"] >= 2
    assert results["pages"]["gpt"]["2"]["moved"] == "gpt_temperature (fragment)"
    assert results["pages"]["moe"]["2"]["moved"] == "moe_layer (fragment)"
    assert results["pages"][load.EMPTY]["2"]["moved"] == ""
    # what each rerun sent: the shell's elements, and GPT's temperature fragment (its own elements only)
    sent = {page: results["pages"][page]["2"]["messages_per_rerun"] for page in (load.EMPTY, "gpt")}
    assert sent[load.EMPTY] > 0 and sent["gpt"] > 0, sent
    assert "moves the page's slider" in load.table(results)


@pytest.mark.e2e
def test_new_text_readers_type_into_the_gpt_page():
    """With new_text, every recorded rerun typed a text of its own into GPT's box, and all finished."""
    results = load.run(pages=("gpt",), sessions=(2,), seconds=4.0, think=0.2, mode="new_text")
    point = results["pages"]["gpt"]["2"]
    assert point["errors"] == 0, point["first_error"]
    assert point["reruns"] >= 2
    assert "a new text typed for every rerun" in load.table(results)


def test_points_wait_for_the_server_to_be_quiet():
    """cpu_seconds reads a process's CPU time; until_quiet returns once the processes are idle, and not before."""
    import os
    import subprocess
    import sys
    import time

    before = load.cpu_seconds([os.getpid()])
    end = time.process_time() + 0.3
    while time.process_time() < end:  # busy for 0.3 s of CPU
        pass
    assert load.cpu_seconds([os.getpid()]) - before >= 0.2
    idle = subprocess.Popen(["sleep", "30"])
    busy = subprocess.Popen([sys.executable, "-c", "import time\nend = time.time() + 2\nwhile time.time() < end: pass"])
    try:
        assert load.until_quiet([idle.pid]) < 1.5  # idle at once: one half-second look
        assert load.until_quiet([busy.pid], longest=10.0) >= 1.0  # waits while it spins, then it exits (0 CPU after)
    finally:
        idle.kill()
        busy.kill()


def test_a_page_named_with_a_query_opens_that_link():
    assert load.address("empty?bench_kind=metric&bench_n=40") == ("empty", "bench_kind=metric&bench_n=40")
    assert load.address("forward-pass") == ("forward-pass", load.QUERY["forward-pass"])
    assert load.address("gpt") == ("gpt", "")
    # a page's own query first, then the one named with it
    assert load.address("forward-pass?forward_pass_model=m") == (
        "forward-pass",
        load.QUERY["forward-pass"] + "&forward_pass_model=m",
    )
    pages = common.ELEMENTS_ARGS[common.ELEMENTS_ARGS.index("--pages") + 1 :]
    assert pages[0] == load.EMPTY and len(pages) == 1 + len(common.ELEMENT_KINDS)


def test_the_table_says_what_one_element_adds():
    point = {"reruns_per_s": 1.0, "p50_ms": 1.0, "p95_ms": 1.0, "p99_ms": 1.0, "errors": 0, "moved": ""}
    results = run_of(
        {
            load.EMPTY: {"128": {**point, "cpu_ms_per_rerun": 6.0}},
            "empty?bench_kind=metric&bench_n=40": {"128": {**point, "cpu_ms_per_rerun": 18.0}},
            "gpt": {"128": {**point, "cpu_ms_per_rerun": 9.0}},
        }
    )
    assert load.per_element(results) == {("metric", "128"): 0.3}
    assert "metric 0.300 ms (128 readers)" in load.table(results)


@pytest.mark.e2e
def test_the_empty_page_draws_the_elements_its_link_names():
    """Opened with bench_kind and bench_n, the empty page sends that many more elements of that kind."""
    pages = (load.EMPTY, "empty?bench_kind=metric&bench_n=5", "empty?bench_kind=download&bench_n=3")
    results = load.run(pages=pages, sessions=(1,), seconds=2.0, think=0.2)
    sent = {}
    for page in pages:
        point = results["pages"][page]["1"]
        assert point["errors"] == 0, point["first_error"]
        sent[page] = point["messages_per_rerun"]
    assert sent[pages[1]] - sent[load.EMPTY] == 5 and sent[pages[2]] - sent[load.EMPTY] == 3, sent


def test_the_benchmark_leaves_the_callers_environment_as_it_was(monkeypatch):
    """bench.load sets variables for the servers it starts; run inside the test process, it must put them back, or
    every later server of the suite starts without its warm-up and with the benchmark's empty page."""
    monkeypatch.setenv("TE_WARM_UP", "1")
    monkeypatch.delenv("TE_BENCH_EMPTY_PAGE", raising=False)
    load.run(pages=("attention",), sessions=(1,), seconds=1.0, think=0.2)
    assert os.environ["TE_WARM_UP"] == "1" and "TE_BENCH_EMPTY_PAGE" not in os.environ
