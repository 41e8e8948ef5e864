"""What the conversions share: reading a checkpoint's tensors by Hugging Face name, and HF's activation names."""

from __future__ import annotations

import re
from collections.abc import Mapping

import torch

# Hugging Face's activation names (``hidden_act``, ``activation_function``) -> models.layers.ffn's.
ACTIVATIONS = {
    "gelu": "gelu",
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "relu": "relu",
    "silu": "silu",
    "swish": "silu",
}


def activation(name: str, where: str) -> str:
    """Our name for HF's activation ``name``; ValueError for one the zoo does not have."""
    if name not in ACTIVATIONS:
        raise ValueError(f"{where}: activation {name!r} is not supported (known: {sorted(ACTIVATIONS)})")
    return ACTIVATIONS[name]


def fresh(t: torch.Tensor) -> torch.Tensor:
    """A contiguous copy with storage of its own (a slice of a fused matrix would share the whole one's, which
    safetensors refuses to save)."""
    return t.clone(memory_format=torch.contiguous_format)


class Tensors:
    """A checkpoint's tensors by HF name, the base model's ``prefix`` (``"transformer."``, ``"bert."``, ...) optional:
    ``t("h.0.ln_1.weight")`` finds ``h.0.ln_1.weight`` or ``transformer.h.0.ln_1.weight``. Remembers what was read,
    so that ``check_all_read`` can refuse a checkpoint holding weights the conversion would silently drop."""

    def __init__(self, tensors: Mapping[str, torch.Tensor], prefix: str, arch: str):
        self.arch = arch
        self.tensors = {name.removeprefix(prefix): t for name, t in tensors.items()}
        self.read: set[str] = set()

    def __contains__(self, name: str) -> bool:
        return name in self.tensors

    def __call__(self, name: str) -> torch.Tensor:
        if name not in self.tensors:
            raise ValueError(f"{self.arch}: the checkpoint has no tensor {name!r}")
        self.read.add(name)
        return self.tensors[name]

    def get(self, name: str) -> torch.Tensor | None:
        return self(name) if name in self.tensors else None

    def check_all_read(self, ignored: str = r"$^") -> None:
        """ValueError if a tensor was neither read nor matches the regular expression ``ignored`` (buffers such as
        GPT-2's causal mask, copies of a tied matrix)."""
        left = sorted(n for n in self.tensors if n not in self.read and not re.fullmatch(ignored, n))
        if left:
            shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
            raise ValueError(f"{self.arch}: the checkpoint holds weights this model has no place for: {shown}")

    def check_tied(self, name: str, to: torch.Tensor) -> None:
        """A tied copy (an output matrix saved beside the embedding it equals): read it if present; ValueError if it
        differs, since the model ties the two."""
        t = self.get(name)
        if t is not None and not (t.shape == to.shape and torch.equal(t, to)):
            raise ValueError(
                f"{self.arch}: {name!r} differs from the matrix it is tied to here (untied: not supported)"
            )
