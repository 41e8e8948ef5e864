"""Export a checkpoint to ONNX, with its probe tensors as extra named outputs.

    python -m models.export NAME

Writes ``model.onnx`` beside the weights. Outputs: the recipe's ``output_names`` (``logits``, ...), then one output
per probe that the recipe's patterns select, named by the probe (``blocks.0.attn.pattern``). Every axis of every
output is dynamic. Where the checkpoint's config.json names a decoding step with the KV cache as inputs and outputs
(``step``: GPT's ``CachedStep``), it also writes ``decode.onnx``.

We use PyTorch's TorchScript-based exporter (``dynamo=False``): it traces one forward pass, so the probes —
ordinary Python side effects inside ``trace()`` — become graph outputs without special support, and it takes
a fraction of a second for models of this size.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models import recipes as registry
from models import zoo
from models.probe import trace


class _WithProbes(nn.Module):
    """Wraps a model so that its forward returns (outputs..., probe tensors...) in a fixed order."""

    def __init__(self, model: nn.Module, input_names: list[str], patterns: tuple[str, ...]):
        super().__init__()
        self.model, self.input_names, self.patterns = model, input_names, patterns
        self.probe_names: list[str] = []

    def forward(self, *args: torch.Tensor) -> tuple[torch.Tensor, ...]:
        with trace(*self.patterns) as t:
            out = self.model(**dict(zip(self.input_names, args)))
        outs = out if isinstance(out, tuple) else (out,)
        if not self.probe_names:
            self.probe_names = list(t.keys())
        return (*outs, *(t[n] for n in self.probe_names))


def to_tensor(a: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(a))


def export(name: str) -> Path:
    recipe = registry.recipe(name)
    ckpt = zoo.checkpoint_dir(name)
    model = zoo.load(name)
    inputs = recipe.example_inputs(ckpt)
    wrapper = _WithProbes(model, list(inputs), recipe.probes)
    args = tuple(to_tensor(a) for a in inputs.values())
    with torch.no_grad():
        sample = wrapper(*args)
    output_names = [*recipe.output_names, *wrapper.probe_names]
    dynamic = dict(recipe.dynamic_axes)
    for out_name, tensor in zip(output_names, sample):
        dynamic[out_name] = {i: f"{out_name}.{i}" for i in range(tensor.dim())}
    path = _write(wrapper, args, ckpt / "model.onnx", list(inputs), output_names, dynamic)
    spec = zoo.read_spec(name)
    if spec["step"] is not None:
        export_step(getattr(zoo.arch_module(spec), spec["step"])(model), ckpt / "decode.onnx")
    return path


def export_step(step: nn.Module, path: Path) -> Path:
    """The decoding step with the KV cache as inputs and outputs (gpt.CachedStep) as its own graph: one ONNX Runtime
    call per generated token, every length axis dynamic (the step class names its inputs, outputs and axes)."""
    return _write(step, step.example(), path, list(step.INPUTS), list(step.OUTPUTS), step.AXES)


def _write(module: nn.Module, args: tuple, path: Path, input_names: list, output_names: list, axes: dict) -> Path:
    """One TorchScript-based export (opset 17), the tracer's notes silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module,
            args,
            str(path),
            input_names=input_names,
            output_names=output_names,
            dynamic_axes=axes,
            dynamo=False,
            opset_version=17,
        )
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m models.export", description=__doc__.splitlines()[0])
    ap.add_argument("name")
    args = ap.parse_args(argv)
    path = export(args.name)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
