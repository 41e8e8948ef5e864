"""How each checkpoint is trained and evaluated: one module per architecture family, each with a ``RECIPES`` list.

A recipe module holds what the architecture file must not: data pipelines, curricula, losses, training stages,
evaluation and the quality bars of the model's issue. ``recipes()`` finds them all by importing every module here,
so only the commands that train, evaluate or export a checkpoint (``models.train``, ``models.evaluate``,
``models.export``), the benchmarks and the tests call it. Serving never does: ``models.zoo.load`` builds a
checkpoint from what its ``config.json`` names (the architecture module, the output names, the decoding step).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn


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
    # what a models.training.Recorder kept: its records (the card's ``snapshots``) and per-step history
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    history: dict[str, list] = field(default_factory=dict)


@dataclass(frozen=True)
class Recipe:
    name: str
    arch: str  # the architecture module under models/ whose ``build(config)`` makes the model
    train: Callable[[Run], Trained]
    evaluate: Callable[[nn.Module, Path], dict[str, Any]]  # (model, checkpoint dir) -> metrics
    example_inputs: Callable[[Path], dict[str, np.ndarray]]  # inputs for export and parity checks
    bars: dict[str, dict[str, float | str]]  # metric -> {"min": x} or {"max": x}; x may name another metric
    output_names: tuple[str, ...] = ("logits",)  # written to config.json ("outputs"), where the engine reads them
    probes: tuple[str, ...] = ()  # probe patterns exported as extra ONNX outputs
    dynamic_axes: dict[str, dict[int, str]] = field(default_factory=dict)  # input -> {axis: name}
    defaults: dict[str, Any] = field(default_factory=dict)  # training settings; each one a ``--set`` flag
    # metrics that are wall-clock timings: recomputed and held to their bars, but never equal to the card's numbers
    timed: tuple[str, ...] = ()
    # the model's decoding step with the KV cache as tensors (gpt.CachedStep), a class of the architecture module:
    # its name goes to config.json ("step"), where the engine finds it to trace it, and models.export writes it as
    # decode.onnx beside model.onnx
    step: Callable[[nn.Module], nn.Module] | None = None

    def build(self, config: dict[str, Any]) -> nn.Module:
        """The untrained model for a config dict."""
        return importlib.import_module(f"models.{self.arch}").build(config)

    def serving(self) -> dict[str, Any]:
        """What ``models.zoo.save`` writes into config.json beside the config: all that serving needs of the recipe."""
        if self.step is not None:
            module = importlib.import_module(f"models.{self.arch}")
            if getattr(module, self.step.__name__, None) is not self.step:
                raise ValueError(f"{self.name}: the decoding step must be a class of models.{self.arch}")
        return {
            "arch": self.arch,
            "outputs": list(self.output_names),
            "step": self.step.__name__ if self.step is not None else None,
        }


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


def _modules():
    for info in pkgutil.iter_modules(__path__):
        yield importlib.import_module(f"{__name__}.{info.name}")


def sweeps() -> dict[str, Sweep]:
    """Every sweep of ``models/recipes/``, by name."""
    found: dict[str, Sweep] = {}
    for module in _modules():
        found |= {s.name: s for s in getattr(module, "SWEEPS", ())}
    return found


def sweep_for_folder(folder: str) -> Sweep | None:
    return next((s for s in sweeps().values() if s.folder == folder), None)


def recipes() -> dict[str, Recipe]:
    """Every recipe of every module of ``models/recipes/``, by checkpoint name."""
    found: dict[str, Recipe] = {}
    for module in _modules():
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
