"""Training a learner starts on a page (the GPT page's "train it yourself"), shared by every session of the process.

One training runs at a time, in a process of its own with one thread (``models.dynamics.live_process``), so the
server's other sessions keep their cores and the interpreter lock; the others wait in a queue and see their place.
A run stops at its last step, when its learner cancels it, or at the time cap (``TE_LIVE_CAP_S``, 420 s by
default). What it sends — every head's scores and the losses every ``measure_every`` steps, the weights every
``SNAPSHOT_EVERY`` steps — is kept on its ``Job``, which the page reads while it runs. Nothing is written to disk.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from app.shared.i18n import InputError

SNAPSHOT_EVERY = 250  # steps between the weights a live run keeps (its step slider)
MAX_WAITING = 24  # runs a process queues; one more is refused with a message
LEARNING_RATES = (1e-3, 3e-3, 6e-3, 1e-2)
FINISHED = ("done", "cancelled", "capped", "failed")


def cap_s() -> float:
    return float(os.environ.get("TE_LIVE_CAP_S", "420"))


@dataclass
class Job:
    """One learner's run: its settings, where it stands and what it has sent so far."""

    id: int
    seed: int
    lr: float
    steps: int
    status: str = "queued"  # queued, starting, running, then one of FINISHED
    measured: list[int] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    measures: list[dict] = field(default_factory=list)
    snapshots: dict[int, dict] = field(default_factory=dict)  # step -> {parameter: float16 array}
    started: float | None = None
    finished: float | None = None
    error: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def active(self) -> bool:
        return self.status not in FINISHED

    @property
    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        return (self.finished or time.monotonic()) - self.started

    @property
    def step(self) -> int:
        return self.measured[-1] if self.measured else 0

    def scores(self, key: str) -> np.ndarray:
        """(M, L, H): ``prev_token`` or ``induction`` at every measure so far."""
        return np.asarray([m[key] for m in self.measures], dtype=float)


class LiveTrainer:
    """The process's queue of live runs and the one worker thread that runs them in turn."""

    def __init__(self, folder: str, settings: dict, target=None):
        self.folder, self.settings = folder, dict(settings)
        self.target = target or live_target  # the training process's function (a module-level one: it is spawned)
        self._lock = threading.Lock()
        self._waiting: list[Job] = []
        self._running: Job | None = None
        self._jobs: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._worker: threading.Thread | None = None

    def submit(self, seed: int, lr: float) -> Job:
        if lr not in LEARNING_RATES or not 0 <= seed <= 9999:
            raise InputError("gpt.live.error.settings", rates=", ".join(f"{r:g}" for r in LEARNING_RATES))
        with self._lock:
            if len(self._waiting) >= MAX_WAITING:
                raise InputError("gpt.live.error.full", n=MAX_WAITING)
            job = Job(id=next(self._ids), seed=seed, lr=lr, steps=self.settings["steps"])
            self._jobs[job.id] = job
            if self._running is None:  # nothing runs: this one does, now (its worker takes the next ones)
                self._running, job.status = job, "starting"
                self._worker = threading.Thread(target=self._work, name="live-training", daemon=True)
                self._worker.start()
            else:
                self._waiting.append(job)
        return job

    def job(self, job_id: int | None) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id) if job_id is not None else None

    def place(self, job: Job) -> int:
        """0 while it runs (or has run); n when it waits behind the running one and n − 1 waiting ones."""
        with self._lock:
            return self._waiting.index(job) + 1 if job in self._waiting else 0

    def cancel(self, job: Job) -> None:
        with self._lock:
            if job in self._waiting:
                self._waiting.remove(job)
                job.status, job.finished = "cancelled", time.monotonic()
                return
        job.cancel.set()

    def _work(self) -> None:
        while True:
            with self._lock:
                job = self._running
            self._run(job)
            with self._lock:
                if not self._waiting:
                    self._running = None
                    return
                self._running = self._waiting.pop(0)
                self._running.status = "starting"

    def _run(self, job: Job) -> None:
        ctx = mp.get_context("spawn")  # a fresh interpreter: no copy of the server's threads or locks
        receive, send = ctx.Pipe(duplex=False)
        settings = {**self.settings, "lr": job.lr}
        process = ctx.Process(
            target=self.target, args=(self.folder, settings, job.seed, SNAPSHOT_EVERY, send), daemon=True
        )
        job.status, job.started = "starting", time.monotonic()
        process.start()
        send.close()
        try:
            while True:
                if job.cancel.is_set():
                    job.status = "cancelled"
                    break
                if job.elapsed > cap_s():
                    job.status = "capped"
                    break
                if not receive.poll(0.2):
                    if not process.is_alive() and not receive.poll(0):
                        job.status, job.error = "failed", job.error or "the training process ended"
                        break
                    continue
                try:
                    message = receive.recv()
                except EOFError:
                    continue
                kind = message[0]
                if kind == "ready":
                    job.status = "running"
                elif kind == "measure":
                    _, step, loss, found = message
                    job.measures.append(found)
                    job.loss.append(loss)
                    job.measured.append(step)
                elif kind == "snapshot":
                    job.snapshots[message[1]] = message[2]
                elif kind == "done":
                    job.status = "done"
                    break
                elif kind == "failed":
                    job.status, job.error = "failed", message[1]
                    break
        finally:
            job.finished = time.monotonic()
            if process.is_alive():
                process.terminate()
            process.join(5)
            receive.close()


def live_target(folder: str, settings: dict, seed: int, snapshot_every: int, conn) -> None:
    """What the spawned process runs: ``models.dynamics.live_process`` (imported there, in the child)."""
    from models.dynamics import live_process

    live_process(folder, settings, seed, snapshot_every, conn)


_TRAINER: LiveTrainer | None = None
_TRAINER_LOCK = threading.Lock()


def trainer() -> LiveTrainer:
    """The process's one ``LiveTrainer``, on the recorded dynamics checkpoint's tokenizer and settings."""
    global _TRAINER
    with _TRAINER_LOCK:
        if _TRAINER is None:
            from app.shared import services
            from models import dynamics

            ck = services.checkpoint("gpt-induction")
            ck.require()
            card = ck.card.get("settings", {})
            settings = {k: card.get(k, v) for k, v in dynamics.SETTINGS.items()}
            _TRAINER = LiveTrainer(str(ck.folder), settings)
        return _TRAINER
