"""BERT: a bidirectional Transformer encoder pre-trained by filling in masked tokens, on Shakespeare.

Paper: Devlin et al. 2018 (1810.04805), "BERT: Pre-training of Deep Bidirectional Transformers for Language
Understanding". A decoder must not see the token it predicts, so it only looks left. BERT looks both ways and
hides the token instead: 15% of the positions are chosen; of those 80% become ``[MASK]``, 10% a random token and
10% stay as they are, and the loss is the cross-entropy of the original token at the chosen positions only
(masked language model, MLM). A second loss, next-sentence prediction (NSP), reads the ``[CLS]`` position and says
whether segment B really followed segment A.

    x₀ = E[token] + S[segment] + P[position]                      (three embeddings, summed)
    x₀ = LN(x₀)                                                     (the embedding LayerNorm)
    xᵢ₊₁ = LN(xᵢ + Attn(xᵢ)) ;  xᵢ₊₁ = LN(xᵢ₊₁ + MLP(xᵢ₊₁))        (post-LN block, no causal mask: only padding)
    MLM logits = LN(GELU(W h)) · Eᵀ + b                            (decoder tied to the token embedding E)
    NSP logits = W_nsp · tanh(W_pool h[CLS])                        (IsNext, NotNext)
    loss = mean over chosen i of −log p_MLM(xᵢ | x̃) − log p_NSP(IsNext or NotNext)   (x̃: the corrupted input)

The masking recipe and the NSP pairs that train this model live in ``models/recipes/bert.py``.

The blocks are post-LN as in the paper (LayerNorm after each residual add, a LayerNorm on the summed embeddings and
none after the last block); ``norm="pre"`` builds the pre-LN variant (Xiong et al. 2020, 2002.04745: LayerNorm
before each sublayer plus a final one), which earlier checkpoints used. Departures from the paper, for a small
model (trained in minutes on one GPU, hours on one CPU core): learned positions start from the sinusoidal table
instead of noise; no dropout; sequences of 64 tokens, not 512; a character-and-piece WordPiece of 1,024 ids, not
30,000. Google's released weights (``bert-base-uncased``, converted by models/pretrained/bert.py) need two options
whose defaults are ours: ``norm_eps`` (every LayerNorm's ε: 1e-12 there, torch's 1e-5 here) and ``activation`` (the
blocks' and the MLM transform's; exact GELU in both). A checkpoint without the NSP head (``BertForMaskedLM``) gets
zeros there: its NSP logits are (0, 0), no opinion.

Glossary (shape letters): B batch, T positions, C model width, H heads, D head width (C / H), V vocabulary,
L layers, N chosen (masked) positions of a batch.

Probes: ``token_embedding``, ``segment_embedding`` (B, T, C), ``position_embedding`` (T, C), ``embedded``
(B, T, C) their sum; ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``; ``blocks.{i}.resid``; ``blocks.{i}.mlp.act``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import (
    LayerNorm,
    LearnedPositions,
    PostNormBlock,
    PreNormBlock,
    activation,
    gpt2_init,
    padding_mask,
    sinusoidal_table,
)
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 1024  # WordPiece ids: the five specials, then characters and pieces
    dim: int = 128
    n_heads: int = 4
    n_layers: int = 4
    max_len: int = 64  # positions: [CLS] A [SEP] B [SEP] fits in this many tokens
    mlp_ratio: int = 4
    n_segments: int = 2  # segment A (0) and segment B (1)
    pad_id: int = 0  # [PAD], the first special of the WordPiece vocabulary: keys with this id get no attention
    norm: str = "post"  # "post": LN(x + Sublayer(x)) as the paper; "pre": x + Sublayer(LN(x)) and a final LN
    norm_eps: float = 1e-5  # every LayerNorm's ε (Google's BERT: 1e-12)
    activation: str = "gelu"  # the MLP's and the MLM transform's (models/layers/ffn.py names)


PRESETS = {
    "tiny": Config(vocab=19, dim=32, n_heads=4, n_layers=2, max_len=16),
    "shipped": Config(),
}


class BERT(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)  # E: token embedding, also the MLM decoder
        self.segment = nn.Embedding(c.n_segments, c.dim)  # S
        self.pos = LearnedPositions(c.max_len, c.dim)  # P
        self.embed_ln = LayerNorm(c.dim, eps=c.norm_eps)
        self.token_embedding, self.segment_embedding, self.position_embedding = Probe(), Probe(), Probe()
        self.embedded = Probe()
        if c.norm not in ("post", "pre"):
            raise ValueError(f"norm must be 'post' or 'pre', not {c.norm!r}")
        block = PostNormBlock if c.norm == "post" else PreNormBlock
        self.blocks = nn.ModuleList(
            block(c.dim, c.n_heads, c.mlp_ratio * c.dim, activation=c.activation, eps=c.norm_eps)
            for _ in range(c.n_layers)
        )
        self.ln_f = LayerNorm(c.dim, eps=c.norm_eps) if c.norm == "pre" else nn.Identity()  # post-LN: normalised
        self.mlm_dense = nn.Linear(c.dim, c.dim)  # the MLM head's transform before the tied decoder
        self.mlm_ln = LayerNorm(c.dim, eps=c.norm_eps)
        self.mlm_bias = nn.Parameter(torch.zeros(c.vocab))
        self.pooler = nn.Linear(c.dim, c.dim)  # reads h[CLS] for NSP
        self.nsp = nn.Linear(c.dim, 2)  # 0 = IsNext, 1 = NotNext
        self.apply(gpt2_init)
        # Learned positions start from the sinusoidal table (scaled to the token embeddings' size) rather than noise:
        # nearby positions start out alike, so attending to one's neighbours is learnt sooner (shorter plateau).
        with torch.no_grad():
            self.pos.weight.copy_(sinusoidal_table(c.max_len, c.dim) * 0.03)
        name_probes(self)

    def encode(self, tokens: torch.Tensor, segments: torch.Tensor) -> torch.Tensor:
        """tokens, segments (B, T) -> final hidden states h (B, T, C). Every position sees every non-[PAD] one."""
        T = tokens.shape[1]
        if T > self.config.max_len:
            raise ValueError(f"{T} positions exceed the {self.config.max_len} this model has")
        mask = padding_mask(tokens, self.config.pad_id)  # (B, 1, 1, T)
        e = self.token_embedding(self.embed(tokens))  # (B, T, C)
        s = self.segment_embedding(self.segment(segments))  # (B, T, C)
        p = self.position_embedding(self.pos.weight[:T])  # (T, C)
        x = self.embedded(self.embed_ln(e + s + p))  # (B, T, C)
        for block in self.blocks:
            x = block(x, mask)
        return self.ln_f(x)

    def mlm_logits(self, h: torch.Tensor) -> torch.Tensor:
        """(..., C) -> (..., V): the masked-token prediction at these hidden states."""
        return self.mlm_ln(activation(self.config.activation)(self.mlm_dense(h))) @ self.embed.weight.T + self.mlm_bias

    def nsp_logits(self, h: torch.Tensor) -> torch.Tensor:
        """(B, T, C) -> (B, 2): IsNext / NotNext from the [CLS] position."""
        return self.nsp(torch.tanh(self.pooler(h[:, 0])))

    def forward(self, tokens: torch.Tensor, segments: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """tokens, segments (B, T) -> MLM logits (B, T, V) and NSP logits (B, 2)."""
        h = self.encode(tokens, segments)
        return self.mlm_logits(h), self.nsp_logits(h)


def build(config: dict) -> BERT:
    return BERT(Config(**config))
