"""Scaling laws: how held-out loss falls with parameters N and training tokens D, fitted on our own sweep.

Papers:
- Kaplan et al. 2020 (2001.08361), "Scaling Laws for Neural Language Models": with N the non-embedding parameters
  and D the tokens, L(N) = (N_c / N)^α_N for models trained to convergence, L(D) = (D_c / D)^α_D for large models
  stopped early, and both at once (their Eq. 1.5)

      L(N, D) = [ (N_c / N)^(α_N / α_D) + D_c / D ]^α_D

  Their fits: α_N ≈ 0.076, α_D ≈ 0.095 (N_c ≈ 8.8e13, D_c ≈ 5.4e13). For a compute budget C they found the
  loss-optimal model size grows as N ∝ C^0.73 (Fig. 14: N ≈ 1.3e9 · (C / PF-day)^0.73).
- Hoffmann et al. 2022 (2203.15556), "Training Compute-Optimal Large Language Models" (Chinchilla): with a learning
  rate schedule matched to each run's length, N and D should grow equally with compute. Approach 2 fits a parabola
  to each IsoFLOP profile (loss against log N at fixed C) and takes its minimum; Approach 3 fits

      L̂(N, D) = E + A / N^α + B / D^β

  by minimising the Huber loss (δ = 10⁻³) between log L̂ and log L with L-BFGS from a grid of starting points
  (their Eq. 10 fit: E = 1.69, A = 406.4, B = 410.7, α = 0.34, β = 0.28). Minimising L̂ subject to C = 6·N·D gives

      N_opt(C) = G · (C/6)^a,  D_opt(C) = G⁻¹ · (C/6)^b,  G = (α·A / (β·B))^(1/(α+β)),  a = β/(α+β),  b = α/(α+β).

Here N is the non-embedding parameter count for both laws (Kaplan's choice; on models this small the embedding
would be most of the total), and C ≈ 6·N·D FLOPs (forward and backward). No torch: the page computes with it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import optimize

PF_DAY = 1e15 * 86400  # FLOPs in a petaflop/s-day, Kaplan's unit of compute


def flops(n: float, d: float) -> float:
    """Training compute C ≈ 6·N·D: 2·N per token forward, 4·N backward."""
    return 6.0 * n * d


# ---- Kaplan et al.: power laws --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kaplan:
    alpha_n: float
    alpha_d: float
    n_c: float
    d_c: float

    def loss(self, n, d=math.inf):
        """Eq. 1.5; d = ∞ gives L(N) at convergence, n = ∞ gives L(D)."""
        n, d = np.asarray(n, float), np.asarray(d, float)
        return ((self.n_c / n) ** (self.alpha_n / self.alpha_d) + self.d_c / d) ** self.alpha_d


KAPLAN_PUBLISHED = Kaplan(alpha_n=0.076, alpha_d=0.095, n_c=8.8e13, d_c=5.4e13)


def kaplan_optimal_n(c: float) -> float:
    """Kaplan et al.'s compute-efficient model size (Fig. 14): N ≈ 1.3e9 · (C_min / PF-day)^0.73."""
    return 1.3e9 * (c / PF_DAY) ** 0.73


def fit_kaplan(n: Sequence[float], d: Sequence[float], loss: Sequence[float], start: Kaplan | None = None) -> Kaplan:
    """Least squares on log L of Eq. 1.5 (N_c, D_c fitted in log space), from 27 starting points, or from ``start``
    alone (the bootstrap starts each refit from the fit on all runs)."""
    n, d, y = (np.asarray(v, float) for v in (n, d, loss))
    logn, logd, logy = np.log(n), np.log(d), np.log(y)

    def resid(p):
        an, ad, lnc, ldc = p
        inner = np.logaddexp((an / ad) * (lnc - logn), ldc - logd)
        return ad * inner - logy

    best = None
    starts = [
        [an, ad, logn.max() + shift, logd.max() + shift]
        for an, ad, shift in itertools.product((0.05, 0.2, 0.5), (0.05, 0.2, 0.5), (2.0, 8.0, 20.0))
    ]
    if start is not None:
        starts = [[start.alpha_n, start.alpha_d, math.log(start.n_c), math.log(start.d_c)]]
    for x0 in starts:
        try:
            r = optimize.least_squares(resid, x0, bounds=([1e-3, 1e-3, -50, -50], [5, 5, 200, 200]))
        except ValueError:
            continue
        if best is None or r.cost < best.cost:
            best = r
    an, ad, lnc, ldc = best.x
    return Kaplan(alpha_n=float(an), alpha_d=float(ad), n_c=float(np.exp(lnc)), d_c=float(np.exp(ldc)))


# ---- Chinchilla: L = E + A/N^α + B/D^β -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Chinchilla:
    E: float
    A: float
    B: float
    alpha: float
    beta: float

    def loss(self, n, d):
        n, d = np.asarray(n, float), np.asarray(d, float)
        return self.E + self.A / n**self.alpha + self.B / d**self.beta

    @property
    def a(self) -> float:
        """N_opt ∝ C^a."""
        return self.beta / (self.alpha + self.beta)

    @property
    def b(self) -> float:
        """D_opt ∝ C^b."""
        return self.alpha / (self.alpha + self.beta)

    def optimal(self, c: float) -> tuple[float, float]:
        """(N_opt, D_opt) minimising L̂ at compute C = 6·N·D."""
        g = (self.alpha * self.A / (self.beta * self.B)) ** (1 / (self.alpha + self.beta))
        return g * (c / 6) ** self.a, (c / 6) ** self.b / g

    def tokens_per_param(self, c: float) -> float:
        n, d = self.optimal(c)
        return d / n


CHINCHILLA_PUBLISHED = Chinchilla(E=1.69, A=406.4, B=410.7, alpha=0.34, beta=0.28)

HUBER_DELTA = 1e-3  # Hoffmann et al., Approach 3


def huber(r: np.ndarray, delta: float = HUBER_DELTA) -> np.ndarray:
    a = np.abs(r)
    return np.where(a <= delta, 0.5 * r**2, delta * (a - 0.5 * delta))


def _lse_terms(p: np.ndarray, logn: np.ndarray, logd: np.ndarray) -> np.ndarray:
    a, b, e, alpha, beta = p
    return np.stack([a - alpha * logn, b - beta * logd, np.full_like(logn, e)])


def chinchilla_objective(
    p: np.ndarray, logn: np.ndarray, logd: np.ndarray, logy: np.ndarray
) -> tuple[float, np.ndarray]:
    """Σ Huber(LSE(a − α log N, b − β log D, e) − log L) and its gradient in (a, b, e, α, β)."""
    terms = _lse_terms(p, logn, logd)
    pred = np.logaddexp.reduce(terms, axis=0)
    r = pred - logy
    dr = np.clip(r, -HUBER_DELTA, HUBER_DELTA)  # dHuber/dr
    w = np.exp(terms - pred)  # softmax weights of the three terms
    grad = np.array(
        [
            (dr * w[0]).sum(),
            (dr * w[1]).sum(),
            (dr * w[2]).sum(),
            (dr * w[0] * -logn).sum(),
            (dr * w[1] * -logd).sum(),
        ]
    )
    return float(huber(r).sum()), grad


# The objective is small (squared log residuals of ~1e-3): tolerances far below scipy's defaults, or L-BFGS stops early.
LBFGS = {"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000}

# The paper's grid of starting points: α, β ∈ {0, 0.5, …, 2}, e ∈ {−1, −0.5, …, 1}, a, b ∈ {0, 5, …, 25}.
INIT_GRID = dict(
    alpha=np.arange(0, 2.01, 0.5),
    beta=np.arange(0, 2.01, 0.5),
    e=np.arange(-1, 1.01, 0.5),
    a=np.arange(0, 26, 5),
    b=np.arange(0, 26, 5),
)


def fit_chinchilla(
    n: Sequence[float], d: Sequence[float], loss: Sequence[float], starts: int = 50, start: Chinchilla | None = None
) -> Chinchilla:
    """Approach 3: L-BFGS on the Huber loss of log L̂ − log L. The objective is evaluated at every point of the
    paper's grid of starting points (4,500 of them, at once), and L-BFGS runs from the ``starts`` best of them (and
    from ``start``, where given); the best fit wins."""
    logn, logd, logy = (np.log(np.asarray(v, float)) for v in (n, d, loss))
    grid = np.array(list(itertools.product(*(INIT_GRID[k] for k in ("a", "b", "e", "alpha", "beta")))))  # (G, 5)
    a, b, e, alpha, beta = (grid[:, i : i + 1] for i in range(5))
    pred = np.logaddexp(np.logaddexp(a - alpha * logn, b - beta * logd), e)  # (G, runs)
    objective = huber(pred - logy).sum(1)
    x0s = [grid[i] for i in np.argsort(objective)[:starts]]
    if start is not None:
        x0s.append(np.array([math.log(start.A), math.log(start.B), math.log(start.E), start.alpha, start.beta]))
    best = None
    for x0 in x0s:
        r = optimize.minimize(
            chinchilla_objective, x0, args=(logn, logd, logy), jac=True, method="L-BFGS-B", options=LBFGS
        )
        if np.isfinite(r.fun) and (best is None or r.fun < best.fun):
            best = r
    a, b, e, alpha, beta = best.x
    return Chinchilla(E=float(np.exp(e)), A=float(np.exp(a)), B=float(np.exp(b)), alpha=float(alpha), beta=float(beta))


# ---- Approach 2: IsoFLOP profiles ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class IsoFlop:
    flops: float  # the profile's compute (geometric mean of its runs')
    log_n: list[float]  # its runs' ln N
    loss: list[float]
    parabola: list[float]  # loss ≈ p0·x² + p1·x + p2, x = ln N
    n_opt: float  # the parabola's minimum (inside the runs' range only when interior is true)
    interior: bool


def isoflop_profiles(n, d, loss, tolerance: float = 0.35, least: int = 3) -> list[IsoFlop]:
    """Runs grouped by compute (ln C within ``tolerance`` of the group's first run), each group of at least ``least``
    sizes with a parabola in ln N and its minimum."""
    n, d, loss = (np.asarray(v, float) for v in (n, d, loss))
    logc = np.log(flops(n, d))
    order = np.argsort(logc)
    groups: list[list[int]] = []
    for i in order:
        if groups and logc[i] - logc[groups[-1][0]] <= tolerance:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    profiles = []
    for g in groups:
        if len({n[i] for i in g}) < least:
            continue
        x, y = np.log(n[g]), loss[g]
        p = np.polyfit(x, y, 2)
        interior = bool(p[0] > 0 and x.min() <= -p[1] / (2 * p[0]) <= x.max())
        x_opt = -p[1] / (2 * p[0]) if p[0] > 0 else x[np.argmin(y)]
        profiles.append(
            IsoFlop(
                flops=float(np.exp(logc[g].mean())),
                log_n=[float(v) for v in x],
                loss=[float(v) for v in y],
                parabola=[float(v) for v in p],
                n_opt=float(np.exp(x_opt)),
                interior=interior,
            )
        )
    return profiles


def power_fit(x, y) -> tuple[float, float]:
    """(exponent, coefficient) of y = k · x^exponent, by least squares in log-log."""
    slope, intercept = np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)
    return float(slope), float(np.exp(intercept))


# ---- everything the sweep's card reports ---------------------------------------------------------------------------


def bootstrap(fit, n, d, loss, reps: int, seed: int, fields: Sequence[str]) -> dict[str, list[float]]:
    """2.5th and 97.5th percentiles of each field of ``fit`` refitted on runs resampled with replacement."""
    n, d, loss = (np.asarray(v, float) for v in (n, d, loss))
    rng = np.random.default_rng(seed)
    found: dict[str, list[float]] = {f: [] for f in fields}
    for _ in range(reps):
        idx = rng.integers(0, len(n), len(n))
        if len(set(n[idx])) < 3 or len(set(d[idx])) < 3:  # too few sizes or budgets to fit
            continue
        result = asdict(fit(n[idx], d[idx], loss[idx]))
        for f in fields:
            found[f].append(result[f])
    return {
        f: [round(float(np.percentile(v, 2.5)), 4), round(float(np.percentile(v, 97.5)), 4)] if v else None
        for f, v in found.items()
    }


def analyse(runs: list[dict], bootstrap_reps: int = 100, seed: int = 0) -> dict:
    """Every fit of the sweep: the card's metrics (flat numbers) and the curves the page draws (``fits``)."""
    n = np.array([r["params_non_embedding"] for r in runs], float)
    d = np.array([r["tokens"] for r in runs], float)
    y = np.array([r["val_loss"] for r in runs], float)
    kap = fit_kaplan(n, d, y)
    chin = fit_chinchilla(n, d, y)
    chin_again = lambda *a: fit_chinchilla(*a, starts=3, start=chin)  # noqa: E731
    kap_again = lambda *a: fit_kaplan(*a, start=kap)  # noqa: E731
    residual = np.log(chin.loss(n, d)) - np.log(y)
    kap_residual = np.log(kap.loss(n, d)) - np.log(y)
    profiles = isoflop_profiles(n, d, y)
    interior = [p for p in profiles if p.interior]
    c_max = float(flops(n, d).max())
    n_opt, d_opt = chin.optimal(c_max)
    metrics = {
        "alpha": round(chin.alpha, 4),
        "beta": round(chin.beta, 4),
        "E": round(chin.E, 4),
        "A": round(chin.A, 4),
        "B": round(chin.B, 4),
        "a": round(chin.a, 4),
        "b": round(chin.b, 4),
        "tokens_per_param": round(d_opt / n_opt, 4),
        "tokens_per_param_at_flops": float(f"{c_max:.4g}"),
        "fit_residual": round(float(np.sqrt(np.mean(residual**2))), 4),  # RMS of ln L̂ − ln L
        "kaplan_alpha_n": round(kap.alpha_n, 4),
        "kaplan_alpha_d": round(kap.alpha_d, 4),
        "kaplan_fit_residual": round(float(np.sqrt(np.mean(kap_residual**2))), 4),
        "isoflop_profiles": len(profiles),
        "isoflop_interior_minima": len(interior),
    }
    if len(interior) >= 2:
        metrics["isoflop_a"] = round(power_fit([p.flops for p in interior], [p.n_opt for p in interior])[0], 4)
    intervals = bootstrap(chin_again, n, d, y, bootstrap_reps, seed, ("alpha", "beta", "E"))
    intervals |= bootstrap(kap_again, n, d, y, bootstrap_reps, seed, ("alpha_n", "alpha_d"))
    fits = {
        "kaplan": asdict(kap),
        "chinchilla": asdict(chin),
        "isoflop": [asdict(p) for p in profiles],
        "intervals_95": intervals,
        "bootstrap_reps": bootstrap_reps,
    }
    return {"metrics": metrics, "fits": fits}
