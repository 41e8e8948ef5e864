"""Train a model of the zoo and write its checkpoint and card.

    python -m models.train NAME [--seed N]

Writes ``models/checkpoints/NAME/`` (or under $TE_CHECKPOINTS): weights, config, tokenizer if any, and a card
with the data, this exact command, the seed, parameter count, wall time, hardware and the metrics that
``python -m models.evaluate NAME`` recomputes. Exits non-zero when a quality bar is missed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import torch

from models import zoo


def hardware() -> str:
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "CPU"
    return f"{platform.machine()}, {os.cpu_count()} cores, {torch.get_num_threads()} torch threads, {device}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.train", description=__doc__.splitlines()[0])
    ap.add_argument("name", help="checkpoint name, e.g. " + ", ".join(sorted(zoo.recipes())))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    recipe = zoo.recipe(args.name)
    torch.manual_seed(args.seed)
    out = zoo.checkpoint_dir(args.name)
    out.mkdir(parents=True, exist_ok=True)

    start = time.perf_counter()
    trained = recipe.train(args.seed, out)
    wall = time.perf_counter() - start

    card = {
        "name": args.name,
        "data": trained.data,
        "command": f"python -m models.train {args.name} --seed {args.seed}",
        "seed": args.seed,
        "params": zoo.parameter_count(trained.model),
        "wall_time_s": round(wall, 1),
        "hardware": hardware(),
        **trained.card,
    }
    zoo.save(args.name, trained.model, trained.config, card, trained.files)
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
