"""What several recipes share: the model (and tokenizer) a run starts from, and random windows of token streams.
(No ``RECIPES`` here: this module trains no checkpoint of its own.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import safetensors.torch
from tokenizers import Tokenizer
from torch import nn

from models import recipes as registry
from models.data import windows  # noqa: F401  (the recipes take it from here)
from models.recipes import Recipe


def initial_model(
    run: registry.Run, build: Callable[[dict[str, Any]], nn.Module], config: dict[str, Any]
) -> tuple[nn.Module, dict[str, Any]]:
    """The model a run starts from and its config: ``build(config)`` fresh, or, with ``--init-from``, the source
    checkpoint's config and weights."""
    if run.init_from is None:
        return build(config), config
    config = json.loads((run.init_from / "config.json").read_text())["config"]
    model = build(config)
    safetensors.torch.load_model(model, str(run.init_from / "model.safetensors"), strict=True)
    return model, config


def source_tokenizer(run: registry.Run) -> Tokenizer | None:
    """With ``--init-from``, the source checkpoint's tokenizer: its weights are tied to those ids."""
    if run.init_from is None:
        return None
    if not (run.init_from / "tokenizer.json").exists():
        raise ValueError(f"--init-from {run.init_from}: no tokenizer.json beside the weights")
    return Tokenizer.from_str((run.init_from / "tokenizer.json").read_text())


def decoder_recipe(
    name: str,
    arch: str,
    train: Callable,
    evaluate: Callable,
    example_inputs: Callable,
    bars: dict,
    defaults: dict[str, Any],
) -> Recipe:
    """A decoder's checkpoint whose ONNX export takes token ids of any batch and length and adds every layer's
    attention pattern as probes (the reasoning and alignment policies)."""
    return Recipe(
        name=name,
        arch=arch,
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars=bars,
        probes=("blocks.*.attn.pattern",),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=defaults,
    )
