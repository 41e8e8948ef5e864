"""Recompute a checkpoint's metrics from its weights and held-out data.

    python -m models.evaluate NAME [--write]      (NAME: a checkpoint, or a sweep such as scaling-sweep)

Prints the metrics as one JSON object on stdout; exits 1 when a bar of the card is missed. ``--write`` replaces the
card's ``metrics`` with these (after the evaluation gained a measure, e.g. a new extrapolation scheme) and its
``bars`` with the recipe's, and records the command in the card's ``metrics_rewritten_by``; the weights and the rest
of the card stay as trained.
"""

from __future__ import annotations

import argparse
import json
import sys

from models import recipes as registry
from models import zoo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("name")
    ap.add_argument("--write", action="store_true", help="replace the card's metrics with the recomputed ones")
    args = ap.parse_args(argv)
    sweep = registry.sweeps().get(args.name) or registry.sweep_for_folder(args.name)
    if sweep:  # a sweep: its metrics from its table of runs
        recipe, name = sweep, sweep.folder
        metrics = sweep.evaluate(zoo.checkpoint_dir(name))
    else:
        recipe, name = registry.recipe(args.name), args.name
        metrics = recipe.evaluate(zoo.load(name), zoo.checkpoint_dir(name))
    print(json.dumps(metrics))
    if args.write:
        card = zoo.read_card(name)
        card["metrics"], card["bars"] = metrics, recipe.bars
        if sweep:
            card["fits"] = sweep.extra(zoo.checkpoint_dir(name))
        card["metrics_rewritten_by"] = f"python -m models.evaluate {args.name} --write"
        zoo.write_card(name, card)
    missed = zoo.bars_missed(metrics, recipe.bars)
    if missed:
        print("bars missed: " + "; ".join(missed), file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
