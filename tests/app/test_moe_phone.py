"""The MoE page on a phone (390 px): Plotly's toolbar, shown over a figure's top right when it is tapped, covered the
layer titles and the heatmap's expert labels, and the balance and parameter tables were cut at the right edge."""

from __future__ import annotations

import numpy as np

from app.moe import views
from app.shared.i18n import translate
from tests.app.conftest import open_app

TOOLBAR = 30  # px: the height of Plotly's toolbar band at the top of a figure
TITLE = 24  # px: a 16-px layer title above the panels


def _figures():
    L, T, E = 3, 12, 6
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(E), size=(L, T))
    counts = rng.integers(0, 5, size=(L, E))
    titles = tuple(f"Layer {i}" for i in range(L))
    return {
        "router": (
            views.router_heatmap(
                probs[0],
                [f"t{i}" for i in range(T)],
                np.zeros((T, 1), int),
                token_title="token",
                expert_title="expert",
                value_title="p",
            ),
            50,
        ),
        "load": (
            views.load_bars(
                counts,
                counts,
                5,
                layer_titles=titles,
                expert_title="expert",
                kept_title="kept",
                dropped_title="dropped",
                capacity_title="capacity",
                count_title="slots",
            ),
            TITLE,
        ),
        "balance": (
            views.balance_bars(
                probs.mean(1), probs.mean(1), layer_titles=titles, expert_title="expert", f_title="f", p_title="P"
            ),
            TITLE,
        ),
        "domains": (
            views.domain_table(
                probs[:, :3], ["a", "b", "c"], layer_titles=titles, expert_title="expert", value_title="%"
            ),
            TITLE,
        ),
        "params": (
            views.params_chart(
                ["ours (6 routed)", "dense"],
                np.array([1e6, 1e6]),
                np.array([5e5, 1e6]),
                total_title="total",
                active_title="active",
                axis_title="parameters",
            ),
            0,
        ),
    }


def test_every_figure_leaves_its_top_to_the_toolbar():
    """Each figure's top margin holds the toolbar above whatever it puts there (layer titles, slanted labels)."""
    for name, (fig, above_plot) in _figures().items():
        assert fig.layout.margin.t >= TOOLBAR + above_plot, (name, fig.layout.margin.t)


def test_the_tables_fit_a_phone():
    """The balance terms come one row per layer and expert (five narrow columns, not one per expert); the parameter
    table is a static table, whose long cells wrap instead of running off the right edge."""
    at = open_app("moe", lang="en")
    assert not at.exception
    expert = translate("moe.expert", "en")
    balance = next(d.value for d in at.dataframe if "E·fᵢ·Pᵢ" in d.value.columns)
    assert list(balance.columns) == [translate("moe.layer", "en"), expert, "fᵢ", "Pᵢ", "E·fᵢ·Pᵢ"]
    assert len(balance) == 3 * 6
    note = translate("moe.note", "en")
    assert [len(t.value) for t in at.table if note in t.value.columns] == [5]  # ours, the dense twin, 3 published
    assert not [d for d in at.dataframe if note in d.value.columns]
