"""bench/load.py: simulated readers over Streamlit's websocket protocol, against a real server and through nginx
(a smoke run of a few seconds; `python -m bench.load` makes the full table)."""

from __future__ import annotations

import pytest

from bench import load


def test_percentiles_and_summary():
    point = load.Point(latencies_ms=[float(v) for v in range(1, 101)], errors=["x"])
    s = load.summary(point, wall_s=10.0)
    assert (s["reruns"], s["reruns_per_s"], s["errors"]) == (100, 10.0, 1)
    assert s["p50_ms"] == 50.5 and s["p95_ms"] == 95.0 and s["p99_ms"] == 99.0


@pytest.mark.e2e
@pytest.mark.parametrize("processes", [0, 2])
def test_readers_rerun_a_page_without_errors(processes):
    """Direct to one process, and through nginx to two: every simulated reader's reruns finish successfully."""
    results = load.run(pages=("attention",), sessions=(3,), seconds=3.0, think=0.2, processes=processes)
    point = results["pages"]["attention"]["3"]
    assert point["errors"] == 0, point["first_error"]
    assert point["reruns"] >= 3 and point["p50_ms"] > 0  # each reader ran the page at least once
    assert results["server_rss_mb"] > 0
    assert "| attention | 3 |" in load.table(results)
