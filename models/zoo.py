"""The registry of trained models, and checkpoint files.

An architecture file (``models/<arch>.py``) holds the model only. How each checkpoint is trained and evaluated lives
in ``models/recipes/<arch>.py``, whose ``RECIPES`` list the checkpoints it makes; a ``Recipe`` names the
architecture module that builds the model and says how to train, evaluate and export one. A checkpoint lives in
``models/checkpoints/<name>/``:

    config.json        {"recipe": name, "config": {...Config fields...}}
    model.safetensors  weights (safetensors only: nothing here loads a pickle)
    card.json          written by ``python -m models.train``: data, command, seed, settings, params, wall time,
                       hardware, stages, metrics, bars (+ the recipe's own fields)
    tokenizer.json     HF tokenizers file, where the model has one
    model.onnx         written by ``python -m models.export NAME``

``TE_CHECKPOINTS`` (environment; a location, not a training setting) points the whole zoo at another folder, which
is how tests train into a temporary directory without touching the shipped checkpoints.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import safetensors.torch
from torch import nn

import models.recipes

SHIPPED = Path(__file__).resolve().parent / "checkpoints"


@dataclass(frozen=True)
class Run:
    """One training run, as ``python -m models.train`` starts it."""

    seed: int
    out: Path  # the checkpoint folder being written (a tokenizer may be saved there early)
    settings: dict[str, Any]  # the recipe's ``defaults``, updated by ``--set key=value``
    init_from: Path | None = None  # ``--init-from``: a checkpoint folder whose weights (and tokenizer) to start from


@dataclass(frozen=True)
class Trained:
    """What a recipe's ``train`` hands back to ``models.train``."""

    model: nn.Module
    config: dict[str, Any]
    data: str  # what it was trained on, in words
    card: dict[str, Any] = field(default_factory=dict)  # the recipe's own card fields (task, tokenizer, ...)
    files: dict[str, str] = field(default_factory=dict)  # extra files to write: name -> text (tokenizer.json)
    stages: list[dict[str, Any]] = field(default_factory=list)  # per stage: name, steps, wall_time_s, final loss


@dataclass(frozen=True)
class Recipe:
    name: str
    arch: str  # the architecture module under models/ whose ``build(config)`` makes the model
    train: Callable[[Run], Trained]
    evaluate: Callable[[nn.Module, Path], dict[str, Any]]  # (model, checkpoint dir) -> metrics
    example_inputs: Callable[[Path], dict[str, np.ndarray]]  # inputs for export and parity checks
    bars: dict[str, dict[str, float | str]]  # metric -> {"min": x} or {"max": x}; x may name another metric
    output_names: tuple[str, ...] = ("logits",)
    probes: tuple[str, ...] = ()  # probe patterns exported as extra ONNX outputs
    dynamic_axes: dict[str, dict[int, str]] = field(default_factory=dict)  # input -> {axis: name}
    defaults: dict[str, Any] = field(default_factory=dict)  # training settings; each one a ``--set`` flag
    # metrics that are wall-clock timings: recomputed and held to their bars, but never equal to the card's numbers
    timed: tuple[str, ...] = ()
    # the model's decoding step with the KV cache as tensors (gpt.CachedStep): traced by the engine, and exported by
    # models.export as decode.onnx beside model.onnx
    step: Callable[[nn.Module], nn.Module] | None = None

    def build(self, config: dict[str, Any]) -> nn.Module:
        """The untrained model for a config dict."""
        return importlib.import_module(f"models.{self.arch}").build(config)


@dataclass(frozen=True)
class Sweep:
    """Many small training runs whose product is a table, not one model (the scaling sweep): ``python -m models.train
    NAME`` runs it into ``checkpoints/<folder>/`` (runs.json, card.json; no weights), ``python -m models.evaluate NAME``
    recomputes its metrics from that table."""

    name: str
    folder: str
    run: Callable[[dict[str, Any], int, Path], dict[str, Any]]  # (settings, seed, folder) -> the card's own fields
    evaluate: Callable[[Path], dict[str, Any]]  # folder -> metrics
    extra: Callable[[Path], dict[str, Any]]  # folder -> the card's ``fits`` (what the page draws)
    data: Callable[[], str]
    bars: dict[str, dict[str, float | str]]
    defaults: dict[str, Any] = field(default_factory=dict)


def sweeps() -> dict[str, Sweep]:
    """Every sweep of ``models/recipes/``, by name."""
    found: dict[str, Sweep] = {}
    for info in pkgutil.iter_modules(models.recipes.__path__):
        module = importlib.import_module(f"models.recipes.{info.name}")
        found |= {s.name: s for s in getattr(module, "SWEEPS", ())}
    return found


def sweep_for_folder(folder: str) -> Sweep | None:
    return next((s for s in sweeps().values() if s.folder == folder), None)


def checkpoints_root() -> Path:
    return Path(os.environ.get("TE_CHECKPOINTS", SHIPPED))


def checkpoint_dir(name: str) -> Path:
    return checkpoints_root() / name


def recipes() -> dict[str, Recipe]:
    """Every recipe of every module of ``models/recipes/``, by checkpoint name."""
    found: dict[str, Recipe] = {}
    for info in pkgutil.iter_modules(models.recipes.__path__):
        module = importlib.import_module(f"models.recipes.{info.name}")
        for recipe in getattr(module, "RECIPES", ()):
            if recipe.name in found:
                raise KeyError(f"two recipes are named {recipe.name!r}")
            found[recipe.name] = recipe
    return found


def recipe(name: str) -> Recipe:
    found = recipes()
    if name not in found:
        raise KeyError(f"unknown model {name!r}; known: {', '.join(sorted(found))}")
    return found[name]


def available() -> list[str]:
    """Names of the checkpoints on disk."""
    root = checkpoints_root()
    return sorted(p.name for p in root.iterdir() if (p / "model.safetensors").exists()) if root.exists() else []


def config_dict(config: Any) -> dict[str, Any]:
    return dataclasses.asdict(config) if dataclasses.is_dataclass(config) else dict(config)


def save(
    name: str, model: nn.Module, config: dict[str, Any], card: dict[str, Any], files: dict[str, str] | None = None
) -> Path:
    out = checkpoint_dir(name)
    out.mkdir(parents=True, exist_ok=True)
    safetensors.torch.save_model(model, str(out / "model.safetensors"))
    (out / "config.json").write_text(json.dumps({"recipe": name, "config": config}, indent=2) + "\n")
    write_card(name, card)
    for fname, text in (files or {}).items():
        (out / fname).write_text(text)
    return out


def write_card(name: str, card: dict[str, Any]) -> None:
    (checkpoint_dir(name) / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")


def read_card(name: str) -> dict[str, Any]:
    return json.loads((checkpoint_dir(name) / "card.json").read_text())


def read_config(name: str) -> dict[str, Any]:
    return json.loads((checkpoint_dir(name) / "config.json").read_text())["config"]


def load(name: str) -> nn.Module:
    """The trained model, in eval mode, on the CPU."""
    model = recipe(name).build(read_config(name))
    safetensors.torch.load_model(model, str(checkpoint_dir(name) / "model.safetensors"), strict=True)
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
