"""Steering's cost (issue 63): greedy generation speed plain and steered, on our GPT and on SmolLM2-135M-Instruct:

    .venv/bin/python -m bench.steering [--repeats 5] [--out bench/steering.md]

Each model decodes the same prompt for a fixed number of new tokens with the KV cache, through ``models.gpt.decode``
over the eager step (the path the Feature microscope's steering section runs): plain (no override), steered with
α = 0 (the override adding zeros: what the hook alone costs) and steered with the α the page's examples use (ours:
feature 3790 of gpt-sae after block 1; SmolLM2: the difference of two prompt lists' means after block 6, and feature
3733 of smollm2-sae after block 14). One torch thread; the three runs interleaved, ``--repeats`` rounds, the median
(and the fastest and slowest) tokens per second. SmolLM2 is left out, with a line saying so, where this machine does
not have it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bench.common import ROOT, machine, now

PROMPT = "First Citizen.\nBefore we proceed"
REAL_PROMPT = "I think that my neighbour is"
FEATURE_PROMPT = "First Citizen.\nBefore we proceed"  # the page's default prompt
A = ("I love thee, my sweet lord", "O happy day, my joy", "Gentle love and gladness")
B = ("I hate thee, vile traitor", "O wretched day, my grief", "Bitter hate and anger")
REAL = "smollm2-135m"


def _setups() -> list[dict]:
    from models import pretrained, steering, zoo

    out = []
    model, d = zoo.load("gpt").eval(), zoo.load("gpt-sae").eval()
    tok = zoo_tokenizer("gpt")
    out.append(
        dict(
            name="gpt (ours)",
            model=model,
            prompt=[0, *tok.encode(PROMPT).ids],
            n=64,
            layer=1,
            direction=steering.feature_direction(d, 3790),
            alpha=0.2,
            what="feature 3790 of gpt-sae, after block 1",
        )
    )
    if REAL in pretrained.available("llama"):
        if not pretrained.converted(REAL):
            pretrained.prepare(REAL)
        model = zoo.load(REAL).eval()
        tok = zoo_tokenizer(REAL)
        enc = lambda s: tok.encode(s).ids  # noqa: E731
        layer = 6
        out.append(
            dict(
                name=f"{REAL} (real)",
                model=model,
                prompt=enc(REAL_PROMPT),
                n=32,
                layer=layer,
                direction=steering.difference_of_means(model, [enc(s) for s in A], [enc(s) for s in B], layer),
                alpha=0.5,
                what="love − hate lists' difference of means, after block 6",
            )
        )
        out.append(
            dict(
                name=f"{REAL} (real)",
                model=model,
                prompt=enc(FEATURE_PROMPT),
                n=32,
                layer=14,
                direction=steering.feature_direction(zoo.load("smollm2-sae").eval(), 3733),
                alpha=0.5,
                what="feature 3733 of smollm2-sae (“Officers”), after block 14",
            )
        )
    return out


def zoo_tokenizer(name: str):
    from models import metrics, zoo

    return metrics.tokenizer(zoo.checkpoint_dir(name))


def _speed(setup: dict, alpha: float | None) -> float:
    """Tokens per second of one greedy decoding: plain (``alpha`` None) or with α · ν · u added."""
    import torch

    from models import gpt, steering
    from models.probe import intervene

    model, prompt, n, layer = setup["model"], setup["prompt"], setup["n"], setup["layer"]
    step = gpt.eager_step(model)
    if alpha is None:
        start = time.perf_counter()
        got = len(list(gpt.decode(step, prompt, n, max_len=model.config.max_len, temperature=0.0)))
        return got / (time.perf_counter() - start)
    nu = steering.typical_norm(steering.stream(model, prompt, layer))
    vector = (alpha * nu * setup["direction"]).to(torch.float32)
    start = time.perf_counter()
    with intervene(steering.steer(layer, vector)):
        got = len(list(gpt.decode(step, prompt, n, max_len=model.config.max_len, temperature=0.0)))
    return got / (time.perf_counter() - start)


def measure(repeats: int) -> tuple[list[dict], bool]:
    import torch

    torch.set_num_threads(1)
    rows = []
    setups = _setups()
    for s in setups:
        runs = {"plain": [], "α = 0": [], f"α = {s['alpha']:g}": []}
        _speed(s, None)  # warm-up
        for _ in range(repeats):
            for label, alpha in zip(runs, (None, 0.0, s["alpha"])):
                runs[label].append(_speed(s, alpha))
        for label, speeds in runs.items():
            rows.append(
                dict(
                    model=s["name"],
                    run=label,
                    direction=s["what"] if label != "plain" else "—",
                    n=s["n"],
                    median=statistics.median(speeds),
                    low=min(speeds),
                    high=max(speeds),
                )
            )
    return rows, any(s["name"].startswith(REAL) for s in setups)


def table(rows: list[dict], real: bool, repeats: int) -> str:
    lines = [
        "# Steering: generation speed, plain and steered",
        "",
        f"`python -m bench.steering --repeats {repeats}`, {now()}, on {machine()}; one torch thread.",
        "",
        "Greedy decoding with the KV cache through `models.gpt.decode` over the eager step (the steering section's "
        "path), the prompt read once, then one token per step. Steered runs add α · ν · u to the stream after the "
        "block named, at every position (`models.steering`); α = 0 is the hook adding zeros. Tokens per second: "
        f"the median of {repeats} interleaved rounds (slowest – fastest).",
        "",
        "| model | run | direction | new tokens | tokens/s (median) | slowest – fastest |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['run']} | {r['direction']} | {r['n']} | {r['median']:.1f} | "
            f"{r['low']:.1f} – {r['high']:.1f} |"
        )
    if not real:
        lines += ["", f"{REAL} is not on this machine (`python -m models.data.pretrained`): ours only."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "bench" / "steering.md"))
    args = parser.parse_args()
    rows, real = measure(args.repeats)
    text = table(rows, real, args.repeats)
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
