"""Benchmarks against the budgets of the design in docs/ (not tests: these measure, they do not assert).

    .venv/bin/python -m bench.run                 # everything, writes bench/results.json and bench/results.md
    .venv/bin/python -m bench.run --only kernels  # one section; the others keep their last results

(a) probe-call latency per shipped model and backend, (b) widget change -> figure updated in headless Chromium per
page, app start -> home rendered, (c) server RSS with every model loaded, and the two settings the app chose,
shown both ways: Streamlit's post-rerun gc.collect() on/off, and ONNX Runtime thread spinning on/off next to torch.
(d) attention kernels against N: eager attention, our tiled FlashAttention loop and PyTorch's fused SDPA, time and
peak memory, on the CPU and on CUDA where present. (e) sampling one GRPO group from ``grpo-start``. (f) ``gpt``
generation alone and with 4 readers at once in one process, with the KV cache and without, on both backends.
(g) ``real``: the real pretrained SmolLM2-135M-Instruct beside our ``llama`` and ``gpt`` (bench/real.py): conversion
and load, forward latency with and without attention patterns, KV-cached decoding, a real server's memory.
Medians (and p95) of repeated runs, all measured in one run on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

from bench import real
from bench.common import GEMMA, LOAD_SUITE, REAL, ROOT, machine, now, process_rss_mb
from models import recipes as registry
from models import zoo
from models.engine import Engine, ort_session_options

OUT_JSON, OUT_MD = ROOT / "bench" / "results.json", ROOT / "bench" / "results.md"


def _stats(samples: list[float]) -> dict:
    s = sorted(samples)
    return {"p50": round(statistics.median(s), 2), "p95": round(s[min(len(s) - 1, int(0.95 * len(s)))], 2), "n": len(s)}


def shipped() -> list[str]:
    return [n for n in zoo.available() if (zoo.checkpoint_dir(n) / "model.onnx").exists()]


def probe_latency(repeats: int) -> dict:
    engine = Engine()
    out = {}
    for name in shipped():
        recipe = registry.recipe(name)
        inputs = recipe.example_inputs(zoo.checkpoint_dir(name))
        for backend in ("torch", "onnx"):
            for _ in range(5):
                engine.run(name, inputs, recipe.probes, backend=backend)
            samples = []
            for _ in range(repeats):
                start = time.perf_counter()
                engine.run(name, inputs, recipe.probes, backend=backend)
                samples.append((time.perf_counter() - start) * 1e3)
            out[f"{name}/{backend}"] = _stats(samples)
    return out


def ort_spinning(repeats: int) -> dict:
    """Torch forward time right after an ONNX Runtime call, with ORT's default threads+spinning and with ours."""
    import onnxruntime as ort

    name = max(shipped(), key=lambda n: zoo.parameter_count(zoo.load(n)))
    recipe = registry.recipe(name)
    inputs = recipe.example_inputs(zoo.checkpoint_dir(name))
    model = zoo.load(name)
    tensors = {k: torch.from_numpy(v) for k, v in inputs.items()}
    path = str(zoo.checkpoint_dir(name) / "model.onnx")
    result = {"model": name}
    for label, options in (("ort_default_spinning", ort.SessionOptions()), ("ours_no_spinning", ort_session_options())):
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        samples = []
        for i in range(repeats + 5):
            session.run(None, inputs)
            start = time.perf_counter()
            with torch.inference_mode():
                model(**tensors)
            if i >= 5:
                samples.append((time.perf_counter() - start) * 1e3)
        result[label] = _stats(samples)
        del session
    result["ratio"] = round(result["ort_default_spinning"]["p50"] / result["ours_no_spinning"]["p50"], 2)
    return result


# The LLaMA siblings that differ only in their key/value heads: the KV cache grows by 2 · L · G · D · 4 bytes a token.
LLAMA_FAMILY = {
    "llama-mha": "llama-mha (MHA, 4 KV heads)",
    "llama": "llama (GQA, 2 KV heads)",
    "llama-mqa": "llama-mqa (MQA, 1 KV head)",
}


def decode_cost(length: int = 256) -> dict:
    """Per-token generation cost against position: Mamba's constant state vs GPT's growing KV cache, the LLaMA
    siblings' caches with 4, 2 and 1 key/value heads, and Mistral's rolling buffer (W slots) vs a full cache, also to
    LONG_DECODE tokens."""
    from models import mamba, metrics

    out = {}
    available = zoo.available()
    runs = []
    if "mamba-lm" in available:
        runs.append(("mamba-lm", lambda: mamba.decode_profile(zoo.load("mamba-lm"), length)))
    if "gpt" in available:
        runs.append(("gpt", lambda: metrics.kv_decode_profile(zoo.load("gpt"), length)))
    for name, label in LLAMA_FAMILY.items():  # the same model with 4, 2 and 1 key/value heads
        if name in available:
            runs.append((label, lambda name=name: metrics.kv_decode_profile(zoo.load(name), length)))
    if "mla" in available:  # the latent cache: c_KV and the shared rotary key, read by either path
        for absorbed in (False, True):
            label = f"mla (latent cache, {'absorbed' if absorbed else 'naive'})"
            runs.append((label, lambda a=absorbed: metrics.kv_decode_profile(zoo.load("mla"), length, absorbed=a)))
    if "mistral" in available:
        for rolling in (True, False):
            label = "mistral (rolling buffer, W = 32)" if rolling else "mistral (full KV cache)"
            runs.append((label, lambda rolling=rolling: window_decode_profile(zoo.load("mistral"), length, rolling)))
    if "transformer-xl" in available:  # each new token reads M cached states per layer: constant cost and memory
        runs.append(
            ("transformer-xl (memory, M = 64)", lambda: memory_decode_profile(zoo.load("transformer-xl"), length))
        )
    for name, profile in runs:
        profile()  # warm-up
        ms, held = profile()
        windows = {
            f"{a + 1}-{b}": round(float(np.median(ms[a:b])), 3) for a, b in ((0, 32), (96, 128), (length - 32, length))
        }
        out[name] = {
            "ms_per_token": windows,
            "tokens_per_s": round(1e3 / float(np.median(ms)), 1),
            "state_kib_at_end": round(int(held[-1]) / 1024, 1),
        }
        if name.startswith("mistral"):  # past the training context: speed and cache memory against length
            long_ms, long_held = window_decode_profile(zoo.load("mistral"), LONG_DECODE, "rolling" in name)
            out[name]["by_length"] = {
                str(n): {
                    "ms_per_token": round(float(np.median(long_ms[n - 32 : n])), 3),
                    "cache_kib": round(int(long_held[n - 1]) / 1024, 1),
                }
                for n in (32, 256, 1024, LONG_DECODE)
            }
    return out


def speculative(repeats: int) -> dict:
    """Greedy decoding of the ``mtp`` model from held-out prompts, with the MTP head drafting the token after next
    and without (the main head alone), both by full forwards of the same model (no cache): milliseconds per generated
    token (median over the prompts), forwards per token and the drafts' acceptance."""
    from models import metrics, mtp
    from models.recipes import llama as llama_recipe
    from models.recipes import mtp as mtp_recipe

    if "mtp" not in zoo.available():
        return {}
    model = zoo.load("mtp")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mtp"))
    forward = mtp_recipe.torch_forward(model)
    n, T = SPECULATIVE_BENCH["new_tokens"], model.config.max_len
    prompts = [[int(i) for i in p] for p in llama_recipe.held_out_windows(tok, SPECULATIVE_BENCH["prompts"], 31)]
    plain_ms, spec_ms, runs = [], [], []
    for prompt in prompts[: max(2, min(len(prompts), repeats))]:
        start = time.perf_counter()
        mtp.plain_greedy(forward, prompt, n, T)
        plain_ms.append((time.perf_counter() - start) * 1e3 / n)
        start = time.perf_counter()
        runs.append(mtp.speculative_greedy(forward, prompt, n, T))
        spec_ms.append((time.perf_counter() - start) * 1e3 / n)
    plain, spec = float(np.median(plain_ms)), float(np.median(spec_ms))
    return {
        "model": "mtp",
        "new_tokens": n,
        "prompts": len(runs),
        "plain_ms_per_token": round(plain, 3),
        "speculative_ms_per_token": round(spec, 3),
        "speedup": round(plain / spec, 2),
        "tokens_per_forward": round(sum(len(r.tokens) for r in runs) / sum(r.forwards for r in runs), 3),
        "acceptance": round(sum(r.acceptance for r in runs) / len(runs), 3),
    }


SPECULATIVE_BENCH = {"prompts": 12, "new_tokens": 64}


def reasoning(repeats: int) -> dict:
    """GRPO's sampling cost: one group of G completions of one held-out prompt from each policy of the page
    (``grpo-start`` before RL, ``grpo`` after) at the training temperature, with ``models.recipes.reasoning.decode``
    (all G rows decoded together with the KV cache); one prompt per repeat, k = 1 … the questions' longest, in turn,
    the same prompts for both. Milliseconds per group and tokens per completion: the start mostly answers at once,
    ``grpo`` writes the steps, so its groups are longer. One torch thread, as the GRPO runs recorded in the cards:
    with two threads on two cores a second busy process stretches each step of this small model from milliseconds
    to hundreds of them."""
    from models.recipes import reasoning as recipe

    names = [n for n in ("grpo-start", "grpo") if n in zoo.available()]
    if not names:
        return {}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _reasoning(recipe, repeats, names)
    finally:
        torch.set_num_threads(threads)


def _reasoning(recipe, repeats: int, names: list[str]) -> dict:
    G, temperature, kmax = recipe.GRPO["group"], recipe.GRPO["temperature"], recipe.GRPO["max_steps_in_question"]
    n = max(kmax, repeats)
    sets = {k: recipe.held_out_set(k, n // kmax + 1) for k in range(1, kmax + 1)}
    prompts = [sets[1 + i % kmax][i // kmax].prompt for i in range(n)]
    models = {}
    for name in names:
        model = zoo.load(name)
        gen = torch.Generator().manual_seed(0)
        recipe.decode(model, [prompts[0]] * G, temperature=temperature, generator=gen)  # warm-up
        ms, tokens = [], []
        for prompt in prompts:
            start = time.perf_counter()
            s = recipe.decode(model, [prompt] * G, temperature=temperature, generator=gen)
            ms.append((time.perf_counter() - start) * 1e3)
            tokens.append(float(s.mask.sum()) / G)
        models[name] = {
            "trained_by": zoo.read_card(name).get("command", ""),  # a pilot's timing differs from the shipped one's
            "ms_per_group": _stats(ms),
            "tokens_per_completion": round(float(np.mean(tokens)), 2),
        }
    return {
        "torch_threads": torch.get_num_threads(),
        "group": G,
        "temperature": temperature,
        "steps": f"1-{kmax}",
        "models": models,
    }


ALIGNMENT_MODELS = ("sft", "reward", "ppo", "dpo")


def alignment(repeats: int) -> dict:
    """What the Alignment page computes, outside Streamlit: one policy's greedy reply to a held-out prompt (batched
    KV-cached decode, at most 24 tokens), three replies sampled together, the reward model's score of one reply, and
    one reply's per-token log-probabilities (DPO's side of a pair) — the last two on both backends, through the
    engine. One prompt per repeat, in turn; milliseconds per call."""
    from models import metrics
    from models.recipes import alignment as recipe

    if not all(n in zoo.available() for n in ALIGNMENT_MODELS):
        return {}
    tok = metrics.tokenizer(zoo.checkpoint_dir("sft"))
    prompts = recipe.held_out_prompts(tok, max(repeats, 1))
    policy, engine = zoo.load("ppo"), Engine(device="cpu")
    gen = torch.Generator().manual_seed(0)
    reply = tok.encode("Good my lord, I thank you for your love.").ids + [recipe.end_id(tok)]
    times: dict[str, list[float]] = {}

    def timed(key: str, fn, *args, **kwargs) -> None:
        start = time.perf_counter()
        fn(*args, **kwargs)
        times.setdefault(key, []).append((time.perf_counter() - start) * 1e3)

    for backend in ("torch", "onnx"):  # warm-up: sessions and first calls
        engine.run("reward", {"tokens": np.array([prompts[0] + reply])}, (), backend=backend)
        engine.run("dpo", {"tokens": np.array([prompts[0] + reply])}, (), backend=backend)
    for p in prompts:
        tokens = {"tokens": np.array([p + reply])}
        timed("greedy_reply", recipe.complete, policy, [p])
        timed("three_samples", recipe.complete, policy, [p] * 3, temperature=1.0, generator=gen)
        for backend in ("torch", "onnx"):
            timed(f"reward_{backend}", engine.run, "reward", tokens, (), backend=backend)
            timed(f"logprobs_{backend}", engine.run, "dpo", tokens, (), backend=backend)
    return {"torch_threads": torch.get_num_threads(), **{k: _stats(v) for k, v in times.items()}}


LONG_DECODE = 2048  # tokens generated for mistral's speed and cache memory against length (8× its training context)


@torch.inference_mode()
def window_decode_profile(model, length: int, rolling: bool) -> tuple[np.ndarray, np.ndarray]:
    """Mistral generating ``length`` tokens one at a time with the rolling buffer (W slots per layer) or a full KV
    cache: milliseconds of each step, and the bytes of keys and values held after it."""
    from models import mistral

    caches = model.new_cache(rolling=rolling)
    token = torch.zeros(1, 1, dtype=torch.long)
    ms, held = np.zeros(length), np.zeros(length, dtype=np.int64)
    for t in range(length):
        start = time.perf_counter()
        token = model(token, caches)[:, -1:].argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
        held[t] = mistral.cache_bytes(caches)
    return ms, held


@torch.inference_mode()
def memory_decode_profile(model, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Transformer-XL generating ``length`` tokens one at a time, each a segment of one token reading the last M
    hidden states of every layer: milliseconds of each step, and the bytes of the memory held after it."""
    memory = model.empty_memory()
    token = torch.zeros(1, 1, dtype=torch.long)
    ms, held = np.zeros(length), np.zeros(length, dtype=np.int64)
    for t in range(length):
        start = time.perf_counter()
        logits, memory = model(token, memory)
        token = logits[:, -1:].argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
        held[t] = memory.numel() * memory.element_size()
    return ms, held


def _interactions() -> dict:
    """Each available page's interaction (bench/interactions.py), by name: (url path with its query, the move). The
    papers', then the tools' (the Compare page), then the further moves of ``MOVES`` whose page is available: a
    page's second control, and the real model's pages with it picked where this machine has it."""
    from app.catalog import available_papers, available_tools
    from bench.interactions import MOVES, ROUTES
    from models import pretrained

    pages = [p.page for p in (*available_papers(), *available_tools())]
    own = {page: ROUTES[page] for page in pages if page in ROUTES}
    further = {
        name: (path, fn)
        for name, (path, fn) in MOVES.items()
        if path.split("?")[0] in own and all(m not in path or m in pretrained.available() for m in (REAL, GEMMA))
    }
    return {**own, **further}


def generation(sessions: int = 4, n: int = 64, repeats: int = 3) -> dict:
    """Tokens per second of greedy ``gpt`` generation (``n`` tokens from a 16-token prompt), one reader alone and
    ``sessions`` at once in threads of one process — as one Streamlit server runs its sessions. The GPT page's paths:
    the engine's one-call decoding step (traced on torch, ``decode.onnx`` on ONNX Runtime) with the KV cache and
    re-reading the sequence; and, for reference, eager torch with the KV cache, whose every operation hands the
    interpreter lock back and forth (what the page ran before)."""
    import threading

    from models import gpt

    if "gpt" not in zoo.available():
        return {}
    engine = Engine("cpu")
    model = engine.model("gpt")
    has_onnx = (zoo.checkpoint_dir("gpt") / "decode.onnx").exists()
    prompt = list(range(5, 21))
    max_len = model.config.max_len

    def stepped(backend: str, cache: bool):
        step = engine.decode_step("gpt", backend)
        return lambda: list(gpt.decode(step, prompt, n, max_len=max_len, cache=cache, temperature=0.0))

    runs = {
        "torch, eager operations, KV cache": lambda: list(gpt.generate(model, prompt, n, temperature=0.0)),
        "torch, traced step, KV cache": stepped("torch", True),
        "torch, traced step, re-reading the sequence": stepped("torch", False),
    }
    if has_onnx:
        runs["onnx, decode.onnx, KV cache"] = stepped("onnx", True)
        runs["onnx, decode.onnx, re-reading the sequence"] = stepped("onnx", False)

    def rates(fn, k: int) -> list[float]:
        out: list[float] = []

        def one() -> None:
            start = time.perf_counter()
            fn()
            out.append(n / (time.perf_counter() - start))

        threads = [threading.Thread(target=one) for _ in range(k)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return out

    def beside_reruns(fn) -> list[float]:
        """One reader generating while two threads build Plotly figures, as other readers' page reruns do (in a
        profile of the server under load, what holds the interpreter lock longest in a rerun)."""
        import plotly.graph_objects as go

        stop = threading.Event()

        def rerun_like() -> None:
            while not stop.is_set():
                fig = go.Figure(go.Bar(x=list(range(50)), y=list(range(50))))
                fig.update_layout(title="x", height=300)
                fig.to_dict()

        others = [threading.Thread(target=rerun_like) for _ in range(2)]
        for th in others:
            th.start()
        try:
            time.sleep(0.2)
            return [r for _ in range(repeats) for r in rates(fn, 1)]
        finally:
            stop.set()
            for th in others:
                th.join()

    from app.shared.services import SWITCH_INTERVAL_S

    result: dict = {
        "sessions": sessions,
        "new_tokens": n,
        "prompt_tokens": len(prompt),
        "torch_threads": 1,
        "switch_interval_ms": SWITCH_INTERVAL_S * 1e3,  # the app's, as the server sets it
    }
    previous = torch.get_num_threads(), sys.getswitchinterval()
    torch.set_num_threads(1)
    try:
        for name, fn in runs.items():
            sys.setswitchinterval(SWITCH_INTERVAL_S)
            fn()  # warm
            alone = [r for _ in range(repeats) for r in rates(fn, 1)]
            together = [r for _ in range(repeats) for r in rates(fn, sessions)]
            beside = beside_reruns(fn)
            sys.setswitchinterval(0.005)  # Python's default
            beside_default = beside_reruns(fn)
            result[name] = {
                "alone_tokens_per_s": round(statistics.median(alone), 1),
                "together_tokens_per_s": round(statistics.median(together), 1),
                "beside_reruns_tokens_per_s": round(statistics.median(beside), 1),
                "beside_reruns_default_interval_tokens_per_s": round(statistics.median(beside_default), 1),
            }
    finally:
        torch.set_num_threads(previous[0])
        sys.setswitchinterval(previous[1])
    return result


def browser(repeats: int) -> dict:
    from playwright.sync_api import sync_playwright

    from bench.common import CHROMIUM_ARGS, find_chromium, free_port, goto, start_server, time_moves

    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError("Debian's chromium is not installed (apt-get install chromium)")
    interactions = _interactions()
    result: dict = {"pages": {}}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for gc_on in (False, True):
            port = free_port()
            start = time.perf_counter()
            proc = start_server(port, ["--runner.postScriptGC", str(gc_on).lower()])
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            goto(page, f"http://127.0.0.1:{port}/")
            started = (time.perf_counter() - start) * 1e3
            label = "gc_on" if gc_on else "gc_off"
            for name, (path, fn) in interactions.items():
                goto(page, f"http://127.0.0.1:{port}/{path}")
                samples, drawn = time_moves(page, fn, repeats)
                result["pages"].setdefault(name, {})[label] = _stats(samples)
                if drawn:
                    result["pages"][name][f"{label}_drawn"] = _stats(drawn)
            if not gc_on:
                result["start_to_home_ms"] = round(started, 0)
                result["server_rss_mb"] = process_rss_mb(proc.pid)
                result["pages_visited"] = sorted(interactions)
            page.close()
            proc.terminate()
            proc.wait(timeout=30)
        b.close()
    return result


KERNEL_N = {"cpu": (256, 512, 1024, 2048), "cuda": (256, 512, 1024, 2048, 4096, 8192)}


def kernels(repeats: int, d: int = 64) -> dict:
    """FlashAttention's comparison (2205.14135, figure 3's kind): time and peak memory against N for eager attention,
    our tiled Algorithm 1 (a Python loop) and F.scaled_dot_product_attention, causal, one head, in one run."""
    from dataclasses import asdict

    from models.layers import measure_kernels

    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    rows, ratio = [], {}
    for device in devices:
        for n in KERNEL_N[device]:
            timings = {t.kernel: t for t in measure_kernels(n, d, device=device, repeats=repeats, causal=True)}
            rows += [asdict(t) | {"ms": round(t.ms, 3)} for t in timings.values()]
            ratio.setdefault(device, {})[str(n)] = round(timings["eager"].ms / timings["sdpa"].ms, 2)
    return {
        "machine": machine(),
        "when": now(),
        "d": d,
        "heads": 1,
        "causal": True,
        "repeats": repeats,
        "rows": rows,
        "eager_over_sdpa_ms": ratio,
    }


def _mib(n: int) -> str:
    return f"{n / 2**20:.2f}"


def _kernel_table(kn: dict) -> list[str]:
    lines = [
        "",
        f"Attention kernels against N (d={kn['d']}, causal, one head, median of {kn['repeats']}; measured on "
        f"{kn['machine']} — {kn['when']}). Peak memory: the allocator's peak over one call.",
        "",
        "| device | N | eager ms | tiled (ours, Python) ms | sdpa ms | sdpa backend | eager / sdpa "
        "| eager peak MiB | tiled peak MiB | sdpa peak MiB |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    by = {(r["device"], r["N"], r["kernel"]): r for r in kn["rows"]}
    for device, n in sorted({(r["device"], r["N"]) for r in kn["rows"]}):
        e, t, s = (by[(device, n, k)] for k in ("eager", "tiled (ours, Python)", "sdpa"))
        lines.append(
            f"| {device} | {n} | {e['ms']} | {t['ms']} | {s['ms']} | {s['backend']} "
            f"| {kn['eager_over_sdpa_ms'][device][str(n)]} "
            f"| {_mib(e['peak_bytes'])} | {_mib(t['peak_bytes'])} | {_mib(s['peak_bytes'])} |"
        )
    sources = sorted({f"{r['device']}: {r['memory_source']}" for r in kn["rows"]})
    lines += ["", "Memory counters — " + "; ".join(sources) + "."]
    return lines


def table(results: dict) -> str:
    lines = [f"Measured on: {results['machine']} — {results['when']}", ""]
    rerun = results.get("rerun", {})
    if rerun:
        lines += [
            "Rerun alone since (`--only`): "
            + "; ".join(f"{name} on {r['machine']} — {r['when']}" for name, r in rerun.items())
            + ".",
            "",
        ]
    if results.get("latency"):
        lines += ["| probe call (forward + probes) | p50 ms | p95 ms | budget |", "|---|---|---|---|"]
        for key, s in results["latency"].items():
            lines.append(f"| {key} | {s['p50']} | {s['p95']} | ≤ 20 ms |")
    br = results.get("browser")
    if br:
        from bench.interactions import RESLICE

        lines += [
            "",
            "Widget change → figure updated, in Chromium: *drawn* is the browser's own clock from the key or pointer "
            "press to the last change of the page's main area (a figure may finish drawing after the script's run "
            "ended); *idle* is the test's view, press → the app reports idle, which includes `wait_idle`'s fixed "
            "100 ms. A move that only re-slices numbers already computed (`bench.interactions.RESLICE`) has the "
            "tighter budget.",
            "",
            "| widget change → figure updated (Chromium) | drawn p50 ms | drawn p95 ms | idle p50 ms | idle p95 ms "
            "| drawn p50 with post-rerun gc | budget (drawn) | met |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for name, s in br["pages"].items():
            off, drawn, on = s["gc_off"], s.get("gc_off_drawn", {}), s.get("gc_on_drawn", s.get("gc_on", {}))
            limit = 100 if name in RESLICE else 300
            met = "–"
            if drawn:
                met = "yes" if drawn["p50"] <= limit and drawn["p95"] <= 600 else "no"
            lines.append(
                f"| {name} | {drawn.get('p50', '–')} | {drawn.get('p95', '–')} | {off['p50']} | {off['p95']} "
                f"| {on.get('p50', '–')} | p50 ≤ {limit}, p95 ≤ 600 | {met} |"
            )
        lines += [
            "",
            "| other | value | budget |",
            "|---|---|---|",
            f"| app start → home rendered | {br['start_to_home_ms']:.0f} ms | ≤ 5 s |",
            f"| server RSS after every page ran ({', '.join(br['pages_visited'])}) | {br['server_rss_mb']} MB "
            "| ≤ 1.5 GB |",
        ]
    sp = results.get("ort_spinning")
    if sp:
        lines += [
            "",
            f"ONNX Runtime spinning, torch forward of `{sp['model']}` right after an ORT call: "
            f"default ORT options p50 {sp['ort_default_spinning']['p50']} ms, ours (1 thread, no spinning) "
            f"p50 {sp['ours_no_spinning']['p50']} ms — ×{sp['ratio']}.",
        ]
    dec = results.get("decode")
    if dec:
        windows = list(next(iter(dec.values()))["ms_per_token"])
        lines += [
            "",
            "| generating one token (ms), by position | "
            + " | ".join(windows)
            + " | tokens/s | state or KV cache at the end |",
            "|---" * (len(windows) + 3) + "|",
        ]
        for name, d in dec.items():
            lines.append(
                f"| {name} | "
                + " | ".join(str(v) for v in d["ms_per_token"].values())
                + f" | {d['tokens_per_s']} | {d['state_kib_at_end']} KiB |"
            )
    spec = results.get("speculative")
    if spec:
        lines += [
            "",
            f"Speculative decoding with the MTP head of `{spec['model']}` drafting ({spec['prompts']} held-out "
            f"prompts, {spec['new_tokens']} greedy tokens each, full forwards, no cache): "
            f"{spec['plain_ms_per_token']} ms per token with the main head alone, "
            f"{spec['speculative_ms_per_token']} ms with drafts — ×{spec['speedup']}; "
            f"{spec['tokens_per_forward']} tokens per forward, acceptance {spec['acceptance']}.",
        ]
    gen = results.get("generation")
    if gen:
        lines += [
            "",
            f"| `gpt` generating {gen['new_tokens']} tokens (tokens/s per reader, median; switch interval "
            f"{gen.get('switch_interval_ms', 5.0)} ms as in the app, unless said) | alone "
            f"| {gen['sessions']} readers at once in one process | one reader beside two threads building figures "
            "| the same at Python's default 5 ms |",
            "|---|---|---|---|---|",
        ]
        for name, g in gen.items():
            if isinstance(g, dict):
                lines.append(
                    f"| {name} | {g['alone_tokens_per_s']} | {g['together_tokens_per_s']} "
                    f"| {g.get('beside_reruns_tokens_per_s', '—')} "
                    f"| {g.get('beside_reruns_default_interval_tokens_per_s', '—')} |"
                )
    rs = results.get("reasoning")
    if rs:
        lines += [
            "",
            f"Sampling one GRPO group: G = {rs['group']} completions of one held-out prompt (k = {rs['steps']}), "
            f"temperature {rs['temperature']}, batched KV-cached decode, {rs['torch_threads']} torch thread.",
            "",
            "| policy | p50 ms | p95 ms | prompts | tokens per completion | trained by |",
            "|---|---|---|---|---|---|",
        ]
        for name, r in rs["models"].items():
            g = r["ms_per_group"]
            cells = (f"`{name}`", g["p50"], g["p95"], g["n"], r["tokens_per_completion"], f"`{r['trained_by']}`")
            lines.append("| " + " | ".join(map(str, cells)) + " |")
    al = results.get("alignment")
    if al:
        names = {
            "greedy_reply": "one greedy reply of `ppo` (torch, KV cache)",
            "three_samples": "three sampled replies of `ppo`, decoded together",
            "reward_torch": "the reward model's score of one reply, torch",
            "reward_onnx": "the same, ONNX Runtime",
            "logprobs_torch": "one reply's log-probabilities under `dpo` (DPO's side of a pair), torch",
            "logprobs_onnx": "the same, ONNX Runtime",
        }
        lines += ["", "| the Alignment page's calls | p50 ms | p95 ms | calls |", "|---|---|---|---|"]
        lines += [f"| {label} | {al[k]['p50']} | {al[k]['p95']} | {al[k]['n']} |" for k, label in names.items()]
    if results.get("kernels"):
        lines += _kernel_table(results["kernels"])
    if results.get("real"):
        lines += real.table_lines(results["real"])
    return "\n".join(lines) + "\n"


SECTIONS = (
    "latency",
    "ort_spinning",
    "decode",
    "generation",
    "speculative",
    "reasoning",
    "alignment",
    "browser",
    "kernels",
    "real",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--only", choices=SECTIONS, help="run one section; the others keep their results in results.json")
    ap.add_argument(
        "--load",
        action="store_true",
        help="instead: many sessions against a real server (bench/load.py): its defaults, then with --widget, then "
        "every model page's slider at 128 readers, then what one element of each kind adds to a rerun",
    )
    args = ap.parse_args(argv)
    if args.load:  # each run of the load benchmark in a process of its own, stopping at the first that fails
        for load_args, out in LOAD_SUITE:
            rc = subprocess.call([sys.executable, "-m", "bench.load", *load_args, "--out", str(out)], cwd=ROOT)
            if rc:
                return rc
        return 0
    runs = {
        "latency": lambda: probe_latency(args.repeats),
        "ort_spinning": lambda: ort_spinning(args.repeats),
        "decode": decode_cost,
        "generation": generation,
        "speculative": lambda: speculative(args.repeats),
        "reasoning": lambda: reasoning(args.repeats),
        "alignment": lambda: alignment(args.repeats),
        "browser": lambda: browser(max(5, args.repeats // 3)),
        "kernels": lambda: kernels(max(3, args.repeats // 3)),
        "real": lambda: real.measure(browser=not args.no_browser),
    }
    if args.only:
        results = json.loads(OUT_JSON.read_text()) if OUT_JSON.exists() else {}
        results.setdefault("machine", machine())
        results.setdefault("when", now())
        results[args.only] = runs[args.only]()
        # a section rerun alone says where and when, since the header's machine may be another one
        results.setdefault("rerun", {})[args.only] = {
            "machine": machine(),
            "when": now(),
        }
    else:
        results = {"machine": machine(), "when": now()}
        for section in SECTIONS:
            if section != "browser" or not args.no_browser:
                results[section] = runs[section]()
    OUT_JSON.write_text(json.dumps(results, indent=2) + "\n")
    OUT_MD.write_text(table(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
