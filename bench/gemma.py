"""Gemma 3 270M (a real model with sliding-window layers, issue 64) beside our ``mistral``, in one run:

    .venv/bin/python -m bench.gemma [--repeats 3] [--out bench/gemma]

Needs the file ``python -m models.data.pretrained gemma-3-270m`` brings (on request: Gemma's terms). Measured as
bench/real.py measures SmolLM2, with its functions: the conversion from the GGUF file into a fresh folder (one run,
in its own process: seconds, peak RSS, the folder's size), ``zoo.load`` in a fresh process (seconds; RSS after the
imports, the load, one forward of 256 tokens recording every attention pattern; peak), forward latency through the
engine at 16–256 tokens (no probes, and every pattern recorded; torch's default threads and one), and greedy
decoding with the cache (Gemma: rolling buffers of W in its local layers, growing caches in its global ones) and
without. Medians (p95) of interleaved rounds, all in one run on one machine.

    .venv/bin/python -m bench.gemma --part long [--repeats 3]   (bench/gemma-long.md)

The Mistral page's own work on Gemma's text, longer than its window (``app.mistral.service.LONG_TEXT``, 593 tokens):
the forward recording every attention pattern, and the reach at the last token measured as the page does (the
layers ``reach_layers`` picks, the blocks after them not run) against every layer up to the first global one and
the last (the page's rule before), at torch's default threads.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import textwrap
from pathlib import Path

from bench import real
from bench.common import ROOT, machine, now

KEY = "gemma-3-270m"
OURS = "mistral"


def conversion() -> dict:
    """``models.pretrained.prepare(KEY)`` from the GGUF file into a fresh ``TE_PRETRAINED`` folder, once, in its own
    process (an empty, offline Hugging Face cache: the file is the source)."""
    tmp = Path(tempfile.mkdtemp(prefix="te-gemma-"))
    try:
        (tmp / "hf").mkdir()
        env = {"TE_PRETRAINED": str(tmp / "pretrained"), "HF_HUB_CACHE": str(tmp / "hf"), "HF_HUB_OFFLINE": "1"}
        run, wall = real._child(f"KEY = {KEY!r}\n" + textwrap.dedent(real.CONVERT), env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {**{k: round(v, 1) if isinstance(v, float) else v for k, v in run.items()}, "process_wall_s": round(wall, 1)}


def measure(repeats: int) -> dict:
    from models.data import pretrained as fetched

    if fetched.gguf_source(KEY) is None:
        raise SystemExit(f"{KEY} is not here: python -m models.data.pretrained {KEY}")
    from models import pretrained

    pretrained.prepare(KEY)
    names = (OURS, KEY)
    return {
        "machine": machine(),
        "when": now(),
        "repeats": repeats,
        "conversion": conversion(),
        "load": {name: real.loading(name, repeats) for name in names},
        "forward": real.forward(names, max(repeats, 3)),
        "decode": real.decoding(names, max(repeats, 3)),
    }


def long_text(repeats: int) -> dict:
    """The page's forward of ``LONG_TEXT`` with every pattern, and its reach at the last token two ways (module
    docstring): ms per call (``real._rounds``), the layers each measured, and the patterns' size."""
    import numpy as np
    import torch

    from app.mistral import service as svc
    from models import mistral

    ck = svc.handle(KEY)
    model, ids = ck.model, svc.encode(svc.LONG_TEXT, name=KEY)
    T, s = len(ids), svc.shape(KEY)
    page = svc.reach_layers(T - 1, KEY)
    before = tuple(sorted({*range(s.global_[0] + 1), s.n_layers - 1}))
    tokens = torch.as_tensor(ids)[None]

    def reach(layers):
        def call():
            with torch.enable_grad():
                return mistral.influence(model, tokens, T - 1, layers)

        return call

    patterns = ck.run({"tokens": ids[None]}, svc.PROBES, "torch").probes
    cells = {
        "forward with every pattern": lambda: ck.run({"tokens": ids[None]}, svc.PROBES, "torch"),
        "reach, the page's layers": reach(page),
        "reach, every layer to the first global one and the last": reach(before),
    }
    samples = real._rounds(cells, repeats, 300.0)
    return {
        "tokens": T,
        "window": s.window,
        "threads": torch.get_num_threads(),
        "patterns_mb": round(sum(np.asarray(a).nbytes for a in patterns.values()) / 2**20, 1),
        "layers": {"reach, the page's layers": page, "reach, every layer to the first global one and the last": before},
        "ms": {k: real._stats(v, 1) for k, v in samples.items()},
    }


def long_table(r: dict) -> str:
    lines = [
        "# The Mistral page's work on Gemma 3 270M's long text",
        "",
        f"`python -m bench.gemma --part long --repeats {r['repeats']}` — {r['machine']}, {r['when']}. torch on the "
        f"CPU, {r['long']['threads']} threads; p50 (p95) ms.",
        "",
        f"The text: {r['long']['tokens']} tokens (W = {r['long']['window']}); every pattern recorded: "
        f"{r['long']['patterns_mb']} MB.",
        "",
        "| work | layers | ms |",
        "|---|---|---|",
    ]
    for work, row in r["long"]["ms"].items():
        layers = ", ".join(map(str, r["long"]["layers"].get(work, ()))) or "all"
        lines.append(f"| {work} | {layers} | {real._cell(row)} |")
    return "\n".join(lines) + "\n"


def table(r: dict) -> str:
    conv, load, fwd, dec = r["conversion"], r["load"], r["forward"], r["decode"]
    lines = [
        "# Gemma 3 270M beside our Mistral",
        "",
        f"`python -m bench.gemma --repeats {r['repeats']}` — {r['machine']}, {r['when']}. torch on the CPU; p50 (p95).",
        "",
        f"Conversion from the 4-bit GGUF file ({conv['kind']}): {conv['s']} s, peak RSS {conv['peak_rss_mb']} MB, "
        f"folder {conv['folder_mb']} MB (float32).",
        "",
        "| model | parameters | load s | RSS after imports MB | after load MB | after a forward of 256 tokens MB "
        "| peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in load.items():
        lines.append(
            f"| `{name}` | {row['params']:,} | {real._cell(row['s'])} | {row['rss_imported_mb']} | "
            f"{row['rss_loaded_mb']} | {row['rss_after_forward_mb']} | {real._cell(row['peak_rss_mb'])} |"
        )
    lines += ["", "Forward through the engine, ms (no probes / every attention pattern recorded):", ""]
    lines += ["| model | tokens | default threads | with patterns | 1 thread | with patterns, 1 thread |"]
    lines += ["|---|---|---|---|---|---|"]
    many, one = f"{max(real._threads())}t", "1t"  # torch's default threads (as the server runs), and one
    for name, by_t in fwd.items():
        for T, row in by_t.items():
            cells = [real._cell(row.get(f"{kind}_{n}")) for n in (many, one) for kind in ("plain", "patterns")]
            lines.append(f"| `{name}` | {T} | " + " | ".join(cells) + " |")
    lines += ["", "Greedy decoding, 32 new tokens after 16, one torch thread, tokens/s:", ""]
    lines += ["| model | with the cache | without | speed-up | same tokens |", "|---|---|---|---|---|"]
    for name, row in dec.items():
        lines.append(
            f"| `{name}` | {real._cell(row['cached_tokens_per_s'])} | {real._cell(row['full_tokens_per_s'])} | "
            f"{row['speedup']}× | {row['same_tokens']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None, help="default bench/gemma, or bench/gemma-long with --part long")
    parser.add_argument("--part", choices=("all", "long"), default="all")
    args = parser.parse_args()
    if args.part == "long":
        r = {"machine": machine(), "when": now(), "repeats": args.repeats, "long": long_text(args.repeats)}
        out = ROOT / (args.out or "bench/gemma-long")
        out.with_suffix(".json").write_text(json.dumps(r, indent=1) + "\n")
        out.with_suffix(".md").write_text(long_table(r))
        print(long_table(r))
        return
    r = measure(args.repeats)
    out = ROOT / (args.out or "bench/gemma")
    out.with_suffix(".json").write_text(json.dumps(r, indent=1) + "\n")
    out.with_suffix(".md").write_text(table(r))
    print(table(r))


if __name__ == "__main__":
    main()
