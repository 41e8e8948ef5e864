"""The DeepSeek-V3 page's bridge to models/: multi-head latent attention (``mla``, beside the LLaMA siblings
``llama-mha``, ``llama``, ``llama-mqa``), auxiliary-loss-free balancing (``switch-auxfree`` beside ``switch``) and
multi-token prediction (``mtp``), plus DeepSeek-V3's published configuration (assets/deepseek_v3.json)."""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.interventions import BLOCKS, HeldOut, decoder_change, held_out_windows
from app.shared.interventions import check as check_knock_out
from app.shared.services import engine, stack_layers
from models import metrics, mla, mtp
from models.data import bpe
from models.layers import causal_mask

MLA = "mla"
SIBLINGS = ("llama-mha", "llama", "llama-mqa")  # 4, 2 and 1 key/value heads for 4 query heads
KV_HEADS = dict(zip(SIBLINGS, (4, 2, 1)))  # what an absent sibling's row is drawn with (an installed one's config)
SWITCH, AUXFREE = "switch", "switch-auxfree"
MTP = "mtp"
MAX_CHARS = 300
MAX_NEW = 64  # tokens one speculative decoding may add
TOP = 3  # predictions listed per head
BF16 = 2  # bytes per cached number in the published-configuration rows (the paper counts elements)
GQA_GROUPS = 8  # the grouped-query row of the published-configuration comparison (Llama 2 70B's choice)
PROBES = ("blocks.*.attn.c_kv", "blocks.*.attn.k_rope")
MOE_PROBES = ("blocks.*.moe.router_probs", "blocks.*.moe.expert_index", "blocks.*.moe.combine", "blocks.*.moe.dropped")
DEFAULT_TEXT = assets.lines("examples/mla.txt")[0]
EOT = "⟨eot⟩"
PUBLISHED = assets.data("deepseek_v3.json")
PVH_ROWS = ("model", "attention", "balance", "mtp")  # the rows of "In the paper vs here"
PVH_DEPARTURES = ("latent", "scaling", "router", "mtp")
MODEL = services.checkpoint(MLA)  # the latent attention and the absorbed path
MTP_MODEL = services.checkpoint(MTP)  # the main head and the module that drafts one token ahead


def available(name: str = MLA) -> bool:
    """Whether checkpoint ``name`` is installed (the tests skip on it)."""
    return services.checkpoint(name).available


def card(name: str):
    """Checkpoint ``name``'s card, read-only; empty when it has none."""
    return services.checkpoint(name).card


# ---- text ----------------------------------------------------------------------------------------------------------


def check_text(text: str) -> None:
    """The bounds every section shares: not empty, at most MAX_CHARS, no control characters but newline and tab."""
    if not text.strip():
        raise InputError("mla.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("mla.error.chars", n=len(text), max=MAX_CHARS)
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\t"]
    if bad:
        raise InputError("mla.error.characters", code=f"U+{ord(bad[0]):04X}")


def _pieces(name: str, ids) -> tuple[str, ...]:
    """What each id reads as (the leading <|endoftext|> as ⟨eot⟩)."""
    raw = bpe.token_bytes(services.checkpoint(name).tokenizer, ids)
    return tuple(EOT if i == 0 else b.decode("utf-8", errors="replace") for i, b in zip(ids, raw))


def encode(name: str, text: str) -> np.ndarray:
    """<|endoftext|> then the ids of ``text`` in the tokenizer of checkpoint ``name``, within its context: (T,)."""
    check_text(text)
    model = services.checkpoint(name)
    ids = metrics.encode_document(model.tokenizer, text)  # the tokenizer raises model.missing() when not installed
    context = int(model.config["max_len"])
    if len(ids) > context:
        raise InputError("mla.error.tokens", name=name, n=len(ids), max=context)
    return ids


# ---- 1 · MLA: the cache per token ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """The shipped ``mla``'s sizes."""

    n_layers: int  # L
    n_heads: int  # H
    head_dim: int  # d_h
    kv_latent: int  # d_c
    q_latent: int  # d_c'
    rope_dim: int  # d_h^R
    dim: int
    max_len: int


@st.cache_data(show_spinner=False, max_entries=2)
def shape() -> Shape:
    c = mla.Config(**MODEL.config)
    return Shape(c.n_layers, c.n_heads, c.head_dim, c.kv_latent, c.q_latent, c.rope_dim, c.dim, c.max_len)


@dataclass(frozen=True)
class Trained:
    """One of the four trained decoders that differ only in their attention, with what its cache holds."""

    name: str
    kind: str  # MHA, GQA, MQA, MLA
    present: bool
    formula: str  # numbers cached per token, as the paper's Table 1 writes it, with our sizes
    numbers: int  # numbers cached per token, all layers
    bytes_measured: int | None  # from the cache tensors after a cached forward (float32)
    val_bpc: float | None  # seed 0, trained the same way (612 steps, same batches)
    other_seed_bpc: float | None  # seed 1


def installed() -> tuple[bool, ...]:
    """Which of the four decoders are installed (part of cache keys, so a checkpoint installed later shows)."""
    return tuple(available(n) for n in (*SIBLINGS, MLA))


def trained_caches() -> tuple[Trained, ...]:
    return _trained_caches(installed())


def _sibling_bpc(name: str) -> tuple[float | None, float | None]:
    """val_bpc of seeds 0 and 1 trained as the siblings are. For ``llama`` that is the GQA control the sibling cards
    record: the shipped llama raced a baseline on a time budget instead."""
    if name == "llama":
        control = next((card(s)["gqa_control_val_bpc"] for s in SIBLINGS if "gqa_control_val_bpc" in card(s)), None)
        if control:
            return control.get("0"), control.get("1")
    c = card(name)
    return c.get("metrics", {}).get("val_bpc"), next(iter(c.get("other_seeds_val_bpc", {}).values()), None)


@st.cache_data(show_spinner=False, max_entries=4)
def _trained_caches(present: tuple[bool, ...]) -> tuple[Trained, ...]:
    s = shape()
    L, D = s.n_layers, s.head_dim
    out = []
    for name, here in zip(SIBLINGS, present):
        G = int(services.checkpoint(name).config["n_kv_heads"]) if here else KV_HEADS[name]
        kind = "MHA" if G == s.n_heads else "MQA" if G == 1 else "GQA"
        bpc, other = _sibling_bpc(name) if here else (None, None)
        out.append(
            Trained(
                name=name,
                kind=kind,
                present=here,
                formula=f"2·G·d_h·L = 2·{G}·{D}·{L}",
                numbers=2 * G * D * L,
                bytes_measured=metrics.kv_cache_bytes_per_token(services.checkpoint(name).model) if here else None,
                val_bpc=bpc,
                other_seed_bpc=other,
            )
        )
    here = present[-1]
    c = card(MLA)
    out.append(
        Trained(
            name=MLA,
            kind="MLA",
            present=here,
            formula=f"(d_c + d_h^R)·L = ({s.kv_latent} + {s.rope_dim})·{L}",
            numbers=mla.cache_numbers_per_token(mla.Config(**MODEL.config)),
            bytes_measured=metrics.kv_cache_bytes_per_token(MODEL.model) if here else None,
            val_bpc=c.get("metrics", {}).get("val_bpc"),
            other_seed_bpc=next(iter(c.get("other_seeds_val_bpc", {}).values()), None),
        )
    )
    return tuple(out)


@dataclass(frozen=True)
class PublishedCache:
    kind: str
    formula: str
    numbers: int  # per token, all 61 layers
    bytes_per_token: int  # at BF16
    context_bytes: int  # one sequence of the full 128K context


def published_caches() -> tuple[PublishedCache, ...]:
    """DeepSeek-V3's attention sizes under each design of DeepSeek-V2's Table 1 (MHA, GQA, MQA with V3's n_h and
    d_h are what the same model would cache; MLA is what it does cache)."""
    c = PUBLISHED["config"]
    L, H, D, K, R, ctx = c["n_layers"], c["n_heads"], c["head_dim"], c["kv_latent"], c["rope_dim"], c["context"]
    rows = (
        ("MHA", f"2·n_h·d_h·l = 2·{H}·{D}·{L}", 2 * H * D * L),
        ("GQA", f"2·n_g·d_h·l = 2·{GQA_GROUPS}·{D}·{L}", 2 * GQA_GROUPS * D * L),
        ("MQA", f"2·d_h·l = 2·{D}·{L}", 2 * D * L),
        ("MLA", f"(d_c + d_h^R)·l = ({K} + {R})·{L}", (K + R) * L),
    )
    return tuple(PublishedCache(k, f, n, n * BF16, n * BF16 * ctx) for k, f, n in rows)


# ---- 1 · MLA: the latent of a token, the keys it makes, absorbed against naive ---------------------------------------


@dataclass(frozen=True)
class Latent:
    """One forward pass of the text through ``mla``, naive and absorbed. L layers, T tokens, H heads."""

    ids: np.ndarray  # (T,)
    pieces: tuple[str, ...]
    c_kv: np.ndarray  # (L, T, d_c) the latent each layer caches
    k_rope: np.ndarray  # (L, T, d_h^R) the shared rotary key each layer caches
    keys: np.ndarray  # (L, T, H, d_h) k^C = W_UK c_KV, what the naive path builds from the latent
    naive: np.ndarray  # (T, V) logits, keys and values up-projected
    absorbed: np.ndarray  # (T, V) logits, W_UK folded into the query and W_UV into W_O
    max_diff: float  # max |naive − absorbed| over every logit
    scale: float  # max |naive|
    top1_agree: float  # share of positions whose greedy next token is the same on both paths
    absorbed_ms: float
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def latent(text: str) -> Latent:
    """torch only: the absorbed path is a keyword of the torch forward, not a graph of its own."""
    ids = encode(MLA, text)
    res = MODEL.run({"tokens": ids[None]}, PROBES, "torch")
    model = MODEL.model
    device = model.embed.weight.device
    x = torch.as_tensor(ids, device=device)[None]
    start = time.perf_counter()
    with torch.inference_mode():
        absorbed = model(x, absorbed=True)[0].float().cpu().numpy()
    absorbed_ms = (time.perf_counter() - start) * 1e3
    c_kv = stack_layers(res.probes, "blocks.{}.attn.c_kv")  # (L, T, K)
    s = shape()
    keys = []
    for i, block in enumerate(model.blocks):
        w_uk = block.attn.w_uk.weight.detach().float().cpu().numpy()  # (H·D, K)
        keys.append((c_kv[i] @ w_uk.T).reshape(len(ids), s.n_heads, s.head_dim))
    naive = res.outputs["logits"][0]
    return Latent(
        ids=ids,
        pieces=_pieces(MLA, ids),
        c_kv=c_kv,
        k_rope=stack_layers(res.probes, "blocks.{}.attn.k_rope"),
        keys=np.stack(keys),
        naive=naive,
        absorbed=absorbed,
        max_diff=float(np.abs(naive - absorbed).max()),
        scale=float(np.abs(naive).max()),
        top1_agree=float((naive.argmax(-1) == absorbed.argmax(-1)).mean()),
        absorbed_ms=absorbed_ms,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@dataclass(frozen=True)
class Prediction:
    pieces: tuple[str, ...]
    probs: tuple[float, ...]


def top(logits: np.ndarray, name: str, k: int = TOP) -> Prediction:
    """The ``k`` likeliest next tokens of one position's logits (V,), as pieces of checkpoint ``name``'s vocabulary."""
    z = logits.astype(np.float64)
    p = np.exp(z - z.max())
    p /= p.sum()
    best = np.argsort(-p, kind="stable")[:k]
    return Prediction(_pieces(name, best.tolist()), tuple(float(p[i]) for i in best))


def next_tokens(a: Latent, token: int) -> tuple[Prediction, Prediction]:
    """The top next tokens after position ``token`` on the naive and on the absorbed path."""
    if not 0 <= token < len(a.ids):
        raise InputError("mla.error.choice")
    return top(a.naive[token], MLA), top(a.absorbed[token], MLA)


# ---- 1 · why RoPE is decoupled ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RopeCheck:
    """Content scores q^C·k^C (H, T, T) of one layer on the text, computed by up-projecting the keys (exact) and by
    absorbing W_UK into the query (the inference path), with and without RoPE on the content parts."""

    layer: int
    decoupled: np.ndarray  # MLA as built: no rotation on q^C, k^C; exact scores
    decoupled_absorbed: np.ndarray  # the same through the absorbed path
    coupled: np.ndarray  # RoPE on q^C and k^C (the design MLA avoids); exact scores
    coupled_absorbed: np.ndarray  # the absorbed path tried on it: W_UKᵀ R(t) q^C against the raw latent c_KV
    decoupled_error: float  # max |absorbed − exact| / max |exact| over the causal scores, all heads
    coupled_error: float
    error_by_key: np.ndarray  # (T,) coupled: max over heads and queries of |absorbed − exact| at each key position


def _relative(got: np.ndarray, want: np.ndarray, mask: np.ndarray) -> float:
    return float(np.abs(got - want)[..., mask].max() / np.abs(want)[..., mask].max())


@st.cache_data(show_spinner=False, max_entries=64)
def rope_check(text: str, layer: int) -> RopeCheck:
    """``models.mla.content_scores`` (held by tests/models/test_mla.py) on the trained weights of ``layer`` and the
    hidden states of the text (after the block's attention RMSNorm)."""
    a = latent(text)
    model = MODEL.model
    if not 0 <= layer < len(model.blocks):
        raise InputError("mla.error.choice")
    device = model.embed.weight.device
    attn = model.blocks[layer].attn
    T = len(a.ids)
    with torch.inference_mode():
        x = torch.as_tensor(a.ids, device=device)[None]
        stream = model.embed(x)
        for block in model.blocks[:layer]:
            stream = block(stream, *_mask_rope(model, T, device))
        h = model.blocks[layer].attn_norm(stream)
        scores = {
            name: mla.content_scores(attn, h, rope_on_content=coupled, absorbed=absorbed, base=model.config.rope_base)
            for name, coupled, absorbed in (
                ("decoupled", False, False),
                ("decoupled_absorbed", False, True),
                ("coupled", True, False),
                ("coupled_absorbed", True, True),
            )
        }
        scores = {k: v[0].float().cpu().numpy() for k, v in scores.items()}  # (H, T, T)
    causal = np.tril(np.ones((T, T), dtype=bool))
    gap = np.where(causal, np.abs(scores["coupled_absorbed"] - scores["coupled"]), 0.0)  # (H, T, T)
    return RopeCheck(
        layer=layer,
        **scores,
        decoupled_error=_relative(scores["decoupled_absorbed"], scores["decoupled"], causal),
        coupled_error=_relative(scores["coupled_absorbed"], scores["coupled"], causal),
        error_by_key=gap.max(axis=(0, 1)),
    )


def _mask_rope(model, T: int, device):
    """The causal mask (T, T) and RoPE (cos, sin) of positions 0 … T − 1 that ``models.mla.Block`` takes."""
    return causal_mask(T, T, device=device), model.rope(torch.arange(T, device=device))


# ---- 2 · balancing without an auxiliary loss -------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    """What the cards of ``switch-auxfree`` and ``switch`` record about expert load."""

    steps: np.ndarray  # (P,) training step at the end of each averaged window
    curve: np.ndarray  # (L, P) auxfree: per-batch coefficient of variation of the routed load, window means
    every: int  # steps per window
    switch_curve: np.ndarray | None  # (L, P) the same for switch's recipe, rerun in auxfree's command (its card)
    twin: dict  # that rerun's held-out val_loss and load_cv_max (empty when the card has no twin)
    bias: np.ndarray  # (L, E) the final selection biases of switch-auxfree
    held_out_routed: dict  # name -> (L,) CV of the routed load on the held-out windows (card load_cv_routed)
    cv_max: dict  # name -> the card's load_cv_max: CV of the kept load (after the capacity cut), worst layer
    val_loss: dict  # name -> held-out loss, nats per token
    noise_floor: float  # CV a router choosing uniformly at random would show on one batch of N tokens
    batch_tokens: int  # N
    gamma: float  # γ, the bias update speed


def balance() -> Balance:
    return _balance(available(AUXFREE), available(SWITCH))


@st.cache_data(show_spinner=False, max_entries=4)
def _balance(auxfree_here: bool, switch_here: bool) -> Balance:
    if not auxfree_here:
        raise services.checkpoint(AUXFREE).missing()
    c = card(AUXFREE)
    record = c["load_over_training"]
    curve = np.array(record["load_cv"], dtype=float)
    every = int(record["every_steps"])
    s_card = card(SWITCH) if switch_here else {}
    twin = c.get("switch_twin", {})  # switch's recipe rerun beside auxfree in one command, load recorded
    s_record = twin.get("load_over_training", {})
    switch_curve = np.array(s_record["load_cv"], dtype=float) if "load_cv" in s_record else None
    settings = c["settings"]
    N = int(settings["batch"]) * int(settings["context"])
    config = services.checkpoint(AUXFREE).config
    E, k = int(config["n_experts"]), int(config["top_k"])
    p = 1 / E
    held, worst, loss = {}, {}, {}
    for name, cc in ((SWITCH, s_card), (AUXFREE, c)):
        m = cc.get("metrics", {})
        if "load_cv_routed" in m:
            held[name] = np.array(m["load_cv_routed"], dtype=float)
        if "load_cv_max" in m:
            worst[name] = float(m["load_cv_max"])
        if "val_loss" in m:
            loss[name] = float(m["val_loss"])
    return Balance(
        steps=every * np.arange(1, curve.shape[1] + 1),
        curve=curve,
        every=every,
        switch_curve=switch_curve,
        twin={k: twin[k] for k in ("val_loss", "load_cv_max") if k in twin},
        bias=np.array(c["selection_bias"], dtype=float),
        held_out_routed=held,
        cv_max=worst,
        val_loss=loss,
        # counts ~ Binomial(N·k, 1/E): std / mean = √((1 − p) / (N·k·p))
        noise_floor=float(np.sqrt((1 - p) / (N * k * p))),
        batch_tokens=N,
        gamma=float(config["bias_update"]),
    )


@dataclass(frozen=True)
class Routed:
    """One model routing the text: L MoE layers, T tokens, E experts (top-1)."""

    name: str
    pieces: tuple[str, ...]
    probs: np.ndarray  # (L, T, E) router probabilities p (no bias)
    expert: np.ndarray  # (L, T) the chosen expert
    weight: np.ndarray  # (L, T) its combine weight g (0 when its slot was dropped)
    dropped: np.ndarray  # (L, T) bool
    counts: np.ndarray  # (L, E) tokens routed to each expert, before the capacity cut
    changed: np.ndarray | None  # (L, T) bool, auxfree only: the bias chose another expert than argmax p
    weight_gap: float | None  # auxfree only: max |g − p[chosen]| over kept tokens (0: the bias never weights)
    ms: float


@dataclass(frozen=True)
class Routing:
    models: tuple[Routed, ...]  # switch, then switch-auxfree (those installed)
    missing: tuple[str, ...]
    backend: str
    device: str
    ms: float


def route(text: str, backend: str) -> Routing:
    return _route(text, backend, available(SWITCH), available(AUXFREE))


@st.cache_data(show_spinner=False, max_entries=64)
def _route(text: str, backend: str, switch_here: bool, auxfree_here: bool) -> Routing:
    names = [n for n, here in ((SWITCH, switch_here), (AUXFREE, auxfree_here)) if here]
    if not names:
        raise services.checkpoint(AUXFREE).missing()
    out, used = [], None
    for name in names:
        ids = encode(name, text)
        model = services.checkpoint(name)
        config = model.config
        inputs = {
            "tokens": ids[None],
            "capacity_factor": np.array([config["capacity_factor"]], dtype=np.float32),
            "top_k": np.array([config["top_k"]], dtype=np.int64),
        }
        res = model.run(inputs, MOE_PROBES, backend)
        used = res
        L, E = int(config["n_layers"]), int(config["n_experts"])
        probs = stack_layers(res.probes, "blocks.{}.moe.router_probs", L)  # (L, T, E)
        expert = stack_layers(res.probes, "blocks.{}.moe.expert_index", L)[..., 0].astype(np.int64)  # (L, T)
        weight = stack_layers(res.probes, "blocks.{}.moe.combine", L)[..., 0]
        dropped = stack_layers(res.probes, "blocks.{}.moe.dropped", L)[..., 0] > 0
        chosen_p = np.take_along_axis(probs, expert[..., None], -1)[..., 0]
        biased = config.get("balance") == "bias"
        out.append(
            Routed(
                name=name,
                pieces=_pieces(name, ids),
                probs=probs,
                expert=expert,
                weight=weight,
                dropped=dropped,
                counts=np.stack([np.bincount(e, minlength=E) for e in expert]),
                changed=(expert != probs.argmax(-1)) if biased else None,
                weight_gap=float(np.abs(weight - chosen_p)[~dropped].max(initial=0.0)) if biased else None,
                ms=res.ms,
            )
        )
    missing = tuple(n for n, here in ((SWITCH, switch_here), (AUXFREE, auxfree_here)) if not here)
    return Routing(tuple(out), missing, used.backend, used.device, sum(r.ms for r in out))


# ---- 3 · multi-token prediction ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heads:
    """Both heads of ``mtp`` on the text: at position i the main head predicts t_{i+1}, the MTP module (reading
    t_{i+1}) predicts t_{i+2}."""

    pieces: tuple[str, ...]
    main: tuple[Prediction, ...]  # (T,)
    ahead: tuple[Prediction, ...]  # (T,)
    main_hit: np.ndarray  # (T − 1,) bool, top-1 of the main head = t_{i+1}
    ahead_hit: np.ndarray  # (T − 2,) bool, top-1 of the MTP head = t_{i+2}
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def heads(text: str, backend: str) -> Heads:
    ids = encode(MTP, text)
    res = MTP_MODEL.run({"tokens": ids[None]}, (), backend)
    main, ahead = res.outputs["logits"][0], res.outputs["mtp_logits"][0]  # (T, V) each
    return Heads(
        pieces=_pieces(MTP, ids),
        main=tuple(top(z, MTP) for z in main),
        ahead=tuple(top(z, MTP) for z in ahead),
        main_hit=main[:-1].argmax(-1) == ids[1:],
        ahead_hit=ahead[:-2].argmax(-1) == ids[2:],
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@dataclass(frozen=True)
class Speculated:
    """Greedy decoding of the main model with the MTP head drafting one token ahead (models.mtp.speculative_greedy)."""

    prompt_tokens: int
    tokens: tuple[int, ...]  # the new tokens
    pieces: tuple[str, ...]
    drafted: tuple[bool, ...]  # per new token: an accepted draft
    rejected: tuple[tuple[int, str], ...]  # (index of the token the main model chose instead, the refused draft)
    proposals: int
    accepted: int
    forwards: int
    text: str
    backend: str
    device: str
    ms: float

    @property
    def acceptance(self) -> float:
        return self.accepted / max(1, self.proposals)

    @property
    def tokens_per_forward(self) -> float:
        return len(self.tokens) / max(1, self.forwards)


def _prompt(text: str, n: int) -> list[int]:
    ids = encode(MTP, text)
    if not 1 <= n <= MAX_NEW:
        raise InputError("mla.error.n", max=MAX_NEW)
    context = int(MTP_MODEL.config["max_len"])
    if len(ids) + n > context:  # within the context, every forward sees the whole sequence: exactly plain greedy
        raise InputError("mla.error.room", n=len(ids), new=n, max=context)
    return ids.tolist()


def _forward(backend: str, clock: list[float]):
    """``speculative_greedy``'s forward: ids -> (main (T, V), MTP (T, V)) through the engine; adds its ms to clock."""

    def forward(ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        res = MTP_MODEL.run({"tokens": np.array([ids], dtype=np.int64)}, (), backend)
        clock[0] += res.ms
        clock[1:] = [res.backend, res.device]
        return res.outputs["logits"][0], res.outputs["mtp_logits"][0]

    return forward


@services.computing
@st.cache_data(show_spinner=False, max_entries=32)
def speculate(text: str, n: int, backend: str) -> Speculated:
    prompt = _prompt(text, n)
    clock: list = [0.0, backend, engine().device]
    s = mtp.speculative_greedy(_forward(backend, clock), prompt, n, int(MTP_MODEL.config["max_len"]))
    pieces = _pieces(MTP, s.tokens)
    refused = tuple((pos, _pieces(MTP, [draft])[0]) for pos, draft, ok in s.proposals if not ok)
    return Speculated(
        prompt_tokens=len(prompt),
        tokens=tuple(s.tokens),
        pieces=pieces,
        drafted=tuple(s.drafted),
        rejected=refused,
        proposals=len(s.proposals),
        accepted=sum(ok for *_, ok in s.proposals),
        forwards=s.forwards,
        text=MTP_MODEL.tokenizer.decode(s.tokens),
        backend=clock[1],
        device=clock[2],
        ms=clock[0],
    )


@st.cache_data(show_spinner=False, max_entries=32)
def greedy(text: str, n: int, backend: str) -> tuple[int, ...]:
    """Plain greedy decoding of the main head, one forward per new token (what speculation must reproduce)."""
    seq = _prompt(text, n)
    start = len(seq)
    forward = _forward(backend, [0.0, backend, ""])
    for _ in range(n):
        seq.append(int(forward(seq)[0][-1].argmax()))
    return tuple(seq[start:])


@dataclass(frozen=True)
class MTPCard:
    metrics: dict
    curves: dict | None  # step, main_loss, mtp_loss, lambda: lists, as the figure's download writes them
    control_bpc: dict | None  # llama's config trained the same way without the module, by seed


def mtp_card() -> MTPCard:
    c = MTP_MODEL.card
    beside = next(iter(c.get("beside", {}).values()), {})
    curves = c.get("loss_curves")
    return MTPCard(
        dict(c.get("metrics", {})),
        None if curves is None else {k: list(v) for k, v in curves.items()},
        None if beside.get("val_bpc") is None else dict(beside["val_bpc"]),
    )


# ---- interventions on held-out text, torch only: knock-outs, and fewer latent dimensions kept ----------------------

KO_WINDOWS = 16  # held-out windows of the training context
CACHE_BYTES = 4  # float32: bytes per cached number


def _changed(overrides: dict) -> HeldOut:
    """The held-out loss with ``overrides`` beside the plain run."""
    MODEL.require()
    return decoder_change(MODEL.name, shape().max_len, KO_WINDOWS, overrides)


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(layer: int, part: str, mode: str, head: int = 0) -> HeldOut:
    """The held-out loss with ``part`` (one head, the whole attention, the MLP) of block ``layer`` replaced by
    ``mode`` (zeros, or at each position its mean over the window's positions up to there)."""
    from models import interventions

    s = shape()
    check_knock_out(BLOCKS, layer, part, mode, head, {BLOCKS: s.n_layers}, s.n_heads)
    return _changed(interventions.knock_out(layer, part, mode, head))


def latent_options() -> tuple[int, ...]:
    """The latent widths r a reader may keep, d_c down to 0: d_c, ¾, ½, ⅜, ¼, ⅛, 1/16 of it, none."""
    K = shape().kv_latent
    return tuple(sorted({K, 3 * K // 4, K // 2, 3 * K // 8, K // 4, K // 8, K // 16, 0}, reverse=True))


def latent_bytes(r: int) -> int:
    """Bytes the cache grows by per token with r latent dimensions kept: L · (r + d_h^R) · 4."""
    s = shape()
    return s.n_layers * (r + s.rope_dim) * CACHE_BYTES


@dataclass(frozen=True)
class Fewer:
    """The held-out loss with each layer's c_KV cut to its ``kept`` dimensions of largest variance (each of the rest
    set to its mean over the same windows: ``mla.keep_latent``), and the bits per character at every width offered."""

    kept: int  # r
    held: HeldOut
    options: tuple[int, ...]  # every r offered, d_c first
    bpc: tuple[float, ...]  # the held-out bpc at each
    cache_bytes: tuple[int, ...]  # bytes per token cached at each


@services.computing
@st.cache_data(show_spinner=False, max_entries=1)
def _fewer_all() -> dict[int, HeldOut]:
    windows = held_out_windows(MODEL.name, shape().max_len, KO_WINDOWS)[0]
    order, mean = mla.latent_stats(MODEL.model, torch.from_numpy(windows))  # (L, K) each, on the same windows
    return {r: _changed({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :r], mean)}) for r in latent_options()}


def fewer_latents(kept: int) -> Fewer:
    """The model with ``kept`` latent dimensions of each layer's c_KV (all widths computed once)."""
    options = latent_options()
    if kept not in options:
        raise InputError("mla.error.kept", options=", ".join(map(str, options)))
    every = _fewer_all()
    return Fewer(
        kept, every[kept], options, tuple(every[r].bpc_after for r in options), tuple(map(latent_bytes, options))
    )
