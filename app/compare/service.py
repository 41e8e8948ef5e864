"""The Compare page's bridge to ``models/``: two or three language models read one text; their losses are aligned on
the characters of the text (``app.compare.align``), their next-token guesses at a character, what their cards say
they were trained on, and what each holds and spends while it writes after this text."""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch
import torch.nn.functional as F

from app.compare import align
from app.shared import assets, services
from app.shared.i18n import InputError
from models import llama, mamba, pretrained, transformer_xl
from models.layers import cache_bytes

# Our decoders trained on the Shakespeare byte-level BPE (2,048 ids), with how each is read: a plain forward
# (tokens -> logits), MTP's (logits, MTP logits), Transformer-XL's segments with memory, Mamba's scan.
OURS = ("gpt", "llama", "llama-mha", "llama-mqa", "mistral", "mla", "mtp", "transformer-xl", "mamba-lm")
ARCHS = ("llama", "gpt", "mistral", "mla", "mtp", "transformer_xl", "mamba")  # for the real checkpoints offered
DEFAULT = ("gpt", "mamba-lm")
MAX_MODELS = 3
MAX_CHARS = 400  # the text box: ~150 tokens of our BPE
STEPS = 12  # greedy steps timed after the text (the median is shown)
TOP_K = 5
EXAMPLES: dict[str, str] = assets.data("examples/compare.json")  # passages of the held-out plays
DEFAULT_TEXT = EXAMPLES["macbeth"]

# Each model's own page (url path) and what its cache is: grows with the text (KV), a window (rolling KV), a fixed
# memory of hidden states (Transformer-XL), a fixed state (Mamba).
PAGE = {
    "gpt": "gpt",
    "llama": "llama",
    "llama-mha": "llama",
    "llama-mqa": "llama",
    "mistral": "mistral",
    "mla": "mla",
    "mtp": "mla",
    "transformer-xl": "transformer-xl",
    "mamba-lm": "mamba",
}
KIND = {"mistral": "window", "transformer-xl": "memory", "mamba-lm": "state", "mla": "latent"}


REAL_PAGE = {"llama": "llama", "gpt": "gpt", "mamba": "mamba"}  # a real checkpoint's page, by our architecture


def _real_arch(name: str) -> str | None:
    return pretrained.KNOWN[name].arch if pretrained.is_real(name) else None


def kind(name: str) -> str:
    """What the model holds while it writes: kv (a KV cache that grows), latent (MLA's compressed cache, grows),
    window (rolling KV of W slots), memory (Transformer-XL's fixed memory), state (Mamba's fixed state)."""
    return "state" if _real_arch(name) == "mamba" else KIND.get(name, "kv")


def real_cache(name: str) -> dict | None:
    """A real LLaMA-shaped checkpoint's attention as its config has it, for the page's note: its title and paper,
    query and key/value heads, the width of a head, layers, and the numbers its KV cache keeps per token in a layer
    (a key and a value for each key/value head: 2 × n_kv_heads × head_dim) and in all; None for any other model."""
    if _real_arch(name) != "llama":
        return None
    ck = services.checkpoint(name)
    c, about = ck.config, services.real_about(name)
    q = int(c["n_heads"])
    kv = int(c.get("n_kv_heads") or q)
    d = int(c.get("head_dim") or int(c["dim"]) // q)
    layers = int(c["n_layers"])
    return {
        "title": about.get("title", name),
        "paper": about.get("paper", ""),
        "q": q,
        "kv": kv,
        "d": d,
        "layers": layers,
        "per_layer": 2 * kv * d,
        "per_token": 2 * kv * d * layers,
    }


def page_of(name: str) -> str:
    return PAGE.get(name) or REAL_PAGE.get(_real_arch(name) or "", "llama")


def offered() -> tuple[list[str], list[str]]:
    """(the models a reader can pick: ours that are installed, then the real ones here; the real ones absent)."""
    return services.choices(ARCHS, OURS)


def how_to_get(name: str) -> tuple[str, str]:
    """A real checkpoint this machine lacks: (its title, the command that brings it)."""
    return pretrained.KNOWN[name].title, pretrained.how_to_get(name)


def check_text(text: str) -> str:
    text = text[:MAX_CHARS]
    if not text.strip():
        raise InputError("compare.error.empty")
    return text


def check_models(names: tuple[str, ...]) -> None:
    if not 2 <= len(names) <= MAX_MODELS:
        raise InputError("compare.error.count", max=MAX_MODELS)
    for name in names:
        services.checkpoint(name).require()


# ---- reading the text ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """One model on one text: per token (what it covers, its loss), per character (bits), the whole text's bits per
    character, and its top guesses before each token."""

    name: str
    n_chars: int
    tokens: tuple[str, ...]  # each token as text (a piece of a multi-byte character reads as �)
    offsets: tuple[tuple[int, int], ...]  # characters each token covers
    nats: np.ndarray  # (n,) loss of each token, given the ones before it (the first after <|endoftext|>)
    bits: np.ndarray  # (n_chars,) align.char_bits
    bpc: float
    top_ids: np.ndarray  # (n, TOP_K) the guesses for each token's place
    top_probs: np.ndarray  # (n, TOP_K)
    top_text: tuple[tuple[str, ...], ...]  # the guesses as text
    prob: np.ndarray  # (n,) the probability it gave the token that came
    context: int  # tokens one forward reads (windows beyond it)
    ms: float
    backend: str = "torch"
    device: str = "cpu"


def _context(name: str) -> int:
    """How many tokens one forward may read: the training context (Transformer-XL and Mamba read any length)."""
    c = services.checkpoint(name).config
    if name == "transformer-xl" or kind(name) in ("state", "memory"):
        return 1 << 30
    return int(c.get("max_len", 128))


def _forward(name: str, model, x: torch.Tensor) -> torch.Tensor:
    """Logits (1, T, V) of tokens x (1, T), each model read as its page reads it."""
    if name == "mtp":
        return model(x)[0]  # the main head; the MTP head guesses two tokens ahead
    if name == "transformer-xl":
        return torch.cat([logits for logits, _ in transformer_xl.segments(model, x[0].cpu().numpy())], dim=1)
    return model(x)


@torch.inference_mode()
def _logits(name: str, model, ids: np.ndarray) -> torch.Tensor:
    """Logits (T, V) at every position of ``ids``: one forward when it fits the context, else windows of the
    context that overlap by half, each position scored once with at least half a context before it."""
    device = next(model.parameters()).device
    T, ctx = len(ids), _context(name)
    if T <= ctx:
        return _forward(name, model, torch.as_tensor(ids, device=device)[None])[0]
    out, done, start, stride = [], 0, 0, ctx // 2
    while done < T:
        chunk = torch.as_tensor(ids[start : start + ctx], device=device)[None]
        out.append(_forward(name, model, chunk)[0, done - start :])
        done = start + chunk.shape[1]
        start += stride
    return torch.cat(out)


@st.cache_data(show_spinner=False, max_entries=64)
def score(name: str, text: str) -> Scored:
    """Model ``name`` reads ``text`` after <|endoftext|> (id 0 in every tokenizer here): each token's loss, spread
    over the characters it covers."""
    text = check_text(text)
    ck = services.checkpoint(name)
    ck.require()
    tok, model = ck.tokenizer, ck.model
    enc = tok.encode(text)
    ids = np.array([0, *enc.ids], dtype=np.int64)
    start = time.perf_counter()
    logits = _logits(name, model, ids[:-1]).float()
    ms = (time.perf_counter() - start) * 1e3
    logp = F.log_softmax(logits, dim=-1)
    target = torch.as_tensor(ids[1:], device=logp.device)
    nats = (-logp.gather(1, target[:, None])[:, 0]).cpu().numpy().astype(np.float64)
    top = logp.topk(TOP_K, dim=-1)
    top_ids = top.indices.cpu().numpy()
    top_probs = top.values.exp().cpu().numpy()
    offsets = tuple((int(a), int(b)) for a, b in enc.offsets)
    return services.read_only(
        Scored(
            name=name,
            n_chars=len(text),
            tokens=tuple(tok.decode([i]) for i in enc.ids),
            offsets=offsets,
            nats=nats,
            bits=align.char_bits(offsets, nats, len(text)),
            bpc=align.bits_per_char(offsets, nats, len(text)),
            top_ids=top_ids,
            top_probs=top_probs,
            top_text=tuple(tuple(tok.decode([int(i)]) for i in row) for row in top_ids),
            prob=np.exp(-nats),
            context=_context(name),
            ms=ms,
            device=str(next(model.parameters()).device),
        )
    )


@dataclass(frozen=True)
class Guess:
    """One model's guesses for the token holding a character: the token, the text before it, the top guesses."""

    name: str
    token: str
    index: int  # which token of the model's reading
    span: tuple[int, int]
    prob: float  # what it gave the token that came
    guesses: tuple[tuple[str, float], ...]


def guesses(scored: Scored, position: int) -> Guess:
    i = align.token_at(scored.offsets, position)
    return Guess(
        scored.name,
        scored.tokens[i],
        i,
        scored.offsets[i],
        float(scored.prob[i]),
        tuple((s, float(p)) for s, p in zip(scored.top_text[i], scored.top_probs[i], strict=True)),
    )


# ---- what differs besides the architecture: the cards ----------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    name: str
    real: bool
    params: int
    data: str  # the card's words (ours), or the real model's origin
    steps: int | None  # optimiser steps of the main stage
    later_steps: int  # steps of later stages on the same model (GPT's repeats)
    batch: int | None
    context: int | None  # tokens per training sequence
    tokens: int | None  # steps × batch × context of the main stage
    window: str  # what one forward reads at inference (the context, a window, a memory, no limit)
    val_bpc: float | None  # the card's bits/char on the validation plays
    vocab: int


def _data(words: str) -> str:
    """A card's data in a few words: the corpus, and its training tokens where the card counts them."""
    corpus = words.split(" (")[0].split(":")[0].split(";")[0].strip()
    tokens = re.search(r"([\d,]{5,}) tokens", words)
    return f"{corpus} · {tokens.group(1)} tokens" if tokens else corpus


@st.cache_data(show_spinner=False, max_entries=32)
def facts(name: str) -> Facts:
    ck = services.checkpoint(name)
    card, config = ck.card, ck.config
    if ck.real:
        return Facts(
            name, True, int(card.get("params", 0)), services.real_about(name).get("origin", ""), None, 0, None,
            int(config.get("max_len", 0)) or None, None, str(config.get("max_len", "")), None, int(config["vocab"]),
        )  # fmt: skip
    train = card.get("settings") or card.get("training") or {}
    steps = card.get("steps") or train.get("steps")
    stages = card.get("stages") or []
    later = sum(s.get("steps", 0) for s in stages if "baseline" not in s.get("stage", "")) - (steps or 0)
    batch = train.get("batch")
    context = train.get("context") or config.get("segment") or config.get("max_len")
    tokens = steps * batch * context if steps and batch and context else None
    if kind(name) == "window":
        window = f"{config['max_len']} (W = {config['window']})"
    elif kind(name) == "memory":
        window = f"{config['segment']} + {config['memory']}"
    elif kind(name) == "state":
        window = "∞"
    else:
        window = str(config["max_len"])
    return Facts(
        name, False, int(card.get("params", 0)), _data(str(card.get("data", ""))), steps,
        max(later, 0), batch, context, tokens, window, card.get("metrics", {}).get("val_bpc"), int(config["vocab"]),
    )  # fmt: skip


# ---- what each costs on this text: measured ----------------------------------------------------------------------


@dataclass(frozen=True)
class Costs:
    name: str
    kind: str
    params: int
    n_tokens: int  # the text's tokens (with <|endoftext|>)
    held_bytes: int  # the cache or state held after the text
    measured_at: int  # tokens the cache was measured at (held_bytes scaled to n_tokens where fewer, KV only)
    ms_per_token: float  # median of STEPS greedy steps after the text
    ms: float  # the whole measurement
    backend: str = "torch"
    device: str = "cpu"


def _timed(step, n: int) -> float:
    for _ in range(2):  # steps before timing: first-call allocations
        step()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


@st.cache_data(show_spinner=False, max_entries=64)
@torch.inference_mode()
def costs(name: str, text: str) -> Costs:
    """Parameters, the cache/state held after reading ``text``, and the median milliseconds of a greedy step after
    it, each model decoding as its page does (a KV cache, a rolling window, Transformer-XL's memory, Mamba's
    state; MTP's decoder has no cache and re-reads the text)."""
    start = time.perf_counter()
    text = check_text(text)
    ck = services.checkpoint(name)
    ck.require()
    model = ck.model
    device = next(model.parameters()).device
    ids = np.array([0, *ck.tokenizer.encode(text).ids], dtype=np.int64)
    n = len(ids)
    params = sum(p.numel() for p in model.parameters())
    k = kind(name)
    state: dict = {}
    if k == "state":
        st_ = model.new_state(1)
        for t in ids:
            _, st_ = model.step(torch.tensor([int(t)], device=device), st_)
        state["s"] = st_
        held, at = mamba.state_bytes(model), n

        def step():
            logits, state["s"] = model.step(torch.tensor([1], device=device), state["s"])
            return logits
    elif k == "memory":
        x = torch.as_tensor(ids, device=device)[None]
        mem = model.empty_memory()
        for s in range(0, n, model.config.segment):
            _, mem = model(x[:, s : s + model.config.segment], mem)
        state["m"] = mem
        held, at = int(mem.numel() * mem.element_size()), n

        def step():
            logits, state["m"] = model(torch.ones(1, 1, dtype=torch.long, device=device), state["m"])
            return logits
    elif name == "mtp":
        limit = _context(name) - 1
        x = torch.as_tensor(ids[-limit:], device=device)[None]
        cache = llama.Llama.new_cache(model)
        llama.Llama.forward(model, x, cache)
        held, at = cache_bytes(cache), x.shape[1]

        def step():  # no cache: the MTP decoder re-reads the text for every token (models/mtp.py)
            return model(x)[0]
    else:
        limit = max(_context(name) - STEPS - 2, 1) if k != "window" else n
        x = torch.as_tensor(ids[-limit:], device=device)[None]
        cache = model.new_cache()
        model(x, cache)
        held, at = cache_bytes(cache), x.shape[1]

        def step():
            return model(torch.ones(1, 1, dtype=torch.long, device=device), cache)

    ms_token = _timed(step, STEPS)
    if k in ("kv", "latent", "mtp") and at < n:
        held = held * n // at  # a KV cache grows by the same bytes per token
    return Costs(
        name, k, int(params), n, int(held), int(at), float(ms_token), (time.perf_counter() - start) * 1e3,
        device=str(device),
    )  # fmt: skip


# ---- what each mixes at a position: an attention row, or Mamba's Δ ------------------------------------------------

PATTERN, DELTA = "blocks.*.attn.pattern", "layers.*.mixer.delta"


@dataclass(frozen=True)
class Mixing:
    """What one model mixes to guess token ``index`` of the text: the query is the token it read last (position
    ``index`` of <|endoftext|> then the text's tokens). Attention: that query's row at every layer and head over the
    keys it reads; Mamba: Δ at every layer up to the query, the mean over its channels, and its state's bytes."""

    name: str
    kind: str  # kind(name)
    index: int  # the query's position (0: <|endoftext|>)
    first: int  # the position of the first key (> 0 where the context, or Transformer-XL's segment, starts later)
    labels: tuple[str, ...]  # the keys (Mamba: the tokens Δ is shown at), first .. index
    rows: np.ndarray  # (L, H, K) the query's attention weights; Mamba: (L, K) mean Δ over the channels
    n_marked: int  # the first keys that Mistral's window leaves out, or Transformer-XL's memory keys; else 0
    window: int  # Mistral's W, else 0
    segment: int  # Transformer-XL's segment of the query, else 0
    state_bytes: int  # Mamba's state, else 0
    ms: float
    backend: str = "torch"
    device: str = "cpu"

    @property
    def n_layers(self) -> int:
        return self.rows.shape[0]

    @property
    def n_heads(self) -> int:
        return self.rows.shape[1] if self.rows.ndim == 3 else 0


def _pieces(tok, ids: np.ndarray) -> tuple[str, ...]:
    return tuple("⟨eot⟩" if i == 0 else tok.decode([int(i)]) for i in ids)


def _last_rows(probes: dict[str, np.ndarray]) -> np.ndarray:
    """(L, H, S) the last query's row of every layer's attention pattern."""
    return services.stack_layers(probes, "blocks.{}.attn.pattern")[:, :, -1, :]


def _memory_rows(ck, ids: np.ndarray, index: int) -> tuple[np.ndarray, int, int, float]:
    """Transformer-XL read as its page reads it, segment after segment with the memory carried, up to the query:
    (its rows over [memory ∘ segment up to the query], the memory keys, the segment, ms)."""
    c = ck.config
    L = int(c["segment"])
    segment = index // L
    memory = np.zeros((int(c["n_layers"]), 1, 0, int(c["dim"])), dtype=np.float32)
    ms = 0.0
    for start in range(0, segment * L + 1, L):
        last = start == segment * L
        res = ck.run({"tokens": ids[None, start : min(start + L, index + 1)], "memory": memory},
                     (PATTERN,) if last else (), "torch")  # fmt: skip
        ms += res.ms
        if last:
            return _last_rows(res.probes), memory.shape[2], segment, ms
        memory = res.outputs["new_memory"]
    raise AssertionError("unreachable: the query's segment is always run")


@st.cache_data(show_spinner=False, max_entries=64)
def mixing(name: str, text: str, index: int) -> Mixing:
    """Model ``name`` reads ``text`` up to the query ``index`` (each as its page reads it: one forward within its
    context, Transformer-XL's segments with memory, Mamba's scan) and keeps what it mixes there."""
    text = check_text(text)
    ck = services.checkpoint(name)
    ck.require()
    ids = np.array([0, *ck.tokenizer.encode(text).ids], dtype=np.int64)
    index = min(max(int(index), 0), len(ids) - 2)  # a query that guesses a token of the text
    k = kind(name)
    window = segment = state = n_marked = first = 0
    if k == "state":
        res = ck.run({"tokens": ids[None, : index + 1]}, (DELTA,), "torch")
        rows, ms = services.stack_layers(res.probes, "layers.{}.mixer.delta").mean(-1), res.ms
        state = mamba.state_bytes(ck.model)
    elif k == "memory":
        rows, n_marked, segment, ms = _memory_rows(ck, ids, index)
        first = segment * int(ck.config["segment"]) - n_marked
        res = None
    else:
        first = max(index + 1 - _context(name), 0)
        res = ck.run({"tokens": ids[None, first : index + 1]}, (PATTERN,), "torch")
        rows, ms = _last_rows(res.probes), res.ms
        if k == "window":
            window = int(ck.config["window"])
            n_marked = max(index + 1 - first - window, 0)
    device = res.device if res is not None else str(next(ck.model.parameters()).device)
    pieces = _pieces(ck.tokenizer, ids[first : index + 1])
    mixed = Mixing(
        name, k, index, first, pieces, rows.astype(np.float64), n_marked, window, segment, int(state), float(ms),
        device=device,
    )  # fmt: skip
    return services.read_only(mixed)


def _page_check(name: str):
    """The check the page of model ``name`` makes of a text before it reads it (its own function and limits): a
    callable that raises InputError where that page would refuse the text."""
    page = page_of(name)
    if page == "gpt":
        from app.gpt import service as gpt

        return lambda text: gpt.tokenize(text, name)
    if page == "llama":
        from app.llama import service as llama_page

        return lambda text: llama_page.encode(text, name=name)
    if page == "mistral":
        from app.mistral import service as mistral

        return mistral.encode
    if page == "mla":
        from app.mla import service as mla

        return lambda text: mla.encode(name, text)
    if page == "transformer-xl":
        from app.transformer_xl import service as txl

        return txl.encode
    from app.mamba import service as mamba_page  # its text is read in _analyse_*, with these limits

    def mamba_check(text: str) -> None:
        if len(text) > mamba_page.MAX_CHARS:
            raise InputError("mamba.error.too_long_chars", max=mamba_page.MAX_CHARS)
        ck = services.checkpoint(name)
        ids = ck.tokenizer.encode(text).ids
        most = mamba_page.MAX_REAL_TOKENS if ck.real else int(ck.config["max_len"]) - 1  # ours: after <|endoftext|>
        if len(ids) > most:
            raise InputError("mamba.error.too_long", n=len(ids), max=most)

    return mamba_check


@st.cache_data(show_spinner=False, max_entries=64)
def for_page(name: str, text: str) -> str:
    """``text``, or its longest beginning that ends at a token of model ``name`` and that the page of ``name``
    reads on that model: a link never opens a page on an input it refuses."""
    text = check_text(text)
    check = _page_check(name)

    def reads(part: str) -> bool:
        try:
            check(part)
        except InputError:
            return False
        return True

    if reads(text):
        return text
    ends = sorted({b for _, b in services.checkpoint(name).tokenizer.encode(text).offsets if 0 < b < len(text)})
    lo, hi, best = 0, len(ends) - 1, ""
    while lo <= hi:  # a shorter beginning reads whenever a longer one does
        mid = (lo + hi) // 2
        if reads(text[: ends[mid]]):
            best, lo = text[: ends[mid]], mid + 1
        else:
            hi = mid - 1
    return best


def last_position(name: str, text: str) -> int:
    """The position of the last token of ``text`` read by model ``name`` after <|endoftext|>."""
    return len(services.checkpoint(name).tokenizer.encode(text).ids)


# What each model's page reads from its link, by page: the text, and the layer, head and position where it has them.
def link(name: str, text: str, index: int, layer: int, head: int) -> tuple[str, dict[str, str]]:
    """(the page of model ``name``, the query parameters that open it on this text at this layer, head and
    position, as far as that page's controls go). ``index`` is a position of <|endoftext|> then the text's tokens,
    the one Compare counts in (so that every model scores the text's first token alike); a real model's page reads
    its text with nothing in front (``Checkpoint.prefix``), so its position is one less. The text is cut to what that
    page reads on that model (``for_page``), and the position kept within it."""
    page = page_of(name)
    real = pretrained.is_real(name)
    sent = for_page(name, text)
    if sent != text:  # cut: the query is kept within what the page reads
        text, index = sent, min(index, last_position(name, sent))
    index = max(index - (1 - len(services.checkpoint(name).prefix)), 0)  # in the page's own count
    if page == "gpt":
        params = {"gpt_text": text, "gpt_view": "attention", "gpt_layer": layer, "gpt_head": head}
    elif page == "llama":
        params = {"llama_text": text, "llama_layer": layer, "llama_head": head, "llama_token": index}
    elif page == "mistral":
        params = {"mistral_text": text, "mistral_layer": layer, "mistral_head": head, "mistral_position": index}
    elif page == "mla":
        params = {"mla_text": text, "mla_token": index, "mla_layer": layer, "mla_rope_layer": layer, "mla_head": head}
    elif page == "transformer-xl":
        L = int(services.checkpoint(name).config["segment"])
        params = {"txl_text": text, "txl_segment": index // L, "txl_query": index % L, "txl_layer": layer,
                  "txl_head": head}  # fmt: skip
    else:  # mamba: its text source
        params = {"mamba_source": "text", "mamba_text": text, "mamba_layer": layer}
    if real:
        params[f"{page.replace('-', '_')}_model"] = name
    return page, {k: str(v) for k, v in params.items()}
