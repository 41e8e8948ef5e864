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
    snapshots/         where the recipe records its training (``models.training.Recorder``): step-NNNNNN.safetensors,
                       the weights at that step in float16, each listed in the card's ``snapshots`` (step, sha256,
                       bytes, metrics); ``NAME@STEP`` names one of them wherever a checkpoint name goes

``TE_CHECKPOINTS`` (environment; a location, not a training setting) points the whole zoo at another folder, which
is how tests train into a temporary directory without touching the shipped checkpoints.
"""

from __future__ import annotations

import dataclasses
import hashlib
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


SNAPSHOT = "@"  # "gpt-induction@400": the snapshot of checkpoint gpt-induction at optimiser step 400


def split_name(name: str) -> tuple[str, int | None]:
    """``"NAME@STEP"`` -> (NAME, STEP); a plain name -> (name, None)."""
    base, sep, step = name.partition(SNAPSHOT)
    if not sep:
        return name, None
    if not step.isdigit():
        raise ValueError(f"{name!r}: a snapshot is NAME@STEP with STEP a whole number")
    return base, int(step)


def snapshot_name(name: str, step: int | None) -> str:
    """The name of checkpoint ``name`` at training step ``step`` (None: the final weights, ``name`` itself)."""
    base, _ = split_name(name)
    return base if step is None else f"{base}{SNAPSHOT}{int(step)}"


def snapshot_file(step: int) -> str:
    return f"snapshots/step-{int(step):06d}.safetensors"


def checkpoints_root() -> Path:
    return Path(os.environ.get("TE_CHECKPOINTS", SHIPPED))


def checkpoint_dir(name: str) -> Path:
    """Where checkpoint ``name`` lives: ours under ``checkpoints_root()``; a real pretrained one (models/pretrained:
    ``smollm2-135m``, ``gpt2``, ...) in its converted folder, of the same layout. A snapshot (``NAME@STEP``) lives in
    its checkpoint's folder."""
    name, _ = split_name(name)
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


def _flat(value: Any) -> bool:
    """A list of numbers (or of such lists): written on one line."""
    return isinstance(value, list) and all(isinstance(v, int | float) or v is None or _flat(v) for v in value)


def card_text(card: dict[str, Any], indent: int = 0) -> str:
    """``card`` as indented JSON, every list of numbers on one line (a recorded run's history holds thousands: one per
    line made its card 0.9 MB)."""
    if _flat(card):
        return json.dumps(card, separators=(", ", ": "))
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(card, dict) and card:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {card_text(v, indent + 2)}" for k, v in card.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(card, list) and card:
        return "[\n" + ",\n".join(f"{inner}{card_text(v, indent + 2)}" for v in card) + f"\n{pad}]"
    return json.dumps(card, ensure_ascii=False)


def write_card(name: str, card: dict[str, Any]) -> None:
    (checkpoint_dir(name) / "card.json").write_text(card_text(card) + "\n")


def snapshots(name: str) -> list[dict[str, Any]]:
    """The card's record of the training snapshots of ``name`` (step, file, sha256, bytes, metrics), by step; [] when
    its recipe recorded none."""
    path = checkpoint_dir(name) / "card.json"
    card = json.loads(path.read_text()) if path.exists() else {}
    return sorted(card.get("snapshots", []), key=lambda r: r["step"])


def load_snapshot(name: str, step: int) -> nn.Module:
    """The model at training step ``step``: built as ``load`` builds it, with the snapshot's float16 tensors cast back
    to the model's dtypes. The file must be one the card lists, with the sha256 it lists (else ValueError)."""
    spec = read_spec(name)
    record = next((r for r in snapshots(name) if r["step"] == step), None)
    if record is None:
        steps = [r["step"] for r in snapshots(name)]
        raise ValueError(f"{name} has no snapshot at step {step}; it has {steps or 'none'}")
    path = checkpoint_dir(name) / record["file"]
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise ValueError(f"{path}: its sha256 is not the one its card lists")
    model = arch_module(spec).build(spec["config"])
    safetensors.torch.load_model(model, str(path), strict=True)  # copies each float16 tensor into its float32 place
    return model.eval()


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
    recipe is imported); ``NAME@STEP`` is its snapshot at that training step (``load_snapshot``). A real pretrained
    one (100M parameters and more) is built on the meta device, which holds no numbers, and takes the file's tensors
    as they are (``assign=True``): the process never holds a random initialisation beside the weights (SmolLM2: peak
    RSS 1.25 GB -> ~0.75 GB)."""
    base, step = split_name(name)
    if step is not None:
        return load_snapshot(base, step)
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
