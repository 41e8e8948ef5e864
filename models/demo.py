"""A two-layer causal Transformer that learns to copy the token ``lag`` positions back.

Not a milestone model: the foundation's demo, small enough to train in seconds inside the tests, and used to show
that train → evaluate → export → run on both backends works end to end. The task has a known answer, so the
attention pattern that solves it is known too: each query looks ``lag`` positions back.

Shape letters: B batch, T positions, C width, V vocabulary.
Probes: ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``, ``blocks.{i}.mlp.act``, ``blocks.{i}.resid``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.data.synthetic import lag_copy
from models.layers import LayerNorm, LearnedPositions, PreNormBlock, causal_mask
from models.probe import name_probes
from models.training import fit
from models.zoo import Recipe, Trained


@dataclass
class Config:
    vocab: int = 16
    dim: int = 32
    n_heads: int = 2
    n_layers: int = 2
    max_len: int = 24
    lag: int = 2  # the task: predict the token this many positions back


PRESETS = {"tiny": Config(dim=16, n_layers=1), "shipped": Config()}


class DemoModel(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.blocks = nn.ModuleList(PreNormBlock(c.dim, c.n_heads, 4 * c.dim) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.head = nn.Linear(c.dim, c.vocab)
        name_probes(self)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V)."""
        T = tokens.shape[1]
        mask = causal_mask(T, device=tokens.device)
        x = self.pos(self.embed(tokens))
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))


def build(config: dict) -> DemoModel:
    return DemoModel(Config(**config))


def _loss(model: DemoModel, tokens: torch.Tensor) -> torch.Tensor:
    lag = model.config.lag
    logits = model(tokens)
    return F.cross_entropy(logits[:, lag:].flatten(0, 1), tokens[:, :-lag].flatten())


def train(seed: int, out: Path) -> Trained:
    c = PRESETS["shipped"]
    torch.manual_seed(seed)
    model = build(asdict(c))
    rng = np.random.default_rng(seed)

    def batches():
        while True:
            yield torch.from_numpy(lag_copy(rng, 64, c.max_len, c.vocab, c.lag))

    fit(model, batches(), _loss, steps=400, lr=1e-2, warmup=20, desc="demo")
    return Trained(model, asdict(c), data=f"lag-{c.lag} copy of random tokens (vocab {c.vocab}, length {c.max_len})",
                   card={"task": "predict the token lag positions back"})


def evaluate(model: DemoModel, out: Path) -> dict:
    c = model.config
    tokens = torch.from_numpy(lag_copy(np.random.default_rng(12345), 256, c.max_len, c.vocab, c.lag))
    with torch.no_grad():
        pred = model(tokens)[:, c.lag:].argmax(-1)
    return {"accuracy": round((pred == tokens[:, : -c.lag]).float().mean().item(), 4)}


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": lag_copy(np.random.default_rng(7), 1, 12, 16, 2)}


RECIPES = [
    Recipe(name="demo", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"accuracy": {"min": 0.95}}, probes=("blocks.*.attn.pattern", "blocks.*.resid"),
           dynamic_axes={"tokens": {0: "B", 1: "T"}}),
]
