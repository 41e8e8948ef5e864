"""Train a model of the zoo and write its checkpoint and card.

    python -m models.train NAME [--seed N] [--set KEY=VALUE ...] [--init-from CHECKPOINT]

Writes ``models/checkpoints/NAME/`` (or under $TE_CHECKPOINTS): weights, config, tokenizer if any, and a card with
every field written here: the data, this exact command, the seed, the settings (the recipe's defaults with each
``--set`` applied), the parameter count, wall time, hardware, the stages the recipe ran, and the metrics that
``python -m models.evaluate NAME`` recomputes with the bars they must meet. Exits non-zero when a bar is missed.

``--set KEY=VALUE`` overrides one training setting (VALUE is read as JSON, else as a string), e.g. ``--set
steps=300``; ``--init-from`` starts from another checkpoint's weights (a name in the zoo or a folder), and its card's
command and stages are recorded on the new card.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import torch

from models import recipes as registry
from models import training, zoo


def hardware() -> str:
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "CPU"
    return f"{platform.machine()}, {os.cpu_count()} cores, {torch.get_num_threads()} torch threads, {device}"


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` -> (key, value read as JSON, or the plain string when it is not JSON)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--set takes KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def settings_for(recipe: registry.Recipe | registry.Sweep, overrides: list[str]) -> dict[str, Any]:
    settings = json.loads(json.dumps(recipe.defaults))  # a deep copy
    for text in overrides:
        key, value = parse_setting(text)
        if key not in settings:
            raise ValueError(f"{recipe.name} has no setting {key!r}; its settings: {', '.join(sorted(settings))}")
        settings[key] = value
    return settings


def init_dir(arg: str) -> Path:
    """A checkpoint name of the zoo, or a folder holding a checkpoint."""
    path = zoo.checkpoint_dir(arg) if "/" not in arg else Path(arg)
    if not (path / "model.safetensors").exists():
        raise ValueError(f"--init-from {arg}: no model.safetensors in {path}")
    return path


def init_record(path: Path, arg: str) -> dict[str, Any]:
    """What the new card says of the checkpoint it started from."""
    card = json.loads((path / "card.json").read_text()) if (path / "card.json").exists() else {}
    return {
        "checkpoint": arg,
        "command": card.get("command"),
        "wall_time_s": card.get("wall_time_s"),
        "stages": card.get("stages", []),
        "init_from": card.get("init_from"),
    }


def run_sweep(sweep: registry.Sweep, seed: int, overrides: list[str]) -> int:
    """A sweep: its runs into ``checkpoints/<folder>/runs.json`` (resuming), then its card with the fits."""
    settings = settings_for(sweep, overrides)
    folder = zoo.checkpoint_dir(sweep.folder)
    start = time.perf_counter()
    own = sweep.run(settings, seed, folder)
    command = shlex.join(
        ["python", "-m", "models.train", sweep.name, "--seed", str(seed), *[a for o in overrides for a in ("--set", o)]]
    )
    runs = json.loads((folder / "runs.json").read_text())["runs"]
    card: dict[str, Any] = {
        "name": sweep.folder,
        "sweep": sweep.name,
        "data": sweep.data(),
        "command": command,
        "seed": seed,
        "settings": settings,
        "params": max(r["params_total"] for r in runs),
        "params_note": "the largest run's parameters, embeddings included (each run's counts are in runs.json)",
        "wall_time_s": round(sum(r["wall_time_s"] for r in runs), 1),
        "wall_time_note": f"the sum of the runs' training times; this call took {time.perf_counter() - start:.0f} s",
        "hardware": hardware(),
        **own,
    }
    metrics = sweep.evaluate(folder)
    card.update(metrics=metrics, bars=sweep.bars, fits=sweep.extra(folder))
    zoo.write_card(sweep.folder, card)
    print(f"{sweep.name}: {metrics}", file=sys.stderr)
    missed = zoo.bars_missed(metrics, sweep.bars)
    if missed:
        print("bars missed: " + "; ".join(missed), file=sys.stderr)
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.splitlines()[0])
    ap.add_argument(
        "name", help="checkpoint or sweep name, e.g. " + ", ".join(sorted([*registry.recipes(), *registry.sweeps()]))
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one training setting (repeatable)",
    )
    ap.add_argument("--init-from", metavar="CHECKPOINT", help="start from this checkpoint's weights")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where the optimiser steps run")
    args = ap.parse_args(argv)
    if args.name in registry.sweeps():
        try:
            return run_sweep(registry.sweeps()[args.name], args.seed, args.overrides)
        except ValueError as e:
            ap.error(str(e))
    try:
        recipe = registry.recipe(args.name)
        settings = settings_for(recipe, args.overrides)
        start_from = init_dir(args.init_from) if args.init_from else None
        training.use_device(args.device)
    except (KeyError, ValueError) as e:
        ap.error(str(e).strip("'\""))
    torch.manual_seed(args.seed)
    out = zoo.checkpoint_dir(args.name)
    out.mkdir(parents=True, exist_ok=True)

    start = time.perf_counter()
    trained = recipe.train(registry.Run(seed=args.seed, out=out, settings=settings, init_from=start_from))
    wall = time.perf_counter() - start
    trained.model.cpu()  # saved, evaluated and exported on the CPU wherever it trained

    command = shlex.join(
        [
            "python",
            "-m",
            "models.train",
            args.name,
            "--seed",
            str(args.seed),
            *[a for o in args.overrides for a in ("--set", o)],
            *(["--init-from", args.init_from] if args.init_from else []),
            *(["--device", args.device] if args.device != "cpu" else []),
        ]
    )
    card: dict[str, Any] = {
        "name": args.name,
        "arch": recipe.arch,
        "data": trained.data,
        "command": command,
        "seed": args.seed,
        "settings": settings,
        **({"init_from": init_record(start_from, args.init_from)} if start_from else {}),
        "params": zoo.parameter_count(trained.model),
        "wall_time_s": round(wall, 1),
        "hardware": hardware(),
        "stages": trained.stages,
        **trained.card,
        **({"snapshots": trained.snapshots, "history": trained.history} if trained.snapshots else {}),
    }
    zoo.save(args.name, trained.model, trained.config, card, trained.files, serving=recipe.serving())
    metrics = recipe.evaluate(zoo.load(args.name), out)
    card.update(metrics=metrics, bars=recipe.bars)
    zoo.write_card(args.name, card)
    missed = zoo.bars_missed(metrics, recipe.bars)
    print(f"{args.name}: {metrics}", file=sys.stderr)
    if missed:
        print("bars missed: " + "; ".join(missed), file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
