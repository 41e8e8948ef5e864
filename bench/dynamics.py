"""Recorded and live training, measured (issue 62): loading a training snapshot against the trained weights, and the
live trainer's steps per second on its one thread.

    .venv/bin/python -m bench.dynamics [--seconds 90] [--out bench/dynamics]

Snapshot load: ``zoo.load("gpt-induction@STEP")`` (read, sha256 check, float16 -> float32) for every kept step,
against ``zoo.load("gpt-induction")``, fresh each time (the engine then keeps it). Live: one run of the page's
live trainer (``app.shared.training_jobs.LiveTrainer``, a spawned process with one torch thread) for ``--seconds``,
its steps per second over the time it trained (from its first measure to its last, the start-up — spawning,
importing torch, encoding the plays — reported apart). Medians of repeated loads, all in one run on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench.common import ROOT, machine, now
from models import zoo

NAME = "gpt-induction"


def snapshot_load(repeats: int = 5) -> dict:
    steps = [r["step"] for r in zoo.snapshots(NAME)]

    def timed(name: str) -> float:
        start = time.perf_counter()
        zoo.load(name)
        return (time.perf_counter() - start) * 1e3

    snap = [timed(zoo.snapshot_name(NAME, s)) for _ in range(repeats) for s in steps]
    final = [timed(NAME) for _ in range(repeats * 4)]
    return {
        "snapshots": len(steps),
        "bytes": sum(r["bytes"] for r in zoo.snapshots(NAME)),
        "snapshot_ms_p50": round(statistics.median(snap), 2),
        "final_ms_p50": round(statistics.median(final), 2),
    }


def live(seconds: float) -> dict:
    import os

    from app.shared import training_jobs as live_mod

    os.environ["TE_LIVE_CAP_S"] = str(seconds)
    card = zoo.read_card(NAME)
    from models import dynamics

    settings = {k: card["settings"].get(k, v) for k, v in dynamics.SETTINGS.items()}
    trainer = live_mod.LiveTrainer(str(zoo.checkpoint_dir(NAME)), settings)
    start = time.monotonic()
    job = trainer.submit(0, settings["lr"])
    first = None
    while job.active:
        if first is None and job.measured:
            first = (time.monotonic(), job.step)
        time.sleep(0.05)
    last = (job.finished, job.step)
    trained_s = last[0] - first[0] if first else float("nan")
    return {
        "status": job.status,
        "steps": job.step,
        "startup_s": round(first[0] - start, 1) if first else None,
        "steps_per_s": round((last[1] - first[1]) / trained_s, 2) if first and trained_s > 0 else None,
        "formed": None if not job.measures else _formed(job),
    }


def _formed(job) -> int | None:
    from app.gpt.service import live_formed

    return live_formed(job)


def table(results: dict) -> str:
    s, lv = results["snapshot_load"], results["live"]
    return "\n".join(
        [
            f"Recorded and live training, `python -m bench.dynamics`, {results['when']}, {results['machine']}:",
            "",
            "| measure | value |",
            "|---|---|",
            f"| snapshots of {NAME} | {s['snapshots']}, {s['bytes'] / 1e6:.1f} MB |",
            f"| load a snapshot (p50) | {s['snapshot_ms_p50']} ms |",
            f"| load the trained weights (p50) | {s['final_ms_p50']} ms |",
            f"| live run: start-up (spawn, import, encode) | {lv['startup_s']} s |",
            f"| live run: steps per second (one thread) | {lv['steps_per_s']} |",
            f"| live run: steps in {results['seconds']:.0f} s, status | {lv['steps']}, {lv['status']} |",
            f"| live run: induction head formed at step | {lv['formed']} |",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.dynamics", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=90.0, help="how long the live run trains")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "dynamics", help="writes OUT.json and OUT.md")
    args = ap.parse_args(argv)
    results = {"when": now(), "machine": machine(), "seconds": args.seconds}
    results["snapshot_load"] = snapshot_load()
    results["live"] = live(args.seconds)
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(table(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
