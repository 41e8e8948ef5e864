"""The forward-pass page's bridge to ``models.gpt``: one traced forward pass of the shipped ``gpt`` checkpoint, every
intermediate read from its probes, and the same pass recomposed in float64 numpy from the displayed parts and the
model's weights (read, never changed).

Always on the torch backend: the exported ONNX graph carries only the probes of the GPT page (``embedded``,
``blocks.*.resid``, ``blocks.*.attn.pattern``), not the steps inside a block that this page shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.gpt.service import vocabulary  # the display pieces of a checkpoint's tokens (GPT's page builds them)
from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.numbers import softmax
from app.shared.services import read_only, stack_layers
from models import metrics

NAME = "gpt"
MODEL = services.checkpoint(NAME)  # the checkpoint this page traces; every function reads it through the handle
BACKEND = "torch"
MAX_CHARS = 600  # what the text box accepts
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


def config() -> Mapping:
    """The model's configuration (read-only; the handle reads the file once per version of it)."""
    return MODEL.config


def params() -> int:
    """The model's parameter count, from its card (0 when it has none)."""
    return int(MODEL.card.get("params", 0))


def max_tokens() -> int:
    """The model's context: <|endoftext|> plus the text's tokens may fill it, no more."""
    return int(config()["max_len"])


@st.cache_resource(show_spinner=False)
def weights() -> dict[str, np.ndarray]:
    """Every parameter of the shipped model as a float64 array (a copy: the shared model is never touched)."""
    model = MODEL.model
    return {k: v.detach().double().cpu().numpy().copy() for k, v in model.state_dict().items()}


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(-1, keepdims=True) + eps) * gamma + beta


_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, x·Φ(x), as models/layers/ffn.py computes it."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def tokenize(text: str) -> tuple[int, ...]:
    """<|endoftext|> then the text's byte-level BPE ids; ``InputError`` when empty or too long."""
    if not text or not text.strip():
        raise InputError("forward_pass.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("forward_pass.error.too_long_chars", n=len(text), max=MAX_CHARS)
    ids = metrics.encode_document(MODEL.tokenizer, text)
    if len(ids) > max_tokens():
        raise InputError("forward_pass.error.too_long_tokens", n=len(ids), max=max_tokens())
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


def _numpy_forward(ids: tuple[int, ...], c: dict) -> np.ndarray:
    """The whole model again, in float64 numpy from the weights alone: logits (T, V)."""
    w = weights()
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
def forward(text: str) -> Pass:
    """The text through the shipped GPT with every probe this page shows."""
    ids = tokenize(text)
    res = MODEL.run({"tokens": np.array([ids], dtype=np.int64)}, PROBES, BACKEND)
    c = config()
    L = c["n_layers"]
    probes = {n: res.probes[n][0] for n in ("token_embedding", "embedded", "final_norm")}
    for n in BLOCK_PROBES + HEAD_PROBES:
        probes[n] = stack_layers(res.probes, "blocks.{}." + n, L)
    vocab = vocabulary(NAME)
    return Pass(
        ids=ids,
        pieces=tuple(vocab[i] for i in ids),
        probes=probes,
        logits=res.outputs["logits"][0].astype(np.float64),
        rebuilt=_numpy_forward(ids, c),
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
def analyse(text: str, pos: int, layer: int, head: int, temperature: float = 1.0) -> View:
    """Every stage of the forward pass for token position ``pos`` (clamped), layer ``layer``, head ``head``."""
    f = forward(text)
    c = config()
    L, H, C = c["n_layers"], c["n_heads"], c["dim"]
    D = C // H
    if not (0 <= layer < L and 0 <= head < H):
        raise InputError("forward_pass.error.layer", layers=L, heads=H)
    if not 0.05 <= temperature <= 5:
        raise InputError("forward_pass.error.temperature")
    T = len(f.ids)
    t = min(max(int(pos), 0), T - 1)
    w = weights()
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
    vocab = vocabulary(NAME)
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
