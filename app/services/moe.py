"""The MoE page's bridge to ``models.switch``: one routed forward pass per (text, k, capacity factor), the
specialisation table on fixed held-out samples, and parameter counts (ours and the papers')."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import streamlit as st

from app.i18n import InputError
from app.services import run
from models import switch, zoo
from models.data import bpe, domains

NAME = "switch"
DENSE = "switch-dense"
PROBES = ("blocks.*.moe.router_probs", "blocks.*.moe.expert_index", "blocks.*.moe.combine", "blocks.*.moe.dropped",
          "blocks.*.moe.capacity")
SAMPLES = dict(domains.SAMPLES)  # shakespeare, python, arithmetic, mixed
DOMAINS = domains.DOMAINS
MAX_CHARS = 400
EOT_LABEL = "<eot>"

# Published sizes: total parameters and parameters active per token (None where the paper gives no such count),
# and the routing as (routed experts, k, shared experts).
PUBLISHED = (
    ("Switch-C", "2101.03961", 1.571e12, None, (2048, 1, 0)),
    ("Mixtral 8x7B", "2401.04088", 46.7e9, 12.9e9, (8, 2, 0)),
    ("DeepSeek-V3", "2412.19437", 671e9, 37e9, (256, 8, 1)),
)


@dataclass(frozen=True)
class Routing:
    """One forward pass. L MoE layers, T tokens, E experts, K = 2 ranks (only the first k are used)."""

    tokens: tuple[str, ...]
    probs: np.ndarray  # (L, T, E) router probabilities
    index: np.ndarray  # (L, T, K) chosen experts, best first
    combine: np.ndarray  # (L, T, K) combine weights (0 for unused or dropped ranks)
    dropped: np.ndarray  # (L, T, K) bool
    capacity: int  # slots per expert in this batch
    top_k: int
    capacity_factor: float
    backend: str
    device: str
    ms: float

    @property
    def n_experts(self) -> int:
        return self.probs.shape[-1]

    @property
    def routed(self) -> np.ndarray:
        """(L, E) slots sent to each expert (first k ranks), before the capacity cut."""
        k = self.top_k
        return np.stack([np.bincount(ix[:, :k].ravel(), minlength=self.n_experts) for ix in self.index])

    @property
    def kept(self) -> np.ndarray:
        """(L, E) slots each expert processed."""
        k = self.top_k
        return np.stack([np.bincount(ix[:, :k][~dr[:, :k]].ravel(), minlength=self.n_experts)
                         for ix, dr in zip(self.index, self.dropped)])

    @property
    def dropped_count(self) -> int:
        """Dropped token slots, all layers together."""
        return int(self.dropped[..., : self.top_k].sum())

    def fraction_routed(self) -> np.ndarray:
        """(L, E) fᵢ: the share of routed slots whose choice is expert i."""
        r = self.routed
        return r / r.sum(-1, keepdims=True)

    def mean_probability(self) -> np.ndarray:
        """(L, E) Pᵢ: the router probability of expert i averaged over the tokens."""
        return self.probs.mean(1)

    def aux_loss(self) -> np.ndarray:
        """(L,) the Switch load-balancing loss E · Σᵢ fᵢ · Pᵢ of each layer."""
        return self.n_experts * (self.fraction_routed() * self.mean_probability()).sum(-1)


@cache
def _tokenizer():
    return switch.tokenizer(zoo.checkpoint_dir(NAME))


def max_tokens() -> int:
    return int(zoo.read_config(NAME)["max_len"])


def token_labels(ids: list[int]) -> tuple[str, ...]:
    pieces = bpe.token_bytes(_tokenizer(), ids)
    return tuple(EOT_LABEL if i == 0 else p.decode("utf-8", errors="replace") for i, p in zip(ids, pieces))


def _check_model() -> None:
    if not (zoo.checkpoint_dir(NAME) / "model.safetensors").exists():
        raise InputError("error.model_missing", name=NAME)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, top_k: int, capacity_factor: float, backend: str) -> Routing:
    """Route ``text`` through every MoE layer with ``top_k`` experts per token at ``capacity_factor``."""
    _check_model()
    if not text.strip():
        raise InputError("moe.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("moe.error.too_long", max_chars=MAX_CHARS)
    ids = switch.encode(_tokenizer(), text)
    if len(ids) > max_tokens():
        raise InputError("moe.error.too_many_tokens", n=len(ids), max_tokens=max_tokens())
    inputs = {"tokens": np.array([ids], dtype=np.int64),
              "capacity_factor": np.array([capacity_factor], dtype=np.float32),
              "top_k": np.array([top_k], dtype=np.int64)}
    res = run(NAME, inputs, PROBES, backend)
    L = int(zoo.read_config(NAME)["n_layers"])
    get = lambda p: np.stack([res.probes[f"blocks.{i}.moe.{p}"][0] for i in range(L)])  # noqa: E731
    return Routing(
        tokens=token_labels(ids), probs=get("router_probs"), index=get("expert_index").astype(np.int64),
        combine=get("combine"), dropped=get("dropped") > 0,
        capacity=int(res.probes["blocks.0.moe.capacity"].ravel()[0]), top_k=top_k, capacity_factor=capacity_factor,
        backend=res.backend, device=res.device, ms=res.ms,
    )


@st.cache_data(show_spinner=False, max_entries=4)
def specialisation(backend: str, per_domain: int = 8) -> np.ndarray:
    """(L, domains, E): the share of each domain's tokens whose first choice is each expert, on fixed held-out
    windows (``per_domain`` windows of 128 tokens per domain), at the shipped capacity and k."""
    _check_model()
    windows, labels = switch.validation_windows(_tokenizer(), per_domain=per_domain)
    cfg = zoo.read_config(NAME)
    inputs = {"tokens": windows[:, :-1].copy(),
              "capacity_factor": np.array([cfg["capacity_factor"]], dtype=np.float32),
              "top_k": np.array([cfg["top_k"]], dtype=np.int64)}
    res = run(NAME, inputs, ("blocks.*.moe.expert_index",), backend)
    E = int(cfg["n_experts"])
    table = np.zeros((cfg["n_layers"], len(DOMAINS), E))
    for i in range(cfg["n_layers"]):
        top1 = res.probes[f"blocks.{i}.moe.expert_index"][..., 0].astype(np.int64)  # (rows, T)
        for d in range(len(DOMAINS)):
            table[i, d] = np.bincount(top1[labels == d].ravel(), minlength=E)
    return table / table.sum(-1, keepdims=True)


@st.cache_data(show_spinner=False)
def card() -> dict:
    """The switch card (metrics, params, active params) and the dense twin's parameter count."""
    _check_model()
    c = zoo.read_card(NAME)
    dense = zoo.read_card(DENSE) if (zoo.checkpoint_dir(DENSE) / "card.json").exists() else {}
    return {"params": c["params"], "active_params": c.get("active_params"), "metrics": c.get("metrics", {}),
            "dense_params": dense.get("params"), "config": zoo.read_config(NAME)}
