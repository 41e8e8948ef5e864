"""bench/classroom.py: a class over Streamlit's websocket protocol through deploy/launch.py, with a process killed
mid-class or a reader hammering beside it (smoke runs of a few students and seconds; `python -m bench.classroom`
makes the full tables)."""

from __future__ import annotations

import pytest

from bench import classroom
from deploy import launch

needs_nginx = pytest.mark.skipif(not launch.have_nginx(), reason="nginx is not installed (apt-get install nginx)")


def test_a_moved_slider_is_written_into_the_url_as_the_browser_writes_it():
    assert classroom.with_param("", "moe_layer", 1.0) == "moe_layer=1"
    assert classroom.with_param("moe_layer=1&lang=zh", "moe_layer", 0.0) == "moe_layer=0&lang=zh"
    assert classroom.with_param("a=b", "t5_density", 0.15) == "a=b&t5_density=0.15"


def test_the_summary_counts_where_students_were_and_who_came_back():
    a = classroom.Student(0, "moe", moves_ms=[10.0, 30.0], first="te0", jar={launch.COOKIE: "te1"})
    a.dropped, a.reconnect_s, a.restored, a.restorable, a.moved_to = 1, [0.5], 1, 1, "te1"
    b = classroom.Student(1, "gpt", moves_ms=[20.0], first="te1", jar={launch.COOKIE: "te1"}, opened_ms=900.0)
    b.errors.append("gpt: a move failed")
    a.drawn_at, a.moves_at, b.drawn_at, b.moves_at = 0.0, [1.0, 2.0], 1.5, [3.0]  # b drew its page last, at 1.5
    s = classroom.summary([a, b], classroom.Machine(busy=0.9, servers=0.6, load=(3.0, 2.0, 1.0)))
    assert (s["students"], s["moves"], s["p50_ms"], s["errors"]) == (2, 3, 20.0, 1)
    assert (s["steady_moves"], s["steady_p50_ms"]) == (2, 25.0)  # the moves from 1.5 on: 30 and 20 ms
    assert s["per_process"] == {"te0": {"first": 1, "end": 0}, "te1": {"first": 1, "end": 2}}
    assert (s["dropped"], s["reconnected"], s["restored"], s["restorable"], s["landed_on"]) == (1, 1, 1, 1, ["te1"])
    results = {
        **dict(machine="m", when="w", students=2, seconds=4, processes=2, move_s=2.0, start_s=9.0),
        **dict(warm=False, pages=["moe", "gpt"], kill_at=2.0, restarts=[1, 0, 0], runs={"fault": s}),
    }
    text = classroom.table(results)
    assert (
        "| fault | 2 | 3 | 20.0 |" in text
        and "| 2, 25.0 / 30.0 |" in text
        and "te0 1 → 0, te1 1 → 2" in text
        and "| 1 of 1 |" in text
    )
    assert "Process 0 killed (SIGKILL) 2 s in" in text and "cores 90% busy, the servers 60%" in text


@pytest.mark.e2e
@needs_nginx
def test_a_small_class_moves_without_errors_on_both_processes():
    results = classroom.run(students=4, seconds=4.0, processes=2, warm=False, pages=("attention", "moe"))
    run = results["runs"]["class"]
    assert run["errors"] == 0, run["first_errors"]
    assert run["moves"] >= 4 and run["p50_ms"] > 0
    assert {k: v["first"] for k, v in run["per_process"].items()} == {"te0": 2, "te1": 2}  # in turn
    assert "| class | 4 |" in classroom.table(results)


@pytest.mark.e2e
@needs_nginx
def test_a_killed_process_sends_its_students_to_the_live_one_with_their_pages():
    """Process 0 killed mid-class: its students' websockets drop, each comes back on process 1 with its slider where
    its URL left it, and nobody has an error; the launcher restarted the dead process."""
    results = classroom.run(students=4, seconds=14.0, processes=2, kill_at=7.0, warm=False, pages=("moe",))
    run = results["runs"]["fault"]
    assert run["errors"] == 0, run["first_errors"]
    assert run["dropped"] == 2 and run["reconnected"] == 2 and run["landed_on"] == ["te1"]
    assert run["restored"] == run["restorable"] == 2  # moe_layer is bound to the URL
    assert run["per_process"]["te1"]["end"] == 4 and results["restarts"][0] == 1


@pytest.mark.e2e
@needs_nginx
def test_the_hammer_runs_beside_the_class():
    results = classroom.run(students=2, seconds=4.0, processes=2, hammer=True, warm=False, pages=("attention",))
    alone, beside = results["runs"]["class"], results["runs"]["hammer"]
    assert alone["errors"] == 0 and beside["errors"] == 0 and beside["hammer"]["errors"] == 0
    assert beside["hammer"]["moves"] > beside["moves"]  # every 50 ms against every ~2 s
    assert "The class's p95 beside it ÷ alone" in classroom.table(results)
