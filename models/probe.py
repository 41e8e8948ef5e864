"""Probe points: identity modules that record a tensor only when a caller asks.

    with trace("blocks.*.attn.pattern", "ssm.delta") as t:
        logits = model(tokens)
    t["blocks.0.attn.pattern"]  # detached tensor

A probe's name is its module path in the model (``blocks.0.attn.pattern``). A pattern selects a probe when
it matches the whole name (``fnmatch`` syntax, ``*`` also crosses dots) or the name's tail after a dot
(``"ssm.delta"`` selects ``layers.1.ssm.delta``).

Recording state lives in a ``ContextVar``: every thread (one Streamlit session) and every asyncio task sees
only its own recorder, so concurrent sessions can trace one shared model object. Nothing on the model is
mutated at request time and no hooks are registered.

Interventions use the same points: inside ``intervene({pattern: fn})`` a probe that a pattern selects passes
``fn(x)`` on instead of ``x`` (and a trace records what it passed on). ``fn`` gets the tensor and the probe's name
and returns a tensor of the same shape; the override is held in a ``ContextVar`` too, so one session's knock-out
never reaches another's run of the shared model, and the identity override gives exactly the plain forward:

    with intervene({"blocks.3.attn.context": zero_head(2)}):
        logits = model(tokens)          # head 2 of block 3 knocked out
"""

from __future__ import annotations

import contextvars
import fnmatch
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import torch
from torch import nn

__all__ = ["Probe", "Trace", "trace", "intervene", "Override", "name_probes", "matches"]

Override = Callable[[torch.Tensor, str], torch.Tensor]  # (the probe's tensor, its name) -> what flows on


def matches(name: str, pattern: str) -> bool:
    """True when ``pattern`` selects the probe called ``name``."""
    return fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(name, "*." + pattern)


class Trace:
    """What one ``trace()`` recorded, by probe name, in the order the probes ran."""

    def __init__(self, patterns: tuple[str, ...]):
        self.patterns = patterns
        self.tensors: dict[str, torch.Tensor] = {}
        self._decided: dict[str, bool] = {}

    def wants(self, name: str) -> bool:
        hit = self._decided.get(name)
        if hit is None:
            hit = self._decided[name] = any(matches(name, p) for p in self.patterns)
        return hit

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.tensors[name]

    def __contains__(self, name: str) -> bool:
        return name in self.tensors

    def __iter__(self) -> Iterator[str]:
        return iter(self.tensors)

    def __len__(self) -> int:
        return len(self.tensors)

    def keys(self):
        return self.tensors.keys()

    def items(self):
        return self.tensors.items()


_ACTIVE: contextvars.ContextVar[Trace | None] = contextvars.ContextVar("probe_trace", default=None)


@contextmanager
def trace(*patterns: str) -> Iterator[Trace]:
    """Record the probes that ``patterns`` select while the block runs (nested traces: the inner one wins)."""
    t = Trace(tuple(patterns))
    token = _ACTIVE.set(t)
    try:
        yield t
    finally:
        _ACTIVE.reset(token)


class Overrides:
    """The overrides of one ``intervene()``: pattern -> function, and which probe names each pattern selects."""

    def __init__(self, overrides: dict[str, Override]):
        self.overrides = dict(overrides)
        self._decided: dict[str, list[Override]] = {}

    def of(self, name: str) -> list[Override]:
        found = self._decided.get(name)
        if found is None:
            found = self._decided[name] = [fn for p, fn in self.overrides.items() if matches(name, p)]
        return found


_OVERRIDES: contextvars.ContextVar[Overrides | None] = contextvars.ContextVar("probe_overrides", default=None)


@contextmanager
def intervene(overrides: dict[str, Override]) -> Iterator[Overrides]:
    """Inside the block, every probe that a pattern of ``overrides`` selects passes on ``fn(x, name)`` instead of
    ``x`` (several matching patterns apply in their order; nested ``intervene``: the inner one wins)."""
    o = Overrides(overrides)
    token = _OVERRIDES.set(o)
    try:
        yield o
    finally:
        _OVERRIDES.reset(token)


class Probe(nn.Module):
    """Identity at a point worth seeing. Records ``x.detach()`` under its name inside ``trace()``; inside
    ``intervene()`` passes on what an override makes of ``x``."""

    def __init__(self) -> None:
        super().__init__()
        self.probe_name = ""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        o = _OVERRIDES.get()
        if o is not None:
            for fn in o.of(self.probe_name):
                out = fn(x, self.probe_name)
                if out.shape != x.shape:
                    raise ValueError(f"an override of {self.probe_name} changed its shape {tuple(x.shape)}")
                x = out
        t = _ACTIVE.get()
        if t is not None and t.wants(self.probe_name):
            t.tensors[self.probe_name] = x.detach()
        return x


def name_probes(model: nn.Module) -> nn.Module:
    """Give every probe its module path as name. Call once at the end of a top model's ``__init__``."""
    for name, module in model.named_modules():
        if isinstance(module, Probe):
            module.probe_name = name
    return model
