"""The Scaling page's bridge to ``models.scaling`` and ``models.parallel``: the sweep's runs and the fits of its card
(Kaplan's Eq. 1.5, Chinchilla's Approach 3 and the IsoFLOP profiles of Approach 2), compute-optimal sizes by our fit
and by the published ones, Megatron's split of one layer and the recorded gloo run, and ZeRO's bytes per device.

The sweep and the parallel run write JSON files while the app may be running; every reader is cached on the file's
modification time, so a finished sweep shows without a restart, and a missing file raises an ``InputError`` that
names the command which makes it."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from app.shared.i18n import InputError
from app.shared.services import checkpoint
from models import parallel, scaling

SWEEP = checkpoint("scaling")  # not a model: the folder of the sweep's runs, fits and the parallel runs
GPT = checkpoint("gpt")  # the model whose layer Megatron splits and whose parameters ZeRO shards
SWEEP_COMMAND = "python -m models.train scaling-sweep"
PARALLEL_COMMAND = "python -m models.recipes.parallel"
TRAIN_TOKENS = 1_637_882  # the training plays in the gpt checkpoint's BPE (its card): budgets above it repeat text
CURVE_POINTS = 60

BUDGETS = tuple(f"1e{e}" for e in range(10, 26))  # the slider's compute budgets C, FLOPs
DEFAULT_BUDGET = "1e13"  # about our largest run: the try-this starts here, where our fit stands on its own runs
FRONTIER = np.logspace(10, 25, CURVE_POINTS)  # C for the N_opt(C) figure


@dataclass(frozen=True)
class Trained:
    """A published model as trained: parameters N, tokens D, the paper (arXiv id)."""

    name: str
    n: float
    d: float
    arxiv: str

    @property
    def flops(self) -> float:
        return scaling.flops(self.n, self.d)

    @property
    def tokens_per_param(self) -> float:
        return self.d / self.n


PUBLISHED_MODELS = (
    Trained("GPT-3 175B", 175e9, 300e9, "2005.14165"),
    Trained("Gopher 280B", 280e9, 300e9, "2112.11446"),
    Trained("Chinchilla 70B", 70e9, 1.4e12, "2203.15556"),
)


def published(name: str) -> Trained:
    """The published model ``name`` ("GPT-3 175B", "Gopher 280B", "Chinchilla 70B")."""
    for model in PUBLISHED_MODELS:
        if model.name == name:
            return model
    raise InputError("scaling.error.choice")


GOPHER_FLOPS = 5.76e23  # Gopher's training compute, the budget Chinchilla was sized for (2203.15556)
PUBLISHED_A = scaling.CHINCHILLA_PUBLISHED.a  # N_opt ∝ C^a by the published Approach-3 constants: β / (α + β)

# GPT-3 175B (2005.14165, Table 2.1): 96 layers, d_model 12288, 96 heads of 128, MLP 4·d_model
GPT3 = {"n_layers": 96, "dim": 12288, "n_heads": 96, "mlp": 4 * 12288, "params": 175e9}
GPT3_DEGREES = (1, 2, 4, 8)
ZERO_PAPER_PSI = 7.5e9  # ZeRO's Figure 1 example
ZERO_PAPER_N_D = 64
FIGURE1_GB = (120.0, 31.4, 16.6, 1.9)  # ZeRO Fig. 1: stages 0-3 for Ψ = 7.5B, N_d = 64, K = 12
N_D_CHOICES = tuple(2**i for i in range(11))  # 1 … 1024 devices
GB = 1e9  # the ZeRO paper's GB


def _mtime(path: Path) -> int:
    return path.stat().st_mtime_ns if path.exists() else 0


# ---- the sweep and its fits ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    name: str
    n_layers: int
    dim: int
    n: int  # non-embedding parameters
    n_total: int
    tokens: int  # D, training tokens
    steps: int
    flops: float  # C = 6·N·D
    loss: float  # held-out loss, nats per token
    train_loss: float


@dataclass(frozen=True)
class Profile:
    """One IsoFLOP profile (Approach 2): the runs of about one compute, a parabola in x = ln N and its minimum."""

    flops: float
    n: tuple[float, ...]
    loss: tuple[float, ...]
    parabola: tuple[float, float, float]  # loss ≈ p0·x² + p1·x + p2
    n_opt: float  # the parabola's minimum; where it opens downward (no minimum), the lowest run's N
    interior: bool  # the minimum lies within the profile's sizes (else it is an extrapolation)

    @property
    def kind(self) -> str:
        """ "inside": a minimum within the runs; "outside": the parabola's minimum lies beyond them (extrapolated);
        "none": the parabola opens downward and has no minimum."""
        if self.parabola[0] <= 0:
            return "none"
        return "inside" if self.interior else "outside"


@dataclass(frozen=True)
class Sweep:
    runs: tuple[Run, ...]
    planned: int  # sizes × budgets in the sweep's settings
    kaplan: scaling.Kaplan | None  # None until the sweep writes card.json
    chinchilla: scaling.Chinchilla | None
    profiles: tuple[Profile, ...]
    intervals: dict  # field -> (2.5 %, 97.5 %) of the bootstrap refits
    reps: int  # bootstrap resamples
    metrics: dict  # the card's metrics

    @property
    def fitted(self) -> bool:
        return self.chinchilla is not None

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(sorted({r.n for r in self.runs}))

    @property
    def budgets(self) -> tuple[int, ...]:
        return tuple(sorted({r.tokens for r in self.runs}))

    @property
    def flops_range(self) -> tuple[float, float]:
        c = [r.flops for r in self.runs]
        return min(c), max(c)


def _files() -> tuple[str, int, str, int]:
    """runs.json and card.json with their modification times (0: missing): the key of every cached reader."""
    folder = SWEEP.folder  # read at call time: TE_CHECKPOINTS may point elsewhere
    runs, card = folder / "runs.json", folder / "card.json"
    return str(runs), _mtime(runs), str(card), _mtime(card)


def sweep() -> Sweep:
    """The sweep's runs (runs.json) and fits (card.json); InputError naming the command when no run is recorded."""
    files = _files()
    if not files[1]:
        raise InputError("scaling.error.no_sweep", command=SWEEP_COMMAND)
    s = _sweep(*files)
    if not s.runs:
        raise InputError("scaling.error.no_sweep", command=SWEEP_COMMAND)
    return s


@st.cache_data(show_spinner=False, max_entries=8)
def _sweep(runs_path: str, runs_mtime: int, card_path: str, card_mtime: int) -> Sweep:
    record = json.loads(Path(runs_path).read_text())
    settings = record.get("settings", {})
    runs = tuple(
        sorted(
            (
                Run(
                    name=r["name"],
                    n_layers=int(r["n_layers"]),
                    dim=int(r["dim"]),
                    n=int(r["params_non_embedding"]),
                    n_total=int(r["params_total"]),
                    tokens=int(r["tokens"]),
                    steps=int(r.get("steps", 0)),
                    flops=float(r["flops"]),
                    loss=float(r["val_loss"]),
                    train_loss=float(r.get("final_train_loss", math.nan)),
                )
                for r in record.get("runs", [])
            ),
            key=lambda r: (r.n, r.tokens),
        )
    )
    planned = len(settings.get("sizes", [])) * len(settings.get("budgets", [])) or len(runs)
    if not card_mtime:
        return Sweep(runs, planned, None, None, (), {}, 0, {})
    card = json.loads(Path(card_path).read_text())
    fits = card["fits"]
    profiles = tuple(
        Profile(
            flops=float(p["flops"]),
            n=tuple(float(np.exp(x)) for x, _ in sorted(zip(p["log_n"], p["loss"]))),
            loss=tuple(float(v) for _, v in sorted(zip(p["log_n"], p["loss"]))),
            parabola=tuple(float(v) for v in p["parabola"]),
            n_opt=float(p["n_opt"]),
            interior=bool(p["interior"]),
        )
        for p in fits.get("isoflop", [])
    )
    return Sweep(
        runs=runs,
        planned=planned,
        kaplan=scaling.Kaplan(**fits["kaplan"]),
        chinchilla=scaling.Chinchilla(**fits["chinchilla"]),
        profiles=profiles,
        intervals={k: tuple(v) for k, v in fits.get("intervals_95", {}).items()},
        reps=int(fits.get("bootstrap_reps", 0)),
        metrics=dict(card.get("metrics", {})),
    )


# ---- training curves over compute (Chinchilla's Approach 1) ------------------------------------------------------

ENVELOPE_POINTS = 25  # compute values on the slider, log-spaced over the runs' range


@dataclass(frozen=True)
class Training:
    """Every run's training loss against the compute it had spent, and their lower envelope: at each compute C of
    ``grid``, the lowest loss any run had at C (Hoffmann et al.'s Approach 1, their Figure 2, left)."""

    names: tuple[str, ...]
    n: tuple[int, ...]  # each run's non-embedding parameters
    tokens: tuple[int, ...]  # each run's D: the length its learning-rate schedule was matched to
    flops: tuple[np.ndarray, ...]  # per run: C = 6·N·(tokens seen) at each logged point
    loss: tuple[np.ndarray, ...]  # per run: the mean training loss of the steps around that point, nats per token
    grid: np.ndarray  # (ENVELOPE_POINTS,) C
    best: np.ndarray  # (ENVELOPE_POINTS,) the envelope: the lowest loss at C over the runs that reached C
    winner: np.ndarray  # (ENVELOPE_POINTS,) the index of that run

    def at(self, i: int, c: float) -> float:
        """Run ``i``'s loss at compute ``c``, interpolated in log C between its logged points (NaN outside them)."""
        return _loss_at(self.flops[i], self.loss[i], c)


def _loss_at(flops: np.ndarray, loss: np.ndarray, c: float) -> float:
    x = np.log(flops)
    if not x[0] <= math.log(c) <= x[-1]:
        return math.nan
    return float(np.interp(math.log(c), x, loss))


def training() -> Training:
    """The sweep's training curves (runs.json's ``train_curve``) and their envelope; InputError naming the command
    when no run recorded one."""
    runs_path, runs_mtime, _, _ = _files()
    if not runs_mtime:
        raise InputError("scaling.error.no_sweep", command=SWEEP_COMMAND)
    out = _training(runs_path, runs_mtime)
    if not out.names:
        raise InputError("scaling.error.no_sweep", command=SWEEP_COMMAND)
    return out


@st.cache_data(show_spinner=False, max_entries=4)
def _training(runs_path: str, runs_mtime: int) -> Training:
    runs = [r for r in json.loads(Path(runs_path).read_text()).get("runs", []) if len(r.get("train_curve", ())) > 1]
    runs.sort(key=lambda r: (int(r["params_non_embedding"]), int(r["tokens"])))
    flops, losses = [], []
    for r in runs:
        steps, per_step = int(r["steps"]), int(r["tokens"]) / int(r["steps"])
        first = np.array([p[0] for p in r["train_curve"]], dtype=float)  # a window's first step, from 1
        ends = np.append(first[1:] - 1, steps)  # its last step
        middle = (first + ends) / 2  # the window's loss is its steps' mean: put it at their middle
        flops.append(scaling.flops(int(r["params_non_embedding"]), middle * per_step))
        losses.append(np.array([p[1] for p in r["train_curve"]], dtype=float))
    if runs:
        lo, hi = min(f[0] for f in flops), max(f[-1] for f in flops)
        grid = np.geomspace(lo, hi, ENVELOPE_POINTS)
        table = np.array([[_loss_at(f, v, c) for c in grid] for f, v in zip(flops, losses)])  # NaN: not reached
        reached = ~np.isnan(table).all(axis=0)  # a gap between the runs' ranges has no envelope
        grid, table = grid[reached], table[:, reached]
        winner = np.nanargmin(table, axis=0).astype(int)
        best = table[winner, np.arange(grid.size)]
    else:
        grid, best, winner = np.empty(0), np.empty(0), np.empty(0, dtype=int)
    return Training(
        names=tuple(r["name"] for r in runs),
        n=tuple(int(r["params_non_embedding"]) for r in runs),
        tokens=tuple(int(r["tokens"]) for r in runs),
        flops=tuple(flops),
        loss=tuple(losses),
        grid=grid,
        best=best,
        winner=winner,
    )


FITS = ("chinchilla", "kaplan")


@dataclass(frozen=True)
class Curves:
    """One fit drawn over the sweep: L̂ against N for each budget D, against D for each size N, and the limits."""

    n_grid: np.ndarray  # (P,)
    d_grid: np.ndarray  # (P,)
    by_budget: np.ndarray  # (budgets, P): L̂(n_grid, D)
    by_size: np.ndarray  # (sizes, P): L̂(N, d_grid)
    n_limit: np.ndarray  # (P,) L̂(n_grid, D = ∞): Kaplan's L(N) at convergence, or E + A/N^α
    d_limit: np.ndarray  # (P,) L̂(N = ∞, d_grid)


def curves(fit: str) -> Curves:
    if fit not in FITS:
        raise InputError("scaling.error.choice")
    s = sweep()
    if not s.fitted:
        raise InputError("scaling.error.no_card", command=SWEEP_COMMAND)
    return _curves(fit, *_files())


@st.cache_data(show_spinner=False, max_entries=8)
def _curves(fit: str, runs_path: str, runs_mtime: int, card_path: str, card_mtime: int) -> Curves:
    s = _sweep(runs_path, runs_mtime, card_path, card_mtime)
    n_grid = np.geomspace(min(s.sizes) / 2, max(s.sizes) * 2, CURVE_POINTS)
    d_grid = np.geomspace(min(s.budgets) / 2, max(s.budgets) * 2, CURVE_POINTS)
    if fit == "kaplan":
        k = s.kaplan
        by_budget = np.stack([k.loss(n_grid, d) for d in s.budgets])
        by_size = np.stack([k.loss(n, d_grid) for n in s.sizes])
        n_limit, d_limit = k.loss(n_grid), k.loss(math.inf, d_grid)
    else:
        c = s.chinchilla
        by_budget = np.stack([c.loss(n_grid, d) for d in s.budgets])
        by_size = np.stack([c.loss(n, d_grid) for n in s.sizes])
        n_limit, d_limit = c.E + c.A / n_grid**c.alpha, c.E + c.B / d_grid**c.beta
    return Curves(n_grid, d_grid, by_budget, by_size, n_limit, d_limit)


def parabola(p: Profile) -> tuple[np.ndarray, np.ndarray]:
    """(N, loss) along the profile's parabola, a little beyond its runs on both sides and out to its minimum."""
    x = np.log(np.array(p.n))
    lo, hi = min(x.min(), math.log(p.n_opt)) - 0.2, max(x.max(), math.log(p.n_opt)) + 0.2
    xs = np.linspace(lo, hi, CURVE_POINTS)
    return np.exp(xs), np.polyval(p.parabola, xs)


# ---- compute-optimal sizes -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Optimum:
    law: str  # "ours", "kaplan", "chinchilla"
    n: float
    d: float

    @property
    def tokens_per_param(self) -> float:
        return self.d / self.n


def optimum(law: str, c: float, s: Sweep | None = None) -> Optimum:
    """N and D minimising the loss at compute C = 6·N·D by one law. Kaplan's Fig. 14 gives N; D = C / (6N)."""
    if law == "kaplan":
        n = scaling.kaplan_optimal_n(c)
        return Optimum(law, n, c / (6 * n))
    if law == "chinchilla":
        return Optimum(law, *scaling.CHINCHILLA_PUBLISHED.optimal(c))
    if law == "ours" and s is not None and s.fitted:
        return Optimum(law, *s.chinchilla.optimal(c))
    raise InputError("scaling.error.choice")


def budget(label: str) -> float:
    """A slider label ("1e21") as FLOPs."""
    if label not in BUDGETS:
        raise InputError("scaling.error.choice")
    return float(label)


def optima(c: float, s: Sweep | None) -> tuple[Optimum, ...]:
    laws = ("ours", "kaplan", "chinchilla") if s is not None and s.fitted else ("kaplan", "chinchilla")
    return tuple(optimum(law, c, s) for law in laws)


def frontier(s: Sweep | None) -> dict[str, np.ndarray]:
    """N_opt over FRONTIER for each law available."""
    return {
        law: np.array([optimum(law, c, s).n for c in FRONTIER])
        for law in (("ours",) if s is not None and s.fitted else ()) + ("kaplan", "chinchilla")
    }


# ---- Megatron ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layer:
    """A model whose layer the Megatron section splits."""

    key: str  # "ours" or "gpt3"
    n_layers: int
    dim: int
    n_heads: int
    mlp: int
    degrees: tuple[int, ...]  # the t that divide its heads and MLP width (the picker's options)


def _our_config() -> Mapping | None:
    """The shipped gpt's config: from parallel.json when recorded, else from the gpt checkpoint."""
    rec = parallel_record()
    if rec is not None:
        return rec["config"]
    return GPT.config or None


def layers() -> tuple[Layer, ...]:
    out = []
    config = _our_config()
    if config is not None:
        heads, mlp = int(config["n_heads"]), int(config["dim"]) * int(config.get("mlp_ratio", 4))
        degrees = tuple(t for t in range(1, heads + 1) if heads % t == 0 and mlp % t == 0)
        out.append(Layer("ours", int(config["n_layers"]), int(config["dim"]), heads, mlp, degrees))
    out.append(Layer("gpt3", GPT3["n_layers"], GPT3["dim"], GPT3["n_heads"], GPT3["mlp"], GPT3_DEGREES))
    return tuple(out)


def layer(key: str) -> Layer:
    for found in layers():
        if found.key == key:
            return found
    raise InputError("scaling.error.choice")


def split(key: str, t: int) -> tuple[parallel.Split, ...]:
    """The layer's weights and how Megatron splits each over t devices."""
    x = layer(key)
    try:
        return tuple(parallel.megatron_layout(x.dim, x.n_heads, x.mlp, t))
    except ValueError:
        raise InputError("scaling.error.degree", t=t, heads=x.n_heads, mlp=x.mlp) from None


@dataclass(frozen=True)
class Traffic:
    size: int  # bytes of one all-reduce: the (B, T, C) output
    ring_sent: float  # bytes each device sends in a ring all-reduce of it
    per_layer_step: int  # all-reduces per layer and training step: 2 forward (g), 2 backward (f)


def traffic(key: str, batch: int, tokens: int, dtype_bytes: int, t: int) -> Traffic:
    x = layer(key)
    size = parallel.allreduce_bytes(batch, tokens, x.dim, dtype_bytes)
    return Traffic(size, parallel.ring_traffic_bytes(size, t), 4)


def parallel_record() -> dict | None:
    """parallel.json as written by ``python -m models.recipes.parallel``, or None."""
    path = SWEEP.folder / "parallel.json"
    return _json(str(path), _mtime(path)) if path.exists() else None


@st.cache_data(show_spinner=False, max_entries=8)
def _json(path: str, mtime: int) -> dict:
    return json.loads(Path(path).read_text())


def parallel_runs() -> dict:
    """The recorded Megatron run (its ``megatron`` part); InputError naming the command when not recorded."""
    rec = parallel_record()
    if rec is None:
        raise InputError("scaling.error.no_parallel", command=PARALLEL_COMMAND)
    return rec["megatron"]


# ---- ZeRO --------------------------------------------------------------------------------------------------------


def zero_models() -> dict[str, float]:
    """Ψ of each model the ZeRO section offers: our gpt (when known), GPT-3 175B, the paper's 7.5B example."""
    out = {}
    rec = parallel_record()
    if rec is not None:
        out["ours"] = float(rec["params"])
    elif "params" in GPT.card:
        out["ours"] = float(GPT.card["params"])
    out["gpt3"] = GPT3["params"]
    out["paper"] = ZERO_PAPER_PSI
    return out


def zero(psi: float, n_d: int) -> np.ndarray:
    """(4 stages, 3 parts) bytes per device: fp16 parameters, fp16 gradients, optimizer states (K = 12)."""
    if not 1 <= n_d <= max(N_D_CHOICES):
        raise InputError("scaling.error.choice")
    parts = ("parameters", "gradients", "optimizer_states")
    return np.array([[parallel.zero_bytes(psi, n_d, s)[p] for p in parts] for s in parallel.ZERO_STAGES])


def figure1() -> tuple[tuple[float, float], ...]:
    """(the paper's GB, ours computed) for stages 0-3 of ZeRO's Figure 1."""
    computed = zero(ZERO_PAPER_PSI, ZERO_PAPER_N_D).sum(1) / GB
    return tuple((paper, float(got)) for paper, got in zip(FIGURE1_GB, computed))


def zero_measured() -> dict:
    """The recorded ZeRO part of parallel.json; InputError naming the command when not recorded."""
    rec = parallel_record()
    if rec is None:
        raise InputError("scaling.error.no_parallel", command=PARALLEL_COMMAND)
    return {"params": int(rec["params"]), **rec["zero"]}
