"""Checkpoint files: where they live, how they are written, and how a trained model is loaded for serving.

An architecture file (``models/<arch>.py``) holds the model only; how each checkpoint is trained and evaluated lives
in ``models/recipes/`` (``Recipe``, ``recipes()``), which this module never imports: a checkpoint says itself what
serving needs. A checkpoint lives in ``models/checkpoints/<name>/``:

    config.json        {"recipe": name, "arch": module, "outputs": [...], "step": class or null, "config": {...}}
                       arch: the module ``models.<arch>`` whose ``build(config)`` makes the model; outputs: the names
                       of the forward's outputs, in order; step: the class of that module that wraps the model into
                       its decoding step with the KV cache as tensors (``gpt.CachedStep``), or null
    model.safetensors  weights (safetensors only: nothing here loads a pickle)
    card.json          written by ``python -m models.train``: data, command, seed, settings, params, wall time,
                       hardware, stages, metrics, bars (+ the recipe's own fields)
    tokenizer.json     HF tokenizers file, where the model has one
    model.onnx         written by ``python -m models.export NAME`` (and decode.onnx where there is a step)

``TE_CHECKPOINTS`` (environment; a location, not a training setting) points the whole zoo at another folder, which
is how tests train into a temporary directory without touching the shipped checkpoints.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import safetensors.torch
import torch
from torch import nn

from models import pretrained

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


def checkpoints_root() -> Path:
    return Path(os.environ.get("TE_CHECKPOINTS", SHIPPED))


def checkpoint_dir(name: str) -> Path:
    """Where checkpoint ``name`` lives: ours under ``checkpoints_root()``; a real pretrained one (models/pretrained:
    ``smollm2-135m``, ``gpt2``, ...) in its converted folder, of the same layout."""
    return pretrained.folder(name) if pretrained.is_real(name) else checkpoints_root() / name


def available() -> list[str]:
    """Names of the checkpoints on disk."""
    root = checkpoints_root()
    return sorted(p.name for p in root.iterdir() if (p / "model.safetensors").exists()) if root.exists() else []


def config_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config) if dataclasses.is_dataclass(config) else dict(config)


def save(
    name: str,
    model: nn.Module,
    config: dict[str, Any],
    card: dict[str, Any],
    files: dict[str, str] | None = None,
    *,
    serving: dict[str, Any],
) -> Path:
    """Write a checkpoint. ``serving``: config.json's ``arch``, ``outputs`` and ``step`` (``Recipe.serving()``)."""
    missing = {"arch", "outputs", "step"} - set(serving)
    if missing:
        raise ValueError(f"config.json of {name} needs {sorted(missing)}")
    out = checkpoint_dir(name)
    out.mkdir(parents=True, exist_ok=True)
    safetensors.torch.save_model(model, str(out / "model.safetensors"))
    spec = {"recipe": name, **serving, "config": config}
    (out / "config.json").write_text(json.dumps(spec, indent=2) + "\n")
    write_card(name, card)
    for fname, text in (files or {}).items():
        (out / fname).write_text(text)
    return out


def write_card(name: str, card: dict[str, Any]) -> None:
    (checkpoint_dir(name) / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")


def read_card(name: str) -> dict[str, Any]:
    return json.loads((checkpoint_dir(name) / "card.json").read_text())


def read_spec(name: str) -> dict[str, Any]:
    """The whole config.json: recipe, arch, outputs, step and config."""
    return json.loads((checkpoint_dir(name) / "config.json").read_text())


def read_config(name: str) -> dict[str, Any]:
    return read_spec(name)["config"]


def arch_module(spec: dict[str, Any]) -> ModuleType:
    """The architecture module a checkpoint's config.json names (``models.<arch>``)."""
    arch = spec["arch"]
    if not arch.isidentifier():
        raise ValueError(f"config.json names no architecture module: {arch!r}")
    return importlib.import_module(f"models.{arch}")


def load(name: str) -> nn.Module:
    """The trained model, in eval mode, on the CPU: built by the architecture module its config.json names (no
    recipe is imported). A real pretrained one (100M parameters and more) is built on the meta device, which holds no
    numbers, and takes the file's tensors as they are (``assign=True``): the process never holds a random
    initialisation beside the weights (SmolLM2: peak RSS 1.25 GB -> ~0.75 GB)."""
    spec = read_spec(name)
    module = arch_module(spec)
    path = str(checkpoint_dir(name) / "model.safetensors")
    if pretrained.is_real(name):
        with torch.device("meta"):
            model = module.build(spec["config"])
        if next(model.buffers(), None) is None:  # a buffer would stay on the meta device: build it the plain way
            model.load_state_dict(safetensors.torch.load_file(path), strict=True, assign=True)
            return model.eval()
    model = module.build(spec["config"])
    safetensors.torch.load_model(model, path, strict=True)
    return model.eval()


def parameter_count(model: nn.Module) -> int:
    """Unique parameters (tied weights counted once)."""
    return sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())


def bars_missed(metrics: dict[str, Any], bars: dict[str, dict[str, float | str]]) -> list[str]:
    """Human-readable list of the bars a metrics dict misses (a missing metric misses its bar)."""
    missed = []
    for metric, bar in bars.items():
        value = metrics.get(metric)
        # A bound may name another metric of the same run: {"max": "baseline_val_bpc"}.
        bounds = {
            side: (metrics.get(b), f"{b} = {metrics.get(b)}") if isinstance(b, str) else (b, f"{b}")
            for side, b in bar.items()
        }
        if value is None or any(b is None for b, _ in bounds.values()):
            missed.append(f"{metric}: not measured")
        elif "min" in bounds and value < bounds["min"][0]:
            missed.append(f"{metric} = {value:.4g} < {bounds['min'][1]}")
        elif "max" in bounds and value > bounds["max"][0]:
            missed.append(f"{metric} = {value:.4g} > {bounds['max'][1]}")
    return missed
