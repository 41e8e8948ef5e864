"""Recompute a checkpoint's metrics from its weights and held-out data.

    python -m models.evaluate NAME

Prints the metrics as one JSON object on stdout; exits 1 when a bar of the card is missed.
"""

from __future__ import annotations

import argparse
import json
import sys

from models import zoo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("name")
    args = ap.parse_args(argv)
    recipe = zoo.recipe(args.name)
    metrics = recipe.evaluate(zoo.load(args.name), zoo.checkpoint_dir(args.name))
    print(json.dumps(metrics))
    missed = zoo.bars_missed(metrics, recipe.bars)
    if missed:
        print("bars missed: " + "; ".join(missed), file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
