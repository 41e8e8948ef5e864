"""How the ``demo`` checkpoint is trained and evaluated: the lag-copy task (``models.data.synthetic``), in seconds.

python -m models.train demo [--set steps=400 ...]
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import demo
from models import recipes as registry
from models.data.synthetic import lag_copy
from models.recipes.common import initial_model
from models.training import fit, schedule

SETTINGS = {"steps": 400, "batch": 64, "lr": 1e-2, "warmup": 20, "weight_decay": 0.01}


def loss(model: demo.DemoModel, tokens: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the token ``lag`` positions back, at every position that has one."""
    lag = model.config.lag
    logits = model(tokens)
    return F.cross_entropy(logits[:, lag:].flatten(0, 1), tokens[:, :-lag].flatten())


def train(run: registry.Run) -> registry.Trained:
    hp = run.settings
    torch.manual_seed(run.seed)
    model, config = initial_model(run, demo.build, asdict(demo.PRESETS["shipped"]))
    c = model.config
    rng = np.random.default_rng(run.seed)

    def batches():
        while True:
            yield torch.from_numpy(lag_copy(rng, hp["batch"], c.max_len, c.vocab, c.lag))

    trainer = fit(
        model,
        batches(),
        loss,
        **schedule(hp),
        desc="demo",
    )
    return registry.Trained(
        model,
        config,
        data=f"lag-{c.lag} copy of random tokens (vocab {c.vocab}, length {c.max_len})",
        card={"task": "predict the token lag positions back"},
        stages=[trainer.summary("copy")],
    )


def evaluate(model: demo.DemoModel, out: Path) -> dict:
    c = model.config
    tokens = torch.from_numpy(lag_copy(np.random.default_rng(12345), 256, c.max_len, c.vocab, c.lag))
    with torch.no_grad():
        pred = model(tokens)[:, c.lag :].argmax(-1)
    return {"accuracy": round((pred == tokens[:, : -c.lag]).float().mean().item(), 4)}


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": lag_copy(np.random.default_rng(7), 1, 12, 16, 2)}


RECIPES = [
    registry.Recipe(
        name="demo",
        arch="demo",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"accuracy": {"min": 0.95}},
        probes=("blocks.*.attn.pattern", "blocks.*.resid"),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
