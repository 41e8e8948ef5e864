"""The forward-pass page's bridge to ``models.gpt``: one traced forward pass of the shipped ``gpt`` checkpoint, every
intermediate read from its probes, and the same pass recomposed in float64 numpy from the displayed parts and the
model's weights (read, never changed).

Always on the torch backend: the exported ONNX graph carries only the probes of the GPT page (``embedded``,
``blocks.*.resid``, ``blocks.*.attn.pattern``), not the steps inside a block that this page shows.

Every function takes the checkpoint's name (ours ``gpt`` by default). A real Llama-family checkpoint (SmolLM2,
models/pretrained) gets its own walk (``analyse_llama``): RMSNorm, RoPE on q and k, grouped-query attention, SwiGLU.
Its model records fewer probes (q, k, v, pattern, context, the SwiGLU's gate, up and product, the stream after each
block), so the steps between them are recomputed here in float64 from the weights and checked against the next probe
that reads them. Its weights are read as the shared model holds them (float32, not copied: 0.5 GB), each matrix
widened to float64 only where a step uses it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.gpt.service import vocabulary  # the display pieces of a checkpoint's tokens (GPT's page builds them)
from app.shared import assets, services
from app.shared import interventions as ko
from app.shared.i18n import InputError
from app.shared.numbers import log_softmax, softmax
from app.shared.services import read_only, stack_layers

NAME = "gpt"  # our checkpoint, the page's default
BACKEND = "torch"
MAX_CHARS = 600  # what the text box accepts
MAX_REAL_TOKENS = 64  # tokens a real checkpoint reads here (every probe of 30 layers: ~60 MB a text)
DEFAULT_TEXT = assets.text("examples/forward_pass.txt").rstrip("\n")
TOP = 10  # tokens in the final bar chart
PROBES = (
    "token_embedding",
    "embedded",
    "blocks.*.attn_in",
    "blocks.*.attn_out",
    "blocks.*.mid",
    "blocks.*.mlp_in",
    "blocks.*.mlp_out",
    "blocks.*.resid",
    "blocks.*.attn.q",
    "blocks.*.attn.k",
    "blocks.*.attn.v",
    "blocks.*.attn.pattern",
    "blocks.*.attn.context",
    "blocks.*.mlp.pre",
    "blocks.*.mlp.act",
    "final_norm",
)
BLOCK_PROBES = ("attn_in", "attn_out", "mid", "mlp_in", "mlp_out", "resid", "mlp.pre", "mlp.act")
HEAD_PROBES = ("attn.q", "attn.k", "attn.v", "attn.pattern", "attn.context")


def handle(name: str = NAME) -> services.Checkpoint:
    return services.checkpoint(name)


def is_real(name: str = NAME) -> bool:
    return handle(name).real


def arch(name: str = NAME) -> str:
    """Our architecture module the checkpoint is built by: ``gpt`` (ours, GPT-2) or ``llama`` (SmolLM2, ...)."""
    return "gpt" if not is_real(name) else handle(name).card.get("arch", "llama")


def config(name: str = NAME) -> Mapping:
    """The model's configuration (read-only; the handle reads the file once per version of it)."""
    return handle(name).config


def params(name: str = NAME) -> int:
    """The model's parameter count, from its card (0 when it has none)."""
    return int(handle(name).card.get("params", 0))


def title(name: str = NAME) -> str:
    """How the page names the model: ours by its checkpoint name, a real one by its authors' name."""
    return handle(name).card.get("title", name) if is_real(name) else name


def max_tokens(name: str = NAME) -> int:
    """Ours: its context, <|endoftext|> included. A real one: ``MAX_REAL_TOKENS`` (it runs on a CPU here)."""
    return MAX_REAL_TOKENS if is_real(name) else int(config(name)["max_len"])


@st.cache_resource(show_spinner=False)
def weights(name: str = NAME) -> dict[str, np.ndarray]:
    """Every parameter of the model. Ours: float64 copies (the shared model is never touched). A real one: the
    shared model's own float32 arrays, read-only, not copied (each step widens what it reads)."""
    model = handle(name).model
    if not is_real(name):
        return {k: v.detach().double().cpu().numpy().copy() for k, v in model.state_dict().items()}
    out = {}
    for k, v in model.state_dict().items():
        a = v.detach().cpu().numpy()
        a.flags.writeable = False
        out[k] = a
    return out


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(-1, keepdims=True) + eps) * gamma + beta


_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, x·Φ(x), as models/layers/ffn.py computes it."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def tokenize(text: str, name: str = NAME) -> tuple[int, ...]:
    """Ours: <|endoftext|> then the text's byte-level BPE ids. A real checkpoint: its tokenizer's ids alone (no
    start token: SmolLM2's tokenizer adds none). ``InputError`` when empty or too long."""
    if not text or not text.strip():
        raise InputError("forward_pass.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("forward_pass.error.too_long_chars", n=len(text), max=MAX_CHARS)
    ids = handle(name).encode(text)
    most = max_tokens(name)
    if len(ids) > most:
        key = "forward_pass.error.too_long_tokens_real" if is_real(name) else "forward_pass.error.too_long_tokens"
        raise InputError(key, n=len(ids), max=most)
    return tuple(int(i) for i in ids)


@dataclass(frozen=True)
class Pass:
    """One traced forward pass. L layers, H heads, T tokens, C width, D head width, F MLP width, V vocabulary."""

    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    probes: dict  # name -> array: token_embedding/embedded/final_norm (T, C); block probes (L, T, C|F);
    #               attention probes (L, H, T, D|T)
    logits: np.ndarray  # (T, V) the model's output
    rebuilt: np.ndarray  # (T, V) the same logits from a float64 numpy forward that reads only the weights
    backend: str
    device: str
    ms: float


def _numpy_forward(ids: tuple[int, ...], c: dict, name: str = NAME) -> np.ndarray:
    """The whole model again, in float64 numpy from the weights alone: logits (T, V)."""
    w = weights(name)
    T, H = len(ids), c["n_heads"]
    D = c["dim"] // H
    x = w["embed.weight"][list(ids)] + w["pos.weight"][:T]
    allowed = np.tril(np.ones((T, T), dtype=bool))
    for i in range(c["n_layers"]):
        p = f"blocks.{i}."
        h = layer_norm(x, w[p + "ln1.weight"], w[p + "ln1.bias"])
        q, k, v = (
            (h @ w[p + f"attn.{n}.weight"].T + w[p + f"attn.{n}.bias"]).reshape(T, H, D).transpose(1, 0, 2)
            for n in ("wq", "wk", "wv")
        )  # (H, T, D)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(D)  # (H, T, T)
        context = softmax(scores, allowed=allowed) @ v  # (H, T, D)
        x = x + context.transpose(1, 0, 2).reshape(T, H * D) @ w[p + "attn.wo.weight"].T + w[p + "attn.wo.bias"]
        h = layer_norm(x, w[p + "ln2.weight"], w[p + "ln2.bias"])
        hidden = gelu(h @ w[p + "mlp.fc1.weight"].T + w[p + "mlp.fc1.bias"])
        x = x + hidden @ w[p + "mlp.fc2.weight"].T + w[p + "mlp.fc2.bias"]
    return layer_norm(x, w["ln_f.weight"], w["ln_f.bias"]) @ w["embed.weight"].T


@st.cache_data(show_spinner=False, max_entries=16)
def forward(text: str, name: str = NAME) -> Pass:
    """The text through the GPT ``name`` with every probe this page shows."""
    ids = tokenize(text, name)
    res = handle(name).run({"tokens": np.array([ids], dtype=np.int64)}, PROBES, BACKEND)
    c = config(name)
    L = c["n_layers"]
    probes = {n: res.probes[n][0] for n in ("token_embedding", "embedded", "final_norm")}
    for n in BLOCK_PROBES + HEAD_PROBES:
        probes[n] = stack_layers(res.probes, "blocks.{}." + n, L)
    vocab = vocabulary(name)
    return Pass(
        ids=ids,
        pieces=tuple(vocab[i] for i in ids),
        probes=probes,
        logits=res.outputs["logits"][0].astype(np.float64),
        rebuilt=_numpy_forward(ids, c, name),
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


def _diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))


@dataclass(frozen=True)
class View:
    """What the page shows for one token position t, one layer ℓ and one head h. Checks are largest absolute
    differences between a step recomputed here (float64, from the displayed parts and the weights) and the model's
    own probe (float32)."""

    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    pos: int  # t, clamped to the text
    layer: int
    head: int
    d_head: int
    # 1. embeddings
    token_row: np.ndarray  # (C,) E[id]
    position_row: np.ndarray  # (C,) P[t]
    x0: np.ndarray  # (C,) the embedded probe
    check_embed: float
    # 2. LayerNorm 1 of layer ℓ
    ln_x: np.ndarray  # (C,) the stream entering layer ℓ
    ln_mean: float
    ln_std: float  # √(var + ε)
    ln_hat: np.ndarray  # (C,) (x − mean) / std
    ln_out: np.ndarray  # (C,) the attn_in probe = γ ⊙ x̂ + β
    check_ln: float
    # 3. Q, K, V
    w_q_head: np.ndarray  # (D, C) head h's rows of W_Q
    qkv: np.ndarray  # (3, C) q, k, v of position t, all heads side by side (probes)
    check_qkv: float
    # 4. one head's attention, query t against keys 0..T-1
    dots: np.ndarray  # (T,) q·k_j (NaN after t: masked)
    scaled: np.ndarray  # (T,) ÷ √D
    weights: np.ndarray  # (T,) softmax over j ≤ t (recomputed)
    pattern: np.ndarray  # (T,) the pattern probe's row
    check_pattern: float
    context: np.ndarray  # (D,) the context probe for head h
    check_context: float  # Σ_j w_j v_j against the probe
    # 5. concat, W_O, residual add
    concat: np.ndarray  # (C,) all heads' contexts
    attn_out: np.ndarray  # (C,) the attn_out probe
    check_wo: float
    mid: np.ndarray  # (C,) the stream after the add
    check_add1: float
    # 6. MLP
    mlp_pre: np.ndarray  # (F,) W₁ LN₂(x) + b₁
    check_fc1: float  # W₁ · LN₂(x) + b₁ against the probe
    mlp_act: np.ndarray  # (F,) GELU of it (probe)
    check_gelu: float
    mlp_out: np.ndarray  # (C,) W₂ · GELU + b₂ (probe)
    check_mlp: float
    resid: np.ndarray  # (C,) after block ℓ
    check_add2: float
    # 7. the stream over layers
    stages: tuple[tuple[str, int], ...]  # ("embed", -1), ("attn", 0), ("mlp", 0), ...
    stream_norms: np.ndarray  # (1 + 2L,) ‖stream‖ after each step
    write_norms: np.ndarray  # (1 + 2L,) ‖what each step wrote‖ (x0 itself first)
    # 8. output
    final_norm: np.ndarray  # (C,) LN_f probe
    logits: np.ndarray  # (V,) the model's logits at t
    recomposed: np.ndarray  # (V,) LN_f(x0 + Σ heads·W_O + Σ b_O + Σ MLP) · Eᵀ from the displayed parts
    check_logits: float  # max |recomposed − model|
    check_numpy: float  # max |numpy forward from weights alone − model|
    temperature: float
    top_ids: np.ndarray  # (TOP,)
    top_pieces: tuple[str, ...]
    top_probs: np.ndarray  # (TOP,) softmax(logits / τ)
    next_piece: str  # the actual next token of the text (empty at the last position)
    # direct logit attribution to the predicted token
    predicted: int
    predicted_piece: str
    dla_parts: tuple[tuple[str, int, int], ...]  # (kind, layer, head): ("token", -1, -1), ("position", -1, -1),
    #                                            ("head", ℓ, h), ("bias", ℓ, -1) for b_O, ("mlp", ℓ, -1)
    dla: np.ndarray  # (N,) contribution of each part to the predicted token's logit
    dla_bias: float  # β_f · E[predicted]
    dla_check: float  # |Σ dla + bias − logit|
    backend: str
    device: str
    ms: float


@st.cache_resource(show_spinner=False, max_entries=64)  # shared as it is, not copied per call: see read_only
def analyse(text: str, pos: int, layer: int, head: int, temperature: float = 1.0, name: str = NAME):
    """Every stage of the forward pass for token position ``pos`` (clamped), layer ``layer``, head ``head``: a
    ``View`` of a GPT, a ``LlamaView`` of a Llama-family checkpoint."""
    if arch(name) == "llama":
        return analyse_llama(text, pos, layer, head, temperature, name)
    f = forward(text, name)
    c = config(name)
    L, H, C = c["n_layers"], c["n_heads"], c["dim"]
    D = C // H
    if not (0 <= layer < L and 0 <= head < H):
        raise InputError("forward_pass.error.layer", layers=L, heads=H)
    if not 0.05 <= temperature <= 5:
        raise InputError("forward_pass.error.temperature")
    T = len(f.ids)
    t = min(max(int(pos), 0), T - 1)
    w = weights(name)
    pr = f.probes
    p = f"blocks.{layer}."

    # 1. embeddings
    token_row, position_row = pr["token_embedding"][t], w["pos.weight"][t]
    x0 = pr["embedded"][t]

    # 2. LayerNorm 1: from the stream entering the layer
    ln_x = x0 if layer == 0 else pr["resid"][layer - 1, t]
    mean = float(ln_x.astype(np.float64).mean())
    std = float(np.sqrt(ln_x.astype(np.float64).var() + 1e-5))
    ln_hat = (ln_x - mean) / std
    ln_out = pr["attn_in"][layer, t]
    ln_re = ln_hat * w[p + "ln1.weight"] + w[p + "ln1.bias"]

    # 3. projections of LN₁(x): q = W_Q x + b_Q, split into H heads of D
    proj = {n: w[p + f"attn.w{n}.weight"] @ ln_out + w[p + f"attn.w{n}.bias"] for n in "qkv"}
    qkv = np.stack([pr[f"attn.{n}"][layer, :, t].reshape(C) for n in "qkv"])  # (3, C)
    check_qkv = _diff(np.stack([proj[n] for n in "qkv"]), qkv)

    # 4. one head: scores against every key, the causal mask, softmax, weighted sum of v
    q = pr["attn.q"][layer, head, t].astype(np.float64)  # (D,)
    k = pr["attn.k"][layer, head].astype(np.float64)  # (T, D)
    v = pr["attn.v"][layer, head].astype(np.float64)
    allowed = np.arange(T) <= t
    dots = np.where(allowed, k @ q, np.nan)
    scaled = dots / math.sqrt(D)
    weights_ = softmax(np.where(allowed, scaled, 0.0), allowed=allowed)
    pattern = pr["attn.pattern"][layer, head, t]
    context = pr["attn.context"][layer, head, t]

    # 5. concatenate the heads, W_O, add to the stream
    concat = pr["attn.context"][layer, :, t].reshape(C)
    attn_out = pr["attn_out"][layer, t]
    mid = pr["mid"][layer, t]

    # 6. MLP
    mlp_pre, mlp_act = pr["mlp.pre"][layer, t], pr["mlp.act"][layer, t]
    mlp_in = pr["mlp_in"][layer, t]
    mlp_out, resid = pr["mlp_out"][layer, t], pr["resid"][layer, t]

    # 7. the residual stream over the layers
    stages, stream, writes = [("embed", -1)], [x0], [x0]
    for i in range(L):
        stages += [("attn", i), ("mlp", i)]
        stream += [pr["mid"][i, t], pr["resid"][i, t]]
        writes += [pr["attn_out"][i, t], pr["mlp_out"][i, t]]

    # 8. recompose the stream from its parts: x_L = E + P + Σ_ℓ (Σ_h ctx_h W_O,h + b_O) + Σ_ℓ MLP_ℓ
    parts, kinds = [token_row.astype(np.float64), position_row], [("token", -1, -1), ("position", -1, -1)]
    for i in range(L):
        wo = w[f"blocks.{i}.attn.wo.weight"]  # (C, C): out × in
        for h in range(H):
            parts.append(wo[:, h * D : (h + 1) * D] @ pr["attn.context"][i, h, t])
            kinds.append(("head", i, h))
        parts.append(w[f"blocks.{i}.attn.wo.bias"])
        kinds.append(("bias", i, -1))
        parts.append(pr["mlp_out"][i, t].astype(np.float64))
        kinds.append(("mlp", i, -1))
    parts_ = np.stack(parts)  # (N, C)
    x_last = parts_.sum(0)
    gamma, beta, E = w["ln_f.weight"], w["ln_f.bias"], w["embed.weight"]
    recomposed = layer_norm(x_last, gamma, beta) @ E.T
    logits = f.logits[t]

    # direct logit attribution: LN_f linearised with its scale frozen at the whole stream's σ
    predicted = int(logits.argmax())
    sigma = math.sqrt(x_last.var() + 1e-5)
    centred = parts_ - parts_.mean(-1, keepdims=True)
    dla = (centred * gamma / sigma) @ E[predicted]
    dla_bias = float(beta @ E[predicted])

    probs = softmax(logits / temperature)
    top = np.argsort(-probs, kind="stable")[:TOP]
    vocab = vocabulary(name)
    return read_only(
        View(
            ids=f.ids,
            pieces=f.pieces,
            pos=t,
            layer=layer,
            head=head,
            d_head=D,
            token_row=token_row,
            position_row=position_row,
            x0=x0,
            check_embed=_diff(token_row + position_row, x0),
            ln_x=ln_x,
            ln_mean=mean,
            ln_std=std,
            ln_hat=ln_hat,
            ln_out=ln_out,
            check_ln=_diff(ln_re, ln_out),
            w_q_head=w[p + "attn.wq.weight"][head * D : (head + 1) * D],
            qkv=qkv,
            check_qkv=check_qkv,
            dots=dots,
            scaled=scaled,
            weights=weights_,
            pattern=pattern,
            check_pattern=_diff(weights_, pattern),
            context=context,
            check_context=_diff(weights_ @ v, context),
            concat=concat,
            attn_out=attn_out,
            check_wo=_diff(w[p + "attn.wo.weight"] @ concat + w[p + "attn.wo.bias"], attn_out),
            mid=mid,
            check_add1=_diff(ln_x.astype(np.float64) + attn_out, mid),
            mlp_pre=mlp_pre,
            mlp_act=mlp_act,
            check_fc1=_diff(w[p + "mlp.fc1.weight"] @ mlp_in + w[p + "mlp.fc1.bias"], mlp_pre),
            check_gelu=_diff(gelu(mlp_pre.astype(np.float64)), mlp_act),
            mlp_out=mlp_out,
            check_mlp=_diff(w[p + "mlp.fc2.weight"] @ mlp_act + w[p + "mlp.fc2.bias"], mlp_out),
            resid=resid,
            check_add2=_diff(mid.astype(np.float64) + mlp_out, resid),
            stages=tuple(stages),
            stream_norms=np.linalg.norm(np.stack(stream), axis=-1),
            write_norms=np.linalg.norm(np.stack(writes), axis=-1),
            final_norm=pr["final_norm"][t],
            logits=logits,
            recomposed=recomposed,
            check_logits=_diff(recomposed, logits),
            check_numpy=_diff(f.rebuilt[t], logits),
            temperature=float(temperature),
            top_ids=top,
            top_pieces=tuple(vocab[i] for i in top),
            top_probs=probs[top],
            next_piece=f.pieces[t + 1] if t + 1 < T else "",
            predicted=predicted,
            predicted_piece=vocab[predicted],
            dla_parts=tuple(kinds),
            dla=dla,
            dla_bias=dla_bias,
            dla_check=abs(float(dla.sum()) + dla_bias - float(logits[predicted])),
            backend=f.backend,
            device=f.device,
            ms=f.ms,
        )
    )


# ---- a Llama-family checkpoint: RMSNorm, RoPE, grouped-query attention, SwiGLU ------------------------------------

LLAMA_PROBES = (
    "blocks.*.attn.q",
    "blocks.*.attn.k",
    "blocks.*.attn.v",
    "blocks.*.attn.pattern",
    "blocks.*.attn.context",
    "blocks.*.mlp.gate",
    "blocks.*.mlp.up",
    "blocks.*.mlp.act",
    "blocks.*.resid",
)
DLA_SHOWN = 16  # parts the attribution names one by one on a real model (301 parts on SmolLM2); the rest summed
VOCAB_CHUNK = 8192  # unembedding rows widened to float64 at a time


def rms_norm(x: np.ndarray, g: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """RMSNorm in float64: (x / √(mean(x²) + ε) · g, the √ per row)."""
    x = np.asarray(x, dtype=np.float64)
    rms = np.sqrt((x * x).mean(-1, keepdims=True) + eps)
    return x / rms * g, rms


def rope_angles(positions: np.ndarray, d: int, base: float) -> np.ndarray:
    """(T, D/2) angles m·θᵢ, θᵢ = base^(−2i/D), as models/layers/positions.py computes them (θ in float32)."""
    theta = (base ** (-np.arange(0, d, 2, dtype=np.float32) / d)).astype(np.float32).astype(np.float64)
    return np.asarray(positions, dtype=np.float64)[:, None] * theta


def rope(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Rotate the pairs (x[2i], x[2i+1]) of x (..., T, D) by the angles (T, D/2)."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    cos, sin = np.cos(angles), np.sin(angles)
    return np.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), axis=-1).reshape(x.shape)


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def _f64(w: np.ndarray) -> np.ndarray:
    return np.asarray(w, dtype=np.float64)


def unembed_rows(w: dict, x: np.ndarray) -> np.ndarray:
    """x (..., C) float64 times the output matrix (E, or W_U when untied), a few thousand rows widened at a time:
    logits (..., V) in float64 without a 0.2 GB float64 copy of a 49k × 576 matrix."""
    E = w.get("head.weight", w["embed.weight"])
    return np.concatenate([x @ _f64(E[i : i + VOCAB_CHUNK]).T for i in range(0, len(E), VOCAB_CHUNK)], axis=-1)


@dataclass(frozen=True)
class LlamaPass:
    """One traced forward pass of a Llama-family model. L layers, H query heads, G key/value heads, T tokens."""

    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    probes: dict  # q, pattern, context (L, H, T, D|T); k, v (L, G, T, D); gate, up, act (L, T, F); resid (L, T, C)
    logits: np.ndarray  # (T, V) the model's output
    rebuilt_final: np.ndarray  # (T, C) the final RMSNorm's output from a float64 numpy forward of the weights alone
    backend: str
    device: str
    ms: float


def _numpy_llama(ids: tuple[int, ...], c: Mapping, w: dict) -> np.ndarray:
    """The whole model again in float64 numpy from the weights alone, up to the final RMSNorm: (T, C)."""
    T, H, G = len(ids), c["n_heads"], c["n_kv_heads"]
    D, eps = c["dim"] // H, c["norm_eps"]
    x = _f64(w["embed.weight"][list(ids)])
    angles = rope_angles(np.arange(T), D, c["rope_base"])
    allowed = np.tril(np.ones((T, T), dtype=bool))
    for i in range(c["n_layers"]):
        p = f"blocks.{i}."
        h, _ = rms_norm(x, w[p + "attn_norm.weight"], eps)
        q = rope((h @ _f64(w[p + "attn.wq.weight"]).T).reshape(T, H, D).transpose(1, 0, 2), angles)  # (H, T, D)
        k = rope((h @ _f64(w[p + "attn.wk.weight"]).T).reshape(T, G, D).transpose(1, 0, 2), angles)  # (G, T, D)
        v = (h @ _f64(w[p + "attn.wv.weight"]).T).reshape(T, G, D).transpose(1, 0, 2)
        k, v = (
            np.repeat(k, H // G, axis=0),
            np.repeat(v, H // G, axis=0),
        )  # query head h reads key/value head h // (H/G)
        context = softmax(q @ k.transpose(0, 2, 1) / math.sqrt(D), allowed=allowed) @ v  # (H, T, D)
        x = x + context.transpose(1, 0, 2).reshape(T, H * D) @ _f64(w[p + "attn.wo.weight"]).T
        h, _ = rms_norm(x, w[p + "ffn_norm.weight"], eps)
        gated = silu(h @ _f64(w[p + "mlp.w1.weight"]).T) * (h @ _f64(w[p + "mlp.w3.weight"]).T)
        x = x + gated @ _f64(w[p + "mlp.w2.weight"]).T
    return rms_norm(x, w["norm.weight"], eps)[0]


@st.cache_resource(show_spinner=False, max_entries=8)  # ~60 MB of probes a text: shared, never copied per call
def forward_llama(text: str, name: str) -> LlamaPass:
    """The text through the Llama-family checkpoint ``name`` with every probe it records."""
    ids = tokenize(text, name)
    res = handle(name).run({"tokens": np.array([ids], dtype=np.int64)}, LLAMA_PROBES, BACKEND)
    c = config(name)
    L = c["n_layers"]
    probes = {n: stack_layers(res.probes, "blocks.{}." + n, L) for n in ("attn.q", "attn.k", "attn.v",
              "attn.pattern", "attn.context", "mlp.gate", "mlp.up", "mlp.act", "resid")}  # fmt: skip
    vocab = vocabulary(name)
    return read_only(
        LlamaPass(
            ids=ids,
            pieces=tuple(vocab[i] for i in ids),
            probes=probes,
            logits=res.outputs["logits"][0],
            rebuilt_final=_numpy_llama(ids, c, weights(name)),
            backend=res.backend,
            device=res.device,
            ms=res.ms,
        )
    )


@dataclass(frozen=True)
class LlamaView:
    """What the page shows of a Llama-family model for position t, layer ℓ, query head h (which reads key/value head
    g = h // (H/G)). Checks: largest absolute difference between a step recomputed here in float64 and the model's
    next probe (float32) that reads it."""

    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    pos: int
    layer: int
    head: int
    kv_head: int
    n_heads: int
    n_kv_heads: int
    d_head: int
    # 1. the token embedding (no position vector: positions enter as rotations of q and k)
    token_row: np.ndarray  # (C,) E[id]
    angles: np.ndarray  # (D/2,) m·θᵢ at this position
    # 2. RMSNorm before attention
    ln_x: np.ndarray  # (C,) the stream entering layer ℓ
    ln_rms: float  # √(mean(x²) + ε)
    ln_hat: np.ndarray  # (C,) x / rms
    ln_out: np.ndarray  # (C,) g ⊙ x̂
    check_ln: float  # W_V · RMSNorm(x) against the v probe (v is not rotated)
    # 3. q, k, v and RoPE
    w_q_head: np.ndarray  # (D, C) head h's rows of W_Q
    q_plain: np.ndarray  # (D,) W_Q,h · RMSNorm(x), before the rotation
    qkv: np.ndarray  # (4, D) q before RoPE, q after (probe), k of head g after (probe), v of head g (probe)
    check_rope: float  # RoPE(W_Q x), RoPE(W_K x) against the q and k probes
    # 4. one head's attention
    dots: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    pattern: np.ndarray
    check_pattern: float
    context: np.ndarray  # (D,)
    check_context: float
    # 5. W_O and the residual add
    concat: np.ndarray  # (C,) every head's context
    attn_out: np.ndarray  # (C,) W_O · concat
    mid: np.ndarray  # (C,) x + attention
    check_mid: float  # silu(W₁ RMSNorm(mid)) against the gate probe: the add, read by the next step
    # 6. SwiGLU
    mlp_pre: np.ndarray  # (F,) W₁ · RMSNorm₂(x), the gate before SiLU
    gate: np.ndarray  # (F,) SiLU of it (probe)
    up: np.ndarray  # (F,) W₃ · RMSNorm₂(x) (probe)
    act: np.ndarray  # (F,) gate ⊙ up (probe)
    check_up: float
    check_act: float
    mlp_out: np.ndarray  # (C,) W₂ · act
    resid: np.ndarray  # (C,) after block ℓ (probe)
    check_add2: float  # mid + W₂ act against the resid probe
    # 7. the stream over the layers
    stages: tuple[tuple[str, int], ...]
    stream_norms: np.ndarray
    write_norms: np.ndarray
    # 8. output
    final_rms: float
    final_norm: np.ndarray  # (C,)
    logits: np.ndarray  # (V,)
    recomposed: np.ndarray  # (V,)
    check_logits: float
    check_numpy: float
    temperature: float
    top_ids: np.ndarray
    top_pieces: tuple[str, ...]
    top_probs: np.ndarray
    next_piece: str
    predicted: int
    predicted_piece: str
    # direct logit attribution: the largest parts, the rest summed
    dla_parts: tuple[tuple[str, int, int], ...]  # ("token", -1, -1), ("head", ℓ, h), ("mlp", ℓ, -1), ("rest", n, -1)
    dla: np.ndarray
    dla_bias: float  # 0: RMSNorm has no bias
    dla_check: float
    dla_total_parts: int
    backend: str
    device: str
    ms: float


@dataclass(frozen=True)
class _AtPosition:
    """What every layer and head of a Llama-family model does at one position (the parts a layer or head move does
    not change): the stream after each step, the parts of the last stream, the recomposed logits, the attribution."""

    mids: tuple  # (C,) per layer: the stream after attention
    attn_outs: tuple  # (C,) per layer: W_O · concat
    stages: tuple
    stream_norms: np.ndarray
    write_norms: np.ndarray
    final_rms: float
    final_norm: np.ndarray
    recomposed: np.ndarray
    check_logits: float
    check_numpy: float
    predicted: int
    dla_parts: tuple
    dla: np.ndarray
    dla_check: float
    dla_total_parts: int


@st.cache_resource(show_spinner=False, max_entries=64)
def _at_position(text: str, t: int, name: str) -> _AtPosition:
    f = forward_llama(text, name)
    c = config(name)
    L, H, C = c["n_layers"], c["n_heads"], c["dim"]
    D, eps = C // H, c["norm_eps"]
    w, pr = weights(name), f.probes
    token_row = _f64(w["embed.weight"][f.ids[t]])
    mids, attn_outs = [], []
    for i in range(L):
        before = token_row if i == 0 else _f64(pr["resid"][i - 1, t])
        out = _f64(w[f"blocks.{i}.attn.wo.weight"]) @ _f64(pr["attn.context"][i, :, t].reshape(C))
        attn_outs.append(out)
        mids.append(before + out)
    stages, stream, writes = [("embed", -1)], [token_row], [token_row]
    for i in range(L):
        stages += [("attn", i), ("mlp", i)]
        stream += [mids[i], _f64(pr["resid"][i, t])]
        writes += [attn_outs[i], _f64(pr["resid"][i, t]) - mids[i]]
    # the last stream from its parts: E[id] + Σ heads W_O,h ctx_h + Σ MLPs; final RMSNorm; Eᵀ
    parts, kinds = [token_row], [("token", -1, -1)]
    for i in range(L):
        wo = w[f"blocks.{i}.attn.wo.weight"]
        for h in range(H):
            parts.append(_f64(wo[:, h * D : (h + 1) * D]) @ _f64(pr["attn.context"][i, h, t]))
            kinds.append(("head", i, h))
        parts.append(_f64(pr["resid"][i, t]) - mids[i])
        kinds.append(("mlp", i, -1))
    parts_ = np.stack(parts)
    final_norm, final_rms = rms_norm(parts_.sum(0), w["norm.weight"], eps)
    recomposed = unembed_rows(w, final_norm)
    logits = f.logits[t].astype(np.float64)
    predicted = int(logits.argmax())
    E_pred = _f64(w.get("head.weight", w["embed.weight"])[predicted])
    dla_all = (parts_ * _f64(w["norm.weight"]) / float(final_rms[0])) @ E_pred  # RMSNorm frozen at its scale: exact
    order = np.argsort(-np.abs(dla_all), kind="stable")
    shown = np.sort(order[:DLA_SHOWN])
    rest = np.setdiff1d(np.arange(len(dla_all)), shown)
    dla = np.concatenate([dla_all[shown], [dla_all[rest].sum()]]) if len(rest) else dla_all[shown]
    return read_only(
        _AtPosition(
            mids=tuple(mids),
            attn_outs=tuple(attn_outs),
            stages=tuple(stages),
            stream_norms=np.linalg.norm(np.stack(stream), axis=-1),
            write_norms=np.linalg.norm(np.stack(writes), axis=-1),
            final_rms=float(final_rms[0]),
            final_norm=final_norm,
            recomposed=recomposed,
            check_logits=_diff(recomposed, logits),
            check_numpy=_diff(unembed_rows(w, f.rebuilt_final[t]), logits),
            predicted=predicted,
            dla_parts=tuple(kinds[i] for i in shown) + ((("rest", len(rest), -1),) if len(rest) else ()),
            dla=dla,
            dla_check=abs(float(dla_all.sum()) - float(logits[predicted])),
            dla_total_parts=len(dla_all),
        )
    )


@st.cache_resource(show_spinner=False, max_entries=64)
def analyse_llama(text: str, pos: int, layer: int, head: int, temperature: float, name: str) -> LlamaView:
    f = forward_llama(text, name)
    c = config(name)
    L, H, G, C = c["n_layers"], c["n_heads"], c["n_kv_heads"], c["dim"]
    D, eps = C // H, c["norm_eps"]
    if not (0 <= layer < L and 0 <= head < H):
        raise InputError("forward_pass.error.layer", layers=L, heads=H)
    if not 0.05 <= temperature <= 5:
        raise InputError("forward_pass.error.temperature")
    T = len(f.ids)
    t = min(max(int(pos), 0), T - 1)
    g = head // (H // G)
    w, pr = weights(name), f.probes
    p = f"blocks.{layer}."
    angles = rope_angles(np.arange(T), D, c["rope_base"])

    # 1-2. the stream entering the layer, and its RMSNorm
    token_row = _f64(w["embed.weight"][f.ids[t]])
    ln_x = token_row if layer == 0 else _f64(pr["resid"][layer - 1, t])
    ln_out, rms = rms_norm(ln_x, w[p + "attn_norm.weight"], eps)
    v_re = (_f64(w[p + "attn.wv.weight"]) @ ln_out).reshape(G, D)

    # 3. q, k, v of position t; RoPE turns q and k by m·θ
    wq = _f64(w[p + "attn.wq.weight"])
    q_all = (wq @ ln_out).reshape(H, D)
    k_all = (_f64(w[p + "attn.wk.weight"]) @ ln_out).reshape(G, D)
    q_rot = rope(q_all[:, None], angles[t : t + 1])[:, 0]
    k_rot = rope(k_all[:, None], angles[t : t + 1])[:, 0]
    check_rope = max(_diff(q_rot, pr["attn.q"][layer, :, t]), _diff(k_rot, pr["attn.k"][layer, :, t]))

    # 4. head h against every key of head g
    q = _f64(pr["attn.q"][layer, head, t])
    k, v = _f64(pr["attn.k"][layer, g]), _f64(pr["attn.v"][layer, g])
    allowed = np.arange(T) <= t
    dots = np.where(allowed, k @ q, np.nan)
    scaled = dots / math.sqrt(D)
    weights_ = softmax(np.where(allowed, scaled, 0.0), allowed=allowed)
    pattern, context = pr["attn.pattern"][layer, head, t], pr["attn.context"][layer, head, t]

    # 5. W_O and the add (every layer's, with the parts a layer move does not change: _at_position)
    at = _at_position(text, t, name)
    mid = at.mids[layer]

    # 6. SwiGLU
    ffn_in, _ = rms_norm(mid, w[p + "ffn_norm.weight"], eps)
    mlp_pre = _f64(w[p + "mlp.w1.weight"]) @ ffn_in
    up_re = _f64(w[p + "mlp.w3.weight"]) @ ffn_in
    gate, up, act = pr["mlp.gate"][layer, t], pr["mlp.up"][layer, t], pr["mlp.act"][layer, t]
    mlp_out = _f64(w[p + "mlp.w2.weight"]) @ _f64(act)
    resid = pr["resid"][layer, t]
    logits = f.logits[t].astype(np.float64)
    predicted = at.predicted

    probs = softmax(logits / temperature)
    top = np.argsort(-probs, kind="stable")[:TOP]
    vocab = vocabulary(name)
    return read_only(
        LlamaView(
            ids=f.ids,
            pieces=f.pieces,
            pos=t,
            layer=layer,
            head=head,
            kv_head=g,
            n_heads=H,
            n_kv_heads=G,
            d_head=D,
            token_row=token_row,
            angles=angles[t],
            ln_x=ln_x,
            ln_rms=float(rms[0]),
            ln_hat=ln_x / rms,
            ln_out=ln_out,
            check_ln=_diff(v_re, pr["attn.v"][layer, :, t]),
            w_q_head=wq[head * D : (head + 1) * D],
            q_plain=q_all[head],
            qkv=np.stack([q_all[head], q, k[t], v[t]]),
            check_rope=check_rope,
            dots=dots,
            scaled=scaled,
            weights=weights_,
            pattern=pattern,
            check_pattern=_diff(weights_, pattern),
            context=context,
            check_context=_diff(weights_ @ v, context),
            concat=pr["attn.context"][layer, :, t].reshape(C),
            attn_out=at.attn_outs[layer],
            mid=mid,
            check_mid=_diff(silu(mlp_pre), gate),
            mlp_pre=mlp_pre,
            gate=gate,
            up=up,
            act=act,
            check_up=_diff(up_re, up),
            check_act=_diff(_f64(gate) * up, act),
            mlp_out=mlp_out,
            resid=resid,
            check_add2=_diff(mid + mlp_out, resid),
            stages=at.stages,
            stream_norms=at.stream_norms,
            write_norms=at.write_norms,
            final_rms=at.final_rms,
            final_norm=at.final_norm,
            logits=logits,
            recomposed=at.recomposed,
            check_logits=at.check_logits,
            check_numpy=at.check_numpy,
            temperature=float(temperature),
            top_ids=top,
            top_pieces=tuple(vocab[i] for i in top),
            top_probs=probs[top],
            next_piece=f.pieces[t + 1] if t + 1 < T else "",
            predicted=predicted,
            predicted_piece=vocab[predicted],
            dla_parts=at.dla_parts,
            dla=at.dla,
            dla_bias=0.0,
            dla_check=at.dla_check,
            dla_total_parts=at.dla_total_parts,
            backend=f.backend,
            device=f.device,
            ms=f.ms,
        )
    )


# ---- knock-outs (models/interventions.py): the same text with one part of the model switched off ---------------------


@dataclass(frozen=True)
class KnockOut:
    """The text run plainly and with one part knocked out: the next-token loss at every position, and at the page's
    position the probability of the token the plain run ranks first. T tokens, T − 1 targets."""

    targets: tuple[str, ...]  # (T − 1,) the token each position predicts
    loss_before: np.ndarray  # (T − 1,) nats, plain
    loss_after: np.ndarray  # (T − 1,) knocked out
    pos: int  # the page's position
    top: int  # the plain run's most likely next token there
    p_before: float  # its probability (τ = 1), plain and knocked out
    p_after: float
    top_after: int  # the most likely next token there, knocked out
    backend: str
    device: str
    ms: float  # the knocked-out run


@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(text: str, pos: int, layer: int, part: str, mode: str, head: int = 0, name: str = NAME) -> KnockOut:
    """Knock out ``part`` of block ``layer`` by ``mode`` and compare with the plain run (eager torch on the shared
    model: the override lives in this call's context only, ``models.probe.intervene``)."""
    import torch

    from models import interventions
    from models.probe import intervene

    c = config(name)
    ko.check(ko.BLOCKS, layer, part, mode, head, {ko.BLOCKS: c["n_layers"]}, c["n_heads"])
    ids = tokenize(text, name)
    if len(ids) < 2:
        raise InputError("forward_pass.error.ko_short")
    pos = min(max(int(pos), 0), len(ids) - 1)
    model = handle(name).model
    device = next(model.parameters()).device
    x = torch.tensor([ids], device=device)

    def run() -> np.ndarray:
        with torch.inference_mode():
            return model(x)[0].double().cpu().numpy()  # (T, V)

    before = run()
    start = time.perf_counter()
    with intervene(interventions.knock_out(layer, part, mode, head)):
        after = run()
    ms = (time.perf_counter() - start) * 1e3
    targets = np.array(ids[1:])
    rows = np.arange(len(targets))
    loss = [-log_softmax(z[:-1])[rows, targets] for z in (before, after)]
    p = [softmax(z[pos]) for z in (before, after)]
    top = int(p[0].argmax())
    vocab = vocabulary(name)
    return KnockOut(
        targets=tuple(vocab[i] for i in ids[1:]),
        loss_before=loss[0],
        loss_after=loss[1],
        pos=pos,
        top=top,
        p_before=float(p[0][top]),
        p_after=float(p[1][top]),
        top_after=int(p[1].argmax()),
        backend="torch",
        device=str(device.type),
        ms=ms,
    )


@st.cache_data(show_spinner=False, max_entries=16)
def layer_attribution(text: str, name: str = NAME) -> tuple[str, tuple[tuple[tuple[str, int], float], ...]]:
    """At the last token of ``text``: (the predicted piece, each part's direct contribution to its logit with a
    layer's heads summed into that layer's attention), largest first. Parts: ("token", -1), ("position", -1) on a GPT,
    ("attn", ℓ), ("mlp", ℓ). The step 8 attribution's numbers, every part of a real model counted (the page pools the
    smallest into one bar)."""
    view = analyse(text, 10**6, 0, 0, 1.0, name)  # the position is clamped to the last token
    sums: dict[tuple[str, int], float] = {}
    if arch(name) == "llama":  # the page keeps only the largest parts: each layer's attention and MLP from the stream
        f = forward_llama(text, name)
        t = len(f.ids) - 1
        at, w = _at_position(text, t, name), weights(name)
        scale = _f64(w["norm.weight"]) / at.final_rms  # RMSNorm frozen at its scale, as the page's attribution
        e_pred = _f64(w.get("head.weight", w["embed.weight"])[view.predicted]) * scale
        sums["token", -1] = float(_f64(w["embed.weight"][f.ids[t]]) @ e_pred)
        for i in range(len(at.attn_outs)):
            sums["attn", i] = float(at.attn_outs[i] @ e_pred)
            sums["mlp", i] = float((_f64(f.probes["resid"][i, t]) - at.mids[i]) @ e_pred)
    else:
        for (kind, layer, _head), v in zip(view.dla_parts, view.dla):
            kind = "attn" if kind in ("head", "bias") else kind
            sums[kind, layer] = sums.get((kind, layer), 0.0) + float(v)
    return view.predicted_piece, tuple(sorted(sums.items(), key=lambda kv: -kv[1]))
