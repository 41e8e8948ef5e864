"""T5: an encoder–decoder for text-to-text, with T5's LayerNorm and bucketed relative position biases.

Raffel et al. 2019, "Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer", arXiv
1910.10683. What this file keeps of its §2.1 ("Model"):

- an encoder and a decoder of Transformer blocks; each sub-block's *input* is normalised (pre-norm) and the residual
  adds the sub-block's input to its output; a final norm after the last block of each stack;
- the norm only rescales: no mean subtraction, no additive bias (RMSNorm, models/layers/norms.py);
- no absolute positions: a learned scalar per head and relative-position bucket is added to the attention logits;
  32 buckets, exact for small offsets, log-spaced up to 128, beyond that one bucket; computed once (the first layer
  owns the table) and shared by every layer of its stack; bidirectional in the encoder, causal in the decoder, none
  in cross-attention;
- ReLU feed-forward; no biases in any dense layer;
- one embedding matrix for the encoder input, the decoder input and the output projection.

    x₀ = E[src] ;  xᵢ₊₁ = xᵢ + SelfAttn(Norm(xᵢ), bias_enc) ;  xᵢ₊₁ = xᵢ₊₁ + FFN(Norm(xᵢ₊₁))      encoder
    memory = Norm_f(x_L)
    y₀ = E[tgt] ; y += CausalSelfAttn(Norm(y), bias_dec) ; y += CrossAttn(Norm(y), memory) ; y += FFN(Norm(y))
    logits = Norm_f(y_L) · Eᵀ
    Norm(x) = x / √(mean(x²) + ε) · g ;  FFN(x) = W₂ max(0, W₁ x)
    bias[h, i, j] = b_h[bucket(j − i)]   (models/layers/positions.py: t5_relative_position_bucket)

The decoder's input is the target shifted right behind the start token, which T5 takes to be <pad> (id 0).

Departures: sizes are ours (3 + 3 layers, width 192, 4 heads); dropout is left out. Attention logits are divided by
√D as in the original Transformer (T5's code folds that factor into the initialisation of W_q instead; the two
differ only in how training starts). The tied output has no rescale: T5's released code (Mesh TensorFlow, v1.0,
where the embeddings are tied) multiplies the decoder's output by C^-0.5 (C = d_model) before the shared matrix,
logits = C^-0.5 · Norm_f(y_L) · Eᵀ; here the logits are Norm_f(y_L) · Eᵀ as written above. The logits are linear in
the final decoder norm's gain g, so multiplying g by C^-0.5 reproduces the rescale exactly: a gain learned here is
T5's gain times C^-0.5 (T5's is ours times √C), and only training differs (tests/models/test_t5.py checks the
equivalence).

Google's released weights (``t5-small``, converted by models/pretrained/t5.py, which folds √D into W_q and C^-0.5 into
the final decoder norm's gain as above) fit the defaults. T5 v1.1 and Flan-T5 need options whose defaults are ours:
``head_dim`` (D with H·D ≠ C: the projections map C to H·D and back), ``gated`` with ``activation="gelu_tanh"``
(their "gated-gelu" feed-forward, FFN(x) = W₂ (GELU(W₁ x) ⊙ W₃ x)) and ``tied=False`` (an output matrix of its own,
with no rescale). ``norm_eps`` is every norm's ε.

Shape letters: B batch, S source positions, T target positions, C model width, H heads, D head width, F feed-forward
width, V vocabulary.

Probes: ``encoder.layers.{i}.self_attn.{q,k,v,scores,pattern,context}``, ``decoder.layers.{i}.self_attn.*``,
``decoder.layers.{i}.cross_attn.*``, ``encoder.bias`` (H, S, S) and ``decoder.bias`` (H, T, T) (the position biases
as added), ``{encoder,decoder}.layers.{i}.ffn.act``; what each sublayer adds to the stream (B, ·, C):
``{encoder,decoder}.layers.{i}.self_attn_out`` and ``mlp_out``, ``decoder.layers.{i}.cross_attn_out``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import (
    MLP,
    KVCache,
    MultiHeadAttention,
    RMSNorm,
    SwiGLU,
    T5RelativeBias,
    causal_mask,
    gpt2_init,
    padding_mask,
)
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 4096  # unigram pieces, sentinels <extra_id_k> included (models/recipes/t5.py)
    dim: int = 192
    n_heads: int = 4
    ffn_dim: int = 768
    n_enc_layers: int = 3
    n_dec_layers: int = 3
    num_buckets: int = 32
    max_distance: int = 128
    pad_id: int = 0  # padding, and the decoder's start token
    eos_id: int = 1
    head_dim: int = 0  # D; 0: C / H. T5 v1.1 and Flan-T5 have H·D ≠ C
    activation: str = "relu"  # the feed-forward's (models/layers/ffn.py names)
    gated: bool = False  # True: W₂ (act(W₁ x) ⊙ W₃ x), T5 v1.1's "gated-gelu" with activation "gelu_tanh"
    tied: bool = True  # False: the output projection is a matrix of its own, not Eᵀ (T5 v1.1)
    norm_eps: float = 1e-6  # every norm's ε


PRESETS = {
    "tiny": Config(vocab=120, dim=32, n_heads=4, ffn_dim=64, n_enc_layers=2, n_dec_layers=2, max_distance=32),
    "shipped": Config(),
}

PROBES = ("*.self_attn.pattern", "*.cross_attn.pattern", "encoder.bias", "decoder.bias")


def attention(c: Config) -> MultiHeadAttention:
    """Bias-free attention, heads of width D = ``c.head_dim``: W_q, W_k, W_v map C to H·D and W_o back, which may
    differ from C (T5 v1.1)."""
    if not c.head_dim:
        return MultiHeadAttention(c.dim, c.n_heads, bias=False)
    inner = c.n_heads * c.head_dim
    attn = MultiHeadAttention(inner, c.n_heads, bias=False)  # head width inner / H = D
    if inner != c.dim:
        attn.wq, attn.wk, attn.wv = (nn.Linear(c.dim, inner, bias=False) for _ in range(3))
        attn.wo = nn.Linear(inner, c.dim, bias=False)
    return attn


def feed_forward(c: Config) -> nn.Module:
    """W₂ act(W₁ x), or gated: W₂ (act(W₁ x) ⊙ W₃ x); no biases."""
    if c.gated:
        return SwiGLU(c.dim, c.ffn_dim, activation=c.activation)
    return MLP(c.dim, c.ffn_dim, activation=c.activation, bias=False)


class EncoderBlock(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(c.dim, c.norm_eps), RMSNorm(c.dim, c.norm_eps)
        self.self_attn = attention(c)
        self.ffn = feed_forward(c)
        self.self_attn_out, self.mlp_out = Probe(), Probe()  # what each sublayer adds (knock-outs act here)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn_out(self.self_attn(self.norm1(x), mask=mask, bias=bias))
        return x + self.mlp_out(self.ffn(self.norm2(x)))  # (B, S, C)


class DecoderBlock(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.norm1, self.norm2, self.norm3 = (RMSNorm(c.dim, c.norm_eps) for _ in range(3))
        self.self_attn = attention(c)
        self.cross_attn = attention(c)
        self.ffn = feed_forward(c)
        self.self_attn_out, self.cross_attn_out, self.mlp_out = Probe(), Probe(), Probe()

    def forward(self, y, memory, self_mask, cross_mask, bias, cache: KVCache | None = None) -> torch.Tensor:
        y = y + self.self_attn_out(self.self_attn(self.norm1(y), mask=self_mask, bias=bias, cache=cache))
        y = y + self.cross_attn_out(self.cross_attn(self.norm2(y), source=memory, mask=cross_mask))  # no bias across
        return y + self.mlp_out(self.ffn(self.norm3(y)))  # (B, T, C)


class Stack(nn.Module):
    """One side (encoder or decoder): its blocks, its position-bias table (shared by its layers), a final norm."""

    def __init__(self, c: Config, block: type[nn.Module], n: int, *, bidirectional: bool):
        super().__init__()
        self.relative = T5RelativeBias(
            c.n_heads, bidirectional=bidirectional, num_buckets=c.num_buckets, max_distance=c.max_distance
        )
        self.layers = nn.ModuleList(block(c) for _ in range(n))
        self.norm = RMSNorm(c.dim, c.norm_eps)
        self.bias = Probe()


class T5(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.encoder = Stack(c, EncoderBlock, c.n_enc_layers, bidirectional=True)
        self.decoder = Stack(c, DecoderBlock, c.n_dec_layers, bidirectional=False)
        if not c.tied:
            self.lm_head = nn.Linear(c.dim, c.vocab, bias=False)
        self.apply(gpt2_init)
        name_probes(self)

    def encode(self, src: torch.Tensor) -> torch.Tensor:
        """src (B, S) ending in </s>, <pad> after -> memory (B, S, C)."""
        S = src.shape[1]
        bias = self.encoder.bias(self.encoder.relative(S))  # (H, S, S), the same for every layer
        mask = padding_mask(src, self.config.pad_id)  # (B, 1, 1, S)
        x = self.embed(src)
        for layer in self.encoder.layers:
            x = layer(x, mask, bias)
        return self.encoder.norm(x)

    def decode(
        self, tgt: torch.Tensor, memory: torch.Tensor, src: torch.Tensor, cache: list[KVCache] | None = None
    ) -> torch.Tensor:
        """tgt (B, T) decoder input (<pad> first), memory (B, S, C), src (B, S) for its padding -> logits (B, T, V).

        With ``cache`` (one KVCache per decoder layer, ``new_cache()``), ``tgt`` continues the cached prefix."""
        T = tgt.shape[1]
        past = len(cache[0]) if cache else 0
        bias = self.decoder.bias(self.decoder.relative(T, past + T))  # (H, T, S): causal buckets
        self_mask = causal_mask(T, past + T, device=tgt.device)
        cross_mask = padding_mask(src, self.config.pad_id)
        y = self.embed(tgt)
        for i, layer in enumerate(self.decoder.layers):
            y = layer(y, memory, self_mask, cross_mask, bias, cache[i] if cache else None)
        y = self.decoder.norm(y)
        return y @ self.embed.weight.T if self.config.tied else self.lm_head(y)  # (B, T, V)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        """src (B, S), tgt (B, T) the target shifted right behind <pad> -> logits (B, T, V): position t predicts
        target token t from tgt[:, :t+1] and the whole source."""
        return self.decode(tgt, self.encode(src), src)

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.decoder.layers]


def build(config: dict) -> T5:
    return T5(Config(**config))


# ---- greedy decoding -------------------------------------------------------------------------------------------------


@torch.no_grad()
def greedy(model: T5, src: torch.Tensor, max_new: int) -> torch.Tensor:
    """Greedy output ids (B, ≤ max_new) for sources (B, S): encodes once, then one cached decoder step per token.
    </s> included where produced, <pad> after it."""
    c = model.config
    memory, cache = model.encode(src), model.new_cache()
    step = torch.full((src.shape[0], 1), c.pad_id, dtype=torch.long, device=src.device)
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    out = []
    for _ in range(max_new):
        nxt = model.decode(step, memory, src, cache)[:, -1].argmax(-1).masked_fill(done, c.pad_id)  # (B,)
        out.append(nxt)
        done |= nxt == c.eos_id
        if done.all():
            break
        step = nxt[:, None]
    return torch.stack(out, dim=1)
