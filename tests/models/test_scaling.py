"""The scaling-law fits (models/scaling.py) recover known laws from synthetic runs, the compute-optimal split is the
minimum it claims, and the sweep resumes instead of rerunning what runs.json holds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from models import scaling, zoo
from models.recipes import scaling as sweep_recipe

# A grid shaped like the shipped sweep: 6 sizes about 2× apart, 4 budgets 2× apart.
N = np.array([25_472, 56_640, 100_096, 200_064, 447_552, 793_344], float)
D = np.array([250_000, 500_000, 1_000_000, 2_000_000], float)
NN, DD = (a.ravel() for a in np.meshgrid(N, D, indexing="ij"))
TRUE = scaling.Chinchilla(E=2.9, A=180.0, B=900.0, alpha=0.42, beta=0.33)


def noisy(loss: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    return loss * np.exp(np.random.default_rng(seed).normal(0, sigma, loss.shape))


def test_approach_3_recovers_a_known_law():
    fit = scaling.fit_chinchilla(NN, DD, TRUE.loss(NN, DD))
    assert fit.alpha == pytest.approx(TRUE.alpha, rel=0.02) and fit.beta == pytest.approx(TRUE.beta, rel=0.02)
    assert fit.E == pytest.approx(TRUE.E, rel=0.01)
    # with 0.3 % noise on each loss the exponents stay close
    rough = scaling.fit_chinchilla(NN, DD, noisy(TRUE.loss(NN, DD), 0.003))
    assert abs(rough.alpha - TRUE.alpha) < 0.1 and abs(rough.beta - TRUE.beta) < 0.1


def test_the_fit_can_tell_laws_apart():
    other = scaling.Chinchilla(E=2.9, A=180.0, B=900.0, alpha=0.2, beta=0.6)
    fit = scaling.fit_chinchilla(NN, DD, other.loss(NN, DD))
    assert fit.alpha == pytest.approx(0.2, rel=0.05) and fit.beta == pytest.approx(0.6, rel=0.05)


def test_huber_objective_gradient_is_its_derivative():
    logn, logd = np.log(NN), np.log(DD)
    logy = np.log(noisy(TRUE.loss(NN, DD), 0.01))
    p = np.array([4.0, 6.0, 1.0, 0.5, 0.4])
    f, g = scaling.chinchilla_objective(p, logn, logd, logy)
    h = 1e-6
    numeric = [(scaling.chinchilla_objective(p + h * e, logn, logd, logy)[0] - f) / h for e in np.eye(5)]
    np.testing.assert_allclose(g, numeric, rtol=1e-3, atol=1e-7 * max(1.0, abs(f)))
    assert scaling.huber(np.array([0.0005]))[0] == pytest.approx(0.5 * 0.0005**2)
    assert scaling.huber(np.array([0.01]))[0] == pytest.approx(1e-3 * (0.01 - 0.5e-3))


def test_compute_optimal_split_is_the_minimum_on_its_isoflop_line():
    for c in (1e12, 1e18, 5.76e23):
        n_opt, d_opt = TRUE.optimal(c)
        assert scaling.flops(n_opt, d_opt) == pytest.approx(c, rel=1e-9)
        for factor in (0.8, 1.25):
            n = n_opt * factor
            assert TRUE.loss(n, c / (6 * n)) > TRUE.loss(n_opt, d_opt)
    # N grows as C^a with a = β / (α + β)
    (n1, _), (n2, _) = TRUE.optimal(1e15), TRUE.optimal(1e16)
    assert math.log10(n2 / n1) == pytest.approx(TRUE.a, rel=1e-9)


def test_published_chinchilla_fit_at_gophers_budget():
    # Hoffmann et al.'s Eq. 10 parameters (as printed, rounded) at Gopher's 5.76e23 FLOPs: a model far smaller than
    # Gopher's 280B trained on far more than its 300B tokens (about 32B params and 3T tokens), N ∝ C^(β/(α+β))
    n, d = scaling.CHINCHILLA_PUBLISHED.optimal(5.76e23)
    assert 2.5e10 < n < 4e10 and 2.5e12 < d < 3.5e12
    assert scaling.CHINCHILLA_PUBLISHED.tokens_per_param(5.76e23) == pytest.approx(d / n)
    assert scaling.CHINCHILLA_PUBLISHED.a == pytest.approx(0.28 / 0.62)


def test_kaplan_fit_recovers_eq_1_5():
    true = scaling.Kaplan(alpha_n=0.3, alpha_d=0.2, n_c=3e9, d_c=4e11)
    fit = scaling.fit_kaplan(NN, DD, true.loss(NN, DD))
    assert fit.alpha_n == pytest.approx(0.3, rel=0.02) and fit.alpha_d == pytest.approx(0.2, rel=0.02)
    assert float(fit.loss(1e6)) == pytest.approx(float(true.loss(1e6)), rel=0.01)  # L(N) at convergence


def test_bootstrap_interval_holds_the_truth_and_has_width():
    y = noisy(TRUE.loss(NN, DD), 0.003, seed=3)
    start = scaling.fit_chinchilla(NN, DD, y)
    intervals = scaling.bootstrap(
        lambda *a: scaling.fit_chinchilla(*a, starts=3, start=start), NN, DD, y, 40, 0, ("alpha", "beta")
    )
    lo, hi = intervals["alpha"]
    assert lo < hi and lo - 0.05 <= TRUE.alpha <= hi + 0.05


def test_isoflop_profiles_find_the_optimum_of_an_isoflop_design():
    c = 1e13
    n = np.geomspace(2e4, 2e6, 7)
    d = c / (6 * n)
    (profile,) = scaling.isoflop_profiles(n, d, TRUE.loss(n, d))
    assert profile.interior and len(profile.log_n) == 7
    assert profile.n_opt == pytest.approx(TRUE.optimal(c)[0], rel=0.15)
    assert profile.flops == pytest.approx(c, rel=1e-6)


def test_the_sweep_resumes_from_runs_json(tmp_path, monkeypatch):
    """Every (size, budget) already recorded with these settings is not run again: no worker is started."""
    settings = {**sweep_recipe.SETTINGS, "sizes": [[2, 32, 2]], "budgets": [1000, 2000]}
    rows = [
        {
            "name": sweep_recipe.run_name([2, 32, 2], b),
            "params_non_embedding": 25_472,
            "tokens": b,
            "settings": {k: settings[k] for k in sweep_recipe.RUN_KEYS},
            "seed": 0,
        }
        for b in settings["budgets"]
    ]
    sweep_recipe.write_runs(tmp_path, rows, settings)
    monkeypatch.setattr(sweep_recipe, "train_one", lambda job: pytest.fail(f"ran {job} again"))
    assert sweep_recipe.sweep(settings, 0, tmp_path) == {"runs": 2}
    # another learning rate is another run: it is not taken from the table
    monkeypatch.setattr(sweep_recipe.mp, "get_context", lambda *_: pytest.fail("started a pool"))
    with pytest.raises(pytest.fail.Exception):
        sweep_recipe.sweep({**settings, "lr": 1e-3}, 0, tmp_path)


SHIPPED = zoo.SHIPPED / "scaling"


@pytest.mark.skipif(not (SHIPPED / "card.json").exists(), reason="no scaling sweep shipped")
def test_shipped_sweep_spans_the_grid_the_page_needs():
    runs = json.loads((SHIPPED / "runs.json").read_text())["runs"]
    sizes = sorted({r["params_non_embedding"] for r in runs})
    assert len(sizes) >= 6 and sizes[-1] / sizes[0] >= 30
    assert len({r["tokens"] for r in runs}) >= 4 and len(runs) == len(sizes) * len({r["tokens"] for r in runs})
    for r in runs:
        assert r["flops"] == pytest.approx(6 * r["params_non_embedding"] * r["tokens"], rel=1e-3)


@pytest.mark.slow
def test_one_run_of_the_sweep_trains_and_records_its_compute():
    row = sweep_recipe.train_one({"size": [1, 32, 2], "tokens": 40_000, "settings": sweep_recipe.SETTINGS, "seed": 0})
    assert row["tokens"] == row["steps"] * 8 * 128 and row["flops"] == pytest.approx(
        6 * row["params_non_embedding"] * row["tokens"], rel=1e-3
    )
    assert row["lr"] == pytest.approx(3e-3 * 128 / 32)
    assert row["val_loss"] < math.log(2048) - 0.5  # it learnt something about the text in 39 steps
    assert row["train_curve"][0][1] > row["train_curve"][-1][1]
