"""Gemma 3 270M (a real model with sliding-window layers, issue 64) beside our ``mistral``, in one run:

    .venv/bin/python -m bench.gemma [--repeats 3] [--out bench/gemma]

Needs the file ``python -m models.data.pretrained gemma-3-270m`` brings (on request: Gemma's terms). Measured as
bench/real.py measures SmolLM2, with its functions: the conversion from the GGUF file into a fresh folder (one run,
in its own process: seconds, peak RSS, the folder's size), ``zoo.load`` in a fresh process (seconds; RSS after the
imports, the load, one forward of 256 tokens recording every attention pattern; peak), forward latency through the
engine at 16–256 tokens (no probes, and every pattern recorded; torch's default threads and one), and greedy
decoding with the cache (Gemma: rolling buffers of W in its local layers, growing caches in its global ones) and
without. Medians (p95) of interleaved rounds, all in one run on one machine.
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
    parser.add_argument("--out", default="bench/gemma")
    args = parser.parse_args()
    r = measure(args.repeats)
    out = ROOT / args.out
    out.with_suffix(".json").write_text(json.dumps(r, indent=1) + "\n")
    out.with_suffix(".md").write_text(table(r))
    print(table(r))


if __name__ == "__main__":
    main()
