"""The GPT page's live training: one run at a time in a process of its own, the others queued with their place, a
time cap, cancel — tested on the real queue and real training processes (a short run of the dynamics model)."""

from __future__ import annotations

import time

import pytest

from app.shared import training_jobs as live
from app.shared.i18n import InputError
from models import dynamics, zoo

SHORT = {**dynamics.SETTINGS, "vocab": 2048, "steps": 40, "measure_every": 20}


def wait(predicate, limit: float = 600.0) -> None:
    """Poll a state (not a clock) until it holds; the limit only turns a hang into a failure."""
    end = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < end, "the state never came"
        time.sleep(0.1)


@pytest.fixture
def trainer(monkeypatch):
    monkeypatch.setattr(live, "SNAPSHOT_EVERY", 20)
    return live.LiveTrainer(str(zoo.SHIPPED / "gpt"), SHORT)  # gpt's 2048-id tokenizer: a folder that is always here


def test_runs_wait_their_turn_and_each_sends_its_measures_and_snapshots(trainer):
    first = trainer.submit(1, 6e-3)
    second = trainer.submit(2, 6e-3)
    # the first runs (or starts) at once; the second waits behind it until the first's process has ended
    assert first.status in ("starting", "running") and second.status == "queued" and trainer.place(second) == 1
    wait(lambda: not first.active)
    assert first.status == "done", first.error
    assert first.measured == [0, 20, 40]
    assert sorted(first.snapshots) == [0, 20, 40]
    assert first.scores("induction").shape == (3, 2, 2)
    wait(lambda: not second.active)
    assert second.status == "done", second.error
    # another seed, another run
    assert first.measures[-1]["val_loss"] != second.measures[-1]["val_loss"]


def test_a_run_past_the_time_cap_is_stopped(trainer, monkeypatch):
    monkeypatch.setenv("TE_LIVE_CAP_S", "0.5")
    job = trainer.submit(1, 6e-3)
    wait(lambda: not job.active)
    assert job.status == "capped"
    assert job.elapsed < 60  # the process was ended, not waited for


def test_cancel_ends_a_running_run_and_drops_a_waiting_one(trainer):
    running = trainer.submit(1, 6e-3)
    waiting = trainer.submit(2, 6e-3)
    trainer.cancel(waiting)
    assert waiting.status == "cancelled" and trainer.place(waiting) == 0
    wait(lambda: running.status != "queued")
    trainer.cancel(running)
    wait(lambda: not running.active)
    assert running.status == "cancelled"
    assert waiting.measured == []  # it never ran


def test_bad_settings_and_a_full_queue_are_refused_with_a_message(trainer, monkeypatch):
    with pytest.raises(InputError) as e:
        trainer.submit(1, 0.5)
    assert e.value.key == "gpt.live.error.settings"
    with pytest.raises(InputError):
        trainer.submit(-1, 6e-3)
    monkeypatch.setattr(live, "MAX_WAITING", 1)
    a = trainer.submit(1, 6e-3)
    wait(lambda: a.status != "queued")
    b = trainer.submit(2, 6e-3)
    with pytest.raises(InputError) as e:
        trainer.submit(3, 6e-3)
    assert e.value.key == "gpt.live.error.full"
    trainer.cancel(b)
    trainer.cancel(a)
    wait(lambda: not a.active)
