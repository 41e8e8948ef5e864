"""Transformer-XL: a decoder that reads past its segment through a memory of the previous segment's hidden states,
made possible by relative position encodings.

Paper: Dai, Yang, Yang, Carbonell, Le, Salakhutdinov 2019, "Transformer-XL: Attentive Language Models Beyond a
Fixed-Length Context" (1901.02860). The fragmented baseline it improves on is the vanilla character Transformer of
Al-Rfou et al. 2018 (1808.04444): fixed-length segments trained and evaluated separately.

Segment-level recurrence (§3.2). Segment τ holds L tokens; layer n keeps the memory m_τⁿ⁻¹ = the last M hidden
states of layer n − 1 (the layer's inputs) of the segments before, with no gradient through them (SG):

    h̃_τⁿ⁻¹ = [SG(m_τⁿ⁻¹) ∘ h_τⁿ⁻¹]                         (concatenated along time: S = M + L keys)
    q_τⁿ = h_τⁿ⁻¹ W_qᵀ ;  k_τⁿ = h̃_τⁿ⁻¹ W_k,Eᵀ ;  v_τⁿ = h̃_τⁿ⁻¹ W_vᵀ       (queries: the current segment only)
    m_τ₊₁ⁿ⁻¹ = the last M rows of [m_τⁿ⁻¹ ∘ h_τⁿ⁻¹]

Relative positions (§3.3). Query i (absolute position M + i in the keys) and key j, R a fixed sinusoid of the
offset i − j (``sinusoidal_table``), u and v two learned vectors shared by every position (here by every layer too):

    A_ij = q_iᵀ k_j            (a) content–content
         + q_iᵀ W_k,R R_{i−j}  (b) content-dependent position
         + uᵀ k_j              (c) global content bias
         + vᵀ W_k,R R_{i−j}    (d) global position bias
         = (q_i + u)ᵀ k_j + (q_i + v)ᵀ r_{i−j},   r = W_k,R R
    pattern = softmax(A / √D + causal mask) ; context = pattern · V (the values), heads concatenated, then W_o

The efficient computation (Appendix B): (q_i + v)ᵀ r_k is computed once for every key distance in one matrix
product, (L, S) with column k holding distance S − 1 − k, then each row i is shifted left by L − 1 − i
(``rel_shift``: pad a zero column, reshape, drop a row) so that column j holds distance M + i − j. The shift
equals a direct gather of r at i − j (``score_terms`` gathers; the tests hold them equal).

Block (post-LN, as the paper's summary of a layer writes it, o = LayerNorm(Linear(a) + h)):
    x = LN₁(x + RelAttn(x, memory)) ; x = LN₂(x + W₂ ReLU(W₁ x)).
logits = x_N · Eᵀ (output tied to the token embedding E; post-LN leaves the stream normalised).

Effective context. Layer n's memory holds layer n − 1's states of the previous segment, which themselves saw the
segment before: the reach grows by M per layer, N × M for N layers (the paper: O(N × L)).

Glossary (shape letters): B batch, T queries (tokens of the segment, L in training), M memory length, S keys
(M + T), C model width, H heads, D head width (C / H), V vocabulary, N layers.

Probes: ``embedded`` (B, T, C) E[tokens], the input of block 0; ``blocks.{n}.resid`` (B, T, C) after block n;
``blocks.{n}.attn.q`` (B, H, T, D), ``.k`` (B, H, S, D), ``.r`` (H, S, D) = W_k,R R for distances S − 1 .. 0,
``.scores`` (B, H, T, S) A / √D before the mask, ``.pattern`` (B, H, T, S) after the softmax (memory keys first),
``.context`` (B, H, T, D) each head's output before W_o; ``blocks.{n}.attn_out`` and ``.mlp_out`` (B, T, C) what each
sublayer adds before its LayerNorm — the points of models/interventions.py's knock-outs.

Where ours departs from the paper: the sizes (N 4, C 160, 4 heads, a 2,048-id BPE, L 64, M 64; the paper's enwik8
model has 24 layers and 277M parameters), no dropout (a short run on a small corpus), no adaptive softmax or adaptive
input embeddings (a 2,048-id vocabulary), and evaluation reads the training M unless a caller asks for another
(``keep``; relative positions allow any M up to ``max_distance``).

The checkpoint ``transformer-xl`` is trained by models/recipes/transformer_xl.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models import sampling
from models.layers import MLP, LayerNorm, causal_mask, gpt2_init, sinusoidal_table
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 2048  # the byte-level BPE of the gpt checkpoint
    dim: int = 160
    n_heads: int = 4  # D = dim / n_heads
    n_layers: int = 4
    hidden: int = 640  # the ReLU feed-forward's width, 4C
    segment: int = 64  # L: tokens per segment in training (short enough that fragmentation matters)
    memory: int = 64  # M: hidden states each layer keeps from the segments before (M ≥ L)
    max_distance: int = 2048  # rows of R: the longest M + T one forward may attend over


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_layers=2, hidden=64, segment=7, memory=9, max_distance=128),
    "shipped": Config(),
}

# What a page reads (and export carries).
PROBES = (
    "embedded",
    "blocks.*.resid",
    "blocks.*.attn.q",
    "blocks.*.attn.k",
    "blocks.*.attn.r",
    "blocks.*.attn.pattern",
)


def rel_shift(x: torch.Tensor) -> torch.Tensor:
    """(..., T, S) with column k holding key distance S − 1 − k -> (..., T, S) with column j holding distance
    (S − T + i) − j for query i (the paper's Appendix B). Entries for j > S − T + i (future keys) hold other rows'
    values; the causal mask hides them."""
    *lead, T, S = x.shape
    padded = torch.cat([x.new_zeros(*lead, T, 1), x], dim=-1)  # (..., T, S + 1)
    return padded.view(*lead, S + 1, T)[..., 1:, :].reshape(*lead, T, S)


class RelMultiHeadAttention(nn.Module):
    """Multi-head attention over [memory ∘ segment] with the four-term relative score (no biases, as the paper's
    W_q, W_k,E, W_v, W_k,R)."""

    def __init__(self, dim: int, n_heads: int):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)  # W_k,E
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wr = nn.Linear(dim, dim, bias=False)  # W_k,R
        self.wo = nn.Linear(dim, dim, bias=False)
        self.q, self.k, self.v, self.r = Probe(), Probe(), Probe(), Probe()
        self.scores, self.pattern, self.context = Probe(), Probe(), Probe()

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        return x.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)  # (B, H, T, D)

    def forward(
        self, x: torch.Tensor, h: torch.Tensor, R: torch.Tensor, u: torch.Tensor, v: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """Attend from the segment x (B, T, C) to h = [memory ∘ x] (B, S, C).

        Args:
            R: (S, C) sinusoid of the key distances S − 1 .. 0; u, v: (H, D); mask: (T, S) bool, True = may attend.
        """
        q = self.q(self._heads(self.wq(x)))  # (B, H, T, D)
        k = self.k(self._heads(self.wk(h)))  # (B, H, S, D)
        val = self.v(self._heads(self.wv(h)))  # (B, H, S, D)
        S = R.shape[0]
        r = self.r(self.wr(R).view(S, self.n_heads, self.head_dim).transpose(0, 1))  # (H, S, D)
        ac = (q + u[:, None]) @ k.transpose(-2, -1)  # (a) + (c): (B, H, T, S)
        bd = rel_shift((q + v[:, None]) @ r.transpose(-2, -1))  # (b) + (d): (B, H, T, S)
        scores = self.scores((ac + bd) / math.sqrt(self.head_dim))
        pattern = self.pattern(torch.softmax(scores.masked_fill(~mask, torch.finfo(scores.dtype).min), dim=-1))
        context = self.context(pattern @ val)  # (B, H, T, D)
        B, H, T, D = context.shape
        return self.wo(context.transpose(1, 2).reshape(B, T, H * D))


class Block(nn.Module):
    """Post-LN: x = LN₁(x + RelAttn(x, [memory ∘ x])) ; x = LN₂(x + FF(x)), FF = W₂ ReLU(W₁ x)."""

    def __init__(self, c: Config):
        super().__init__()
        self.attn = RelMultiHeadAttention(c.dim, c.n_heads)
        self.ln1, self.ln2 = LayerNorm(c.dim), LayerNorm(c.dim)
        self.mlp = MLP(c.dim, c.hidden, activation="relu")
        self.attn_out, self.mlp_out, self.resid = Probe(), Probe(), Probe()  # what each sublayer adds, before its LN

    def forward(self, x, memory, R, u, v, mask):
        h = torch.cat([memory.detach(), x], dim=1)  # SG(m) ∘ h: (B, S, C)
        x = self.ln1(x + self.attn_out(self.attn(x, h, R, u, v, mask)))
        return self.resid(self.ln2(x + self.mlp_out(self.mlp(x))))  # (B, T, C)


class TransformerXL(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        D = c.dim // c.n_heads
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.embedded = Probe()
        self.register_buffer("R", sinusoidal_table(c.max_distance, c.dim), persistent=False)  # row d: distance d
        self.u = nn.Parameter(torch.zeros(c.n_heads, D))  # global content bias (c)
        self.v = nn.Parameter(torch.zeros(c.n_heads, D))  # global position bias (d)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.apply(gpt2_init)
        for block in self.blocks:  # as GPT-2: the projections into the residual stream start at 0.02/√(2N)
            for proj in (block.attn.wo, block.mlp.fc2):
                nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)

    def empty_memory(self, batch: int = 1) -> torch.Tensor:
        """(N, B, 0, C): no memory (the first segment of a document, or memory cleared)."""
        c = self.config
        return self.embed.weight.new_zeros(c.n_layers, batch, 0, c.dim)

    def forward(
        self, tokens: torch.Tensor, memory: torch.Tensor | None = None, keep: int | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """tokens (B, T), memory (N, B, M, C) -> logits (B, T, V), new memory (N, B, min(keep, M + T), C).

        Args:
            memory: layer n's row holds the last M inputs of layer n (hidden states of layer n − 1; n = 0: the
                embeddings) of the text before ``tokens``; None or M = 0 = no memory.
            keep: how many states the new memory keeps (the config's M unless given).
        """
        B, T = tokens.shape
        if memory is None:
            memory = self.empty_memory(B)
        S = memory.shape[2] + T
        if S > self.config.max_distance:
            raise ValueError(f"{S} keys exceed the {self.config.max_distance} distances of R")
        keep = self.config.memory if keep is None else keep
        # (S, C): distances S − 1 .. 0 (not arange(S − 1, −1, −1): the ONNX export of a descending range is empty)
        R = self.R[S - 1 - torch.arange(S, device=tokens.device)]
        mask = causal_mask(T, S, device=tokens.device)  # query i sees keys j ≤ M + i
        x = self.embedded(self.embed(tokens))  # (B, T, C)
        new_memory = []
        for n, block in enumerate(self.blocks):
            new_memory.append(torch.cat([memory[n], x], dim=1)[:, -keep:].detach() if keep else x[:, :0].detach())
            x = block(x, memory[n], R, self.u, self.v, mask)
        logits = x @ self.embed.weight.T  # (B, T, V)
        return logits, torch.stack(new_memory)


def build(config: dict) -> TransformerXL:
    return TransformerXL(Config(**config))


# ---- inference helpers ----------------------------------------------------------------------------------------------


def without_memory(x: torch.Tensor, name: str) -> torch.Tensor:
    """An override for the scores probes (``blocks.{i}.attn.scores``, (B, H, T, S) over [memory ∘ segment]): the
    memory's keys (the first S − T) get the masked value, so the layer attends to its own segment only. On every
    layer it gives what an empty memory gives (up to rounding: the same keys, in a smaller product)."""
    x = x.clone()
    x[..., : x.shape[-1] - x.shape[-2]] = torch.finfo(x.dtype).min
    return x


def score_terms(
    q: torch.Tensor, k: torch.Tensor, r: torch.Tensor, u: torch.Tensor, v: torch.Tensor
) -> dict[str, torch.Tensor]:
    """The four terms (a)–(d) of A / √D, each (..., H, T, S), by a direct gather of r at each distance (no shift).

    Args:
        q (..., H, T, D), k (..., H, S, D), r (H, S, D) for distances S − 1 .. 0 (the probes), u and v (H, D).
    Returns:
        {"a", "b", "c", "d"}; entries for future keys (j > S − T + i) are 0.
    """
    T, S, D = q.shape[-2], k.shape[-2], q.shape[-1]
    i = torch.arange(T)[:, None] + (S - T)  # query positions among the keys
    dist = i - torch.arange(S)[None, :]  # (T, S): i − j
    visible = dist >= 0
    r_ij = r[:, (S - 1 - dist).clamp(0, S - 1)]  # (H, T, S, D): r at distance i − j
    scale = 1 / math.sqrt(D)
    terms = {
        "a": q @ k.transpose(-2, -1),
        "b": torch.einsum("...htd,htsd->...hts", q, r_ij),
        "c": torch.einsum("hd,...hsd->...hs", u, k)[..., None, :].expand(*q.shape[:-1], S),
        "d": torch.einsum("hd,htsd->hts", v, r_ij).expand(*q.shape[:-1], S),
    }
    return {name: (t * scale).masked_fill(~visible, 0.0) for name, t in terms.items()}


@torch.no_grad()
def segments(
    model: TransformerXL, ids: list[int] | np.ndarray, *, memory: bool = True, keep: int | None = None
) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Run ``ids`` segment by segment (L = the config's segment), carrying the memory (or clearing it before
    each segment): a list of (logits (1, T, V), the memory that segment read (N, 1, M, C))."""
    L = model.config.segment
    device = model.embed.weight.device
    mem = model.empty_memory()
    out = []
    for start in range(0, len(ids), L):
        x = torch.as_tensor(np.asarray(ids[start : start + L]), dtype=torch.long, device=device)[None]
        read = mem if memory else model.empty_memory()
        logits, mem = model(x, read, keep)
        out.append((logits, read))
    return out


@torch.no_grad()
def generate(model: TransformerXL, prompt: list[int], n: int, *, temperature: float = 0.0, seed: int = 0) -> list[int]:
    """``n`` new ids after ``prompt`` (temperature 0: greedy). The prompt runs in segments of L with the memory;
    each new id is then one more segment of length 1 that reads the last M states of every layer."""
    if not prompt:
        raise ValueError("generate needs a prompt of at least one id")
    rng = np.random.default_rng(seed)
    device = model.embed.weight.device
    mem, logits = model.empty_memory(), None
    L = model.config.segment
    for start in range(0, len(prompt), L):
        logits, mem = model(torch.tensor([prompt[start : start + L]], dtype=torch.long, device=device), mem)
    out: list[int] = []
    for _ in range(n):
        x = logits[0, -1].double().cpu().numpy()
        nxt = (
            sampling.greedy(x)
            if temperature <= 0
            else sampling.sample(sampling.filtered(x, temperature=temperature), rng)
        )
        out.append(nxt)
        logits, mem = model(torch.tensor([[nxt]], dtype=torch.long, device=device), mem)
    return out
