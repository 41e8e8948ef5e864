"""The original Transformer: an encoder–decoder built from attention alone.

Vaswani et al. 2017, "Attention Is All You Need", arXiv 1706.03762. What this file keeps from the paper:
post-LayerNorm sublayers ``LayerNorm(x + Sublayer(x))`` (section 3.1), scaled dot-product multi-head attention used
three ways — encoder self-attention, masked decoder self-attention, encoder–decoder (cross-) attention (3.2.3) —,
a ReLU feed-forward network (3.3), one embedding matrix shared by the encoder, the decoder and the output
projection and scaled by √d_model (3.4), and fixed sinusoidal positions (3.5). Dropout and label smoothing are left
out: the task is small and noise-free.

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V                                     (section 3.2.1)
    MultiHead(Q, K, V) = Concat(head₁, …, head_h) Wᴼ,  headᵢ = Attention(Q Wᵢ^Q, K Wᵢ^K, V Wᵢ^V)   (3.2.2)
    FFN(x) = max(0, x W₁ + b₁) W₂ + b₂                                               (3.3)
    PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))   (3.5)
    each sublayer: LayerNorm(x + Sublayer(x))                                         (3.1)

The shipped checkpoint (``models/recipes/transformer.py``) reverses short lowercase strings, a task whose correct
alignment is known: output symbol i copies source symbol n-1-i, so a working cross-attention head draws the
anti-diagonal. One training-only addition: each batch starts the source and the target positions at random rows of
the sinusoidal table (``offset`` of ``encode``/``decode``), so that the model learns to locate tokens by relative
rather than absolute position; inference starts at row 0, exactly as in the paper.

Shape letters: B batch, S source positions (keys of cross-attention), T target positions, C model width (d_model),
H heads, D head width (d_k = C / H), F feed-forward width (d_ff), V vocabulary.

Probes (each attention module records ``q``, ``k``, ``v`` (B, H, ·, D), ``scores`` (B, H, T, S) before the softmax,
``pattern`` (B, H, T, S) and ``context``, see ``models.layers.attention``):
    encoder.layers.{i}.self_attn.*    encoder self-attention (padding mask on the keys)
    decoder.layers.{i}.self_attn.*    decoder masked self-attention (causal and padding mask)
    decoder.layers.{i}.cross_attn.*   decoder queries attending to the encoder output (padding mask)
    encoder.layers.{i}.ffn.act, decoder.layers.{i}.ffn.act   ReLU hidden activations (B, ·, F)
    encoder.layers.{i}.out, decoder.layers.{i}.out            each layer's output (B, ·, C)
    {encoder,decoder}.layers.{i}.{self_attn_out,mlp_out}, decoder.layers.{i}.cross_attn_out
                                                              what each sublayer adds, before its LayerNorm (B, ·, C)
    encoder.embedded, decoder.embedded                        token embedding · √C + sinusoidal position (B, ·, C)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.layers import MLP, LayerNorm, MultiHeadAttention, SinusoidalPositions, causal_mask, padding_mask
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 30  # <pad>, <bos>, <eos>, then a–z and the space (models/data/seq2seq.py)
    dim: int = 64  # d_model
    n_heads: int = 4
    ffn_dim: int = 256  # d_ff, 4 × d_model as in the paper
    n_enc_layers: int = 2
    n_dec_layers: int = 2
    max_positions: int = 64  # rows of the sinusoidal table; ≥ 1.25 × the longest training input + <eos>
    pad_id: int = 0  # keys with this id get no attention
    bos_id: int = 1  # starts the decoder input
    eos_id: int = 2  # ends the source and the output


PRESETS = {
    "tiny": Config(dim=36, n_heads=3, ffn_dim=52, n_enc_layers=1, n_dec_layers=2, max_positions=24),
    "shipped": Config(),
}


# ---- modules, bottom-up ------------------------------------------------------------------------------------------


class EncoderLayer(nn.Module):
    """x -> LN(x + SelfAttn(x)) -> LN(· + FFN(·)): the post-LayerNorm order of the paper."""

    def __init__(self, c: Config):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm1 = LayerNorm(c.dim)
        self.ffn = MLP(c.dim, c.ffn_dim, activation="relu")
        self.norm2 = LayerNorm(c.dim)
        self.out = Probe()
        self.self_attn_out, self.mlp_out = Probe(), Probe()  # what each sublayer adds (knock-outs act here)

    def forward(self, x: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        x = self.norm1(x + self.self_attn_out(self.self_attn(x, mask=src_mask)))  # (B, S, C)
        return self.out(self.norm2(x + self.mlp_out(self.ffn(x))))  # (B, S, C)


class DecoderLayer(nn.Module):
    """Masked self-attention, then cross-attention to the encoder output, then the FFN; each post-LayerNorm."""

    def __init__(self, c: Config):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm1 = LayerNorm(c.dim)
        self.cross_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm2 = LayerNorm(c.dim)
        self.ffn = MLP(c.dim, c.ffn_dim, activation="relu")
        self.norm3 = LayerNorm(c.dim)
        self.out = Probe()
        self.self_attn_out, self.cross_attn_out, self.mlp_out = Probe(), Probe(), Probe()

    def forward(
        self, y: torch.Tensor, memory: torch.Tensor, tgt_mask: torch.Tensor, src_mask: torch.Tensor
    ) -> torch.Tensor:
        y = self.norm1(y + self.self_attn_out(self.self_attn(y, mask=tgt_mask)))  # (B, T, C)
        # queries from y, keys/values from memory
        y = self.norm2(y + self.cross_attn_out(self.cross_attn(y, source=memory, mask=src_mask)))
        return self.out(self.norm3(y + self.mlp_out(self.ffn(y))))  # (B, T, C)


class Encoder(nn.Module):
    def __init__(self, c: Config, embed: nn.Embedding, positions: SinusoidalPositions):
        super().__init__()
        self.embed, self.positions, self.scale = embed, positions, math.sqrt(c.dim)
        self.embedded = Probe()
        self.layers = nn.ModuleList(EncoderLayer(c) for _ in range(c.n_enc_layers))

    def forward(self, src: torch.Tensor, src_mask: torch.Tensor, offset: int = 0) -> torch.Tensor:
        x = self.embedded(self.positions(self.embed(src) * self.scale, offset))  # (B, S, C)
        for layer in self.layers:
            x = layer(x, src_mask)
        return x  # (B, S, C): the "memory" every decoder layer attends to


class Decoder(nn.Module):
    def __init__(self, c: Config, embed: nn.Embedding, positions: SinusoidalPositions):
        super().__init__()
        self.embed, self.positions, self.scale = embed, positions, math.sqrt(c.dim)
        self.embedded = Probe()
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.n_dec_layers))

    def forward(
        self, tgt: torch.Tensor, memory: torch.Tensor, tgt_mask: torch.Tensor, src_mask: torch.Tensor, offset: int = 0
    ) -> torch.Tensor:
        y = self.embedded(self.positions(self.embed(tgt) * self.scale, offset))  # (B, T, C)
        for layer in self.layers:
            y = layer(y, memory, tgt_mask, src_mask)
        return y  # (B, T, C)


class Transformer(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        # One embedding for source, target and the output projection (section 3.4); positions are fixed.
        self.embed = nn.Embedding(c.vocab, c.dim)
        nn.init.normal_(self.embed.weight, std=c.dim**-0.5)
        positions = SinusoidalPositions(c.max_positions, c.dim)
        self.encoder = Encoder(c, self.embed, positions)
        self.decoder = Decoder(c, self.embed, positions)
        name_probes(self)

    def source_mask(self, src: torch.Tensor) -> torch.Tensor:
        return padding_mask(src, self.config.pad_id)  # (B, 1, 1, S)

    def target_mask(self, tgt: torch.Tensor) -> torch.Tensor:
        T = tgt.shape[1]
        return causal_mask(T, device=tgt.device) & padding_mask(tgt, self.config.pad_id)  # (B, 1, T, T)

    def encode(self, src: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """src (B, S) -> memory (B, S, C). ``offset``: first row of the position table (training shifts it)."""
        return self.encoder(src, self.source_mask(src), offset)

    def decode(self, tgt: torch.Tensor, memory: torch.Tensor, src: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """tgt (B, T) decoder input, memory (B, S, C), src (B, S) for its padding -> logits (B, T, V)."""
        y = self.decoder(tgt, memory, self.target_mask(tgt), self.source_mask(src), offset)
        return y @ self.embed.weight.T  # (B, T, V)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        """src (B, S) source ids ending in <eos>, tgt (B, T) decoder input starting with <bos> -> logits (B, T, V).

        Position t of the logits predicts target token t, having seen tgt[:, :t+1] and the whole source.
        """
        return self.decode(tgt, self.encode(src), src)


def build(config: dict) -> Transformer:
    return Transformer(Config(**config))


# ---- greedy decoding -----------------------------------------------------------------------------------------------


def greedy_decode(model: Transformer, src: torch.Tensor, max_new: int) -> torch.Tensor:
    """Greedy output ids (B, ≤ max_new), <eos> included, <pad> after it. Encodes once, re-runs the decoder per step.

    Simple rather than fast: each step runs the decoder over the whole prefix (no KV cache); at these sizes that
    costs well under a millisecond per step.
    """
    c = model.config
    memory = model.encode(src)
    tgt = torch.full((src.shape[0], 1), c.bos_id, dtype=torch.long, device=src.device)
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    for _ in range(max_new):
        nxt = model.decode(tgt, memory, src)[:, -1].argmax(-1)  # (B,)
        nxt = nxt.masked_fill(done, c.pad_id)
        tgt = torch.cat([tgt, nxt[:, None]], dim=1)
        done |= nxt == c.eos_id
        if done.all():
            break
    return tgt[:, 1:]


def greedy_steps(
    logits_fn: Callable[[np.ndarray, np.ndarray], np.ndarray],
    src: np.ndarray,
    max_new: int,
    *,
    bos: int = Config.bos_id,
    eos: int = Config.eos_id,
) -> list[int]:
    """Greedy decoding of one source (1, S) through any backend: ``logits_fn(src, tgt) -> (1, T, V)`` logits.

    Returns the output ids, <eos> included when produced. Used by the app, whose backend may be ONNX Runtime.
    """
    tgt = [bos]
    for _ in range(max_new):
        logits = logits_fn(src, np.array([tgt], dtype=np.int64))
        nxt = int(np.argmax(logits[0, -1]))
        tgt.append(nxt)
        if nxt == eos:
            break
    return tgt[1:]
