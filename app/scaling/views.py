"""Figures of the Scaling page: the sweep's losses against N and D with a fit, the IsoFLOP profiles with their
parabolas, compute-optimal N against C by three laws, ZeRO's bytes per device by stage, and Megatron's split of one
layer over t devices. Pure functions: numpy in, Plotly figure or escaped HTML out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from app.shared.figures import cached
from app.shared.html import esc
from app.shared.plots import legend_above
from app.shared.theme import var

LIMIT = "#222222"
LAW_COLOURS = {"ours": "#d62728", "kaplan": "#1f77b4", "chinchilla": "#2ca02c"}
PART_COLOURS = ("#4c78a8", "#f58518", "#54a24b")  # parameters, gradients, optimizer states
DEVICE_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#eeca3b", "#9d755d")


def ramp(k: int) -> list[str]:
    """k colours from light-ish to dark along one hue ramp (small budgets or sizes light, large ones dark)."""
    return sample_colorscale("Viridis", list(np.linspace(0.85, 0.05, k))) if k > 1 else ["#1f77b4"]


def _log_axes(fig: go.Figure, x_title: str, y_title: str) -> None:
    fig.update_xaxes(type="log", title=x_title, exponentformat="power")
    fig.update_yaxes(type="log", title=y_title, exponentformat="power")


@cached
def loss_lines(
    x: list[np.ndarray],
    loss: list[np.ndarray],
    names: list[str],
    grid: np.ndarray | None,
    fitted: np.ndarray | None,
    limit: np.ndarray | None,
    *,
    limit_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Held-out loss of the runs, one group per line (markers), with the fit's curve for each group in the same colour
    and the fit's limit (the other variable → ∞) dashed; log-log."""
    colours = ramp(len(names))
    fig = go.Figure()
    for i, (xs, ys, name) in enumerate(zip(x, loss, names)):
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=name,
                legendgroup=name,
                marker={"color": colours[i], "size": 9, "line": {"width": 1, "color": "white"}},
                hovertemplate=name + " · %{x:,.0f}: %{y:.3f}<extra></extra>",
            )
        )
        if fitted is not None:
            fig.add_trace(
                go.Scatter(
                    x=grid,
                    y=fitted[i],
                    mode="lines",
                    legendgroup=name,
                    showlegend=False,
                    line={"color": colours[i], "width": 1.5},
                    hoverinfo="skip",
                )
            )
    if limit is not None:
        fig.add_trace(
            go.Scatter(
                x=grid,
                y=limit,
                mode="lines",
                name=limit_name,
                line={"color": LIMIT, "width": 1.5, "dash": "dash"},
                hovertemplate=limit_name + " · %{x:,.0f}: %{y:.3f}<extra></extra>",
            )
        )
    _log_axes(fig, x_title, y_title)
    # the runs and the limit set the scale: a fit climbing off small N may leave it, a wild limit is cut at 0.3×
    measured = np.concatenate(loss)
    lo = measured.min() if limit is None else max(min(measured.min(), limit.min()), 0.3 * measured.min())
    fig.update_yaxes(range=[np.log10(lo * 0.97), np.log10(measured.max() * 1.06)])
    return legend_above(fig, 400, top=60)


@cached
def training_curves(
    flops: list[np.ndarray],
    loss: list[np.ndarray],
    size: list[int],
    size_names: list[str],
    grid: np.ndarray,
    best: np.ndarray,
    at: int,
    holder: int,
    *,
    envelope_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Each run's training loss against the compute it had spent (a thin line, coloured by its model size ``size[i]``
    of ``size_names``), their lower envelope (thick), the envelope's point at ``grid[at]`` marked and the run that
    holds it there (``holder``) drawn bold; log-log."""
    colours = ramp(len(size_names))
    fig = go.Figure()
    shown: set[int] = set()
    for i, (xs, ys, k) in enumerate(zip(flops, loss, size)):
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                name=size_names[k],
                legendgroup=size_names[k],
                showlegend=k not in shown,
                opacity=1.0 if i == holder else 0.5,
                line={"color": colours[k], "width": 3.5 if i == holder else 1.2},
                hovertemplate=size_names[k] + " · C %{x:.2e}: %{y:.3f}<extra></extra>",
            )
        )
        shown.add(k)
    fig.add_trace(
        go.Scatter(
            x=grid,
            y=best,
            mode="lines",
            name=envelope_name,
            line={"color": LIMIT, "width": 3},
            hovertemplate=envelope_name + " · C %{x:.2e}: %{y:.3f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[grid[at]],
            y=[best[at]],
            mode="markers",
            showlegend=False,
            marker={"color": LAW_COLOURS["ours"], "size": 13, "line": {"width": 2, "color": "white"}},
            hoverinfo="skip",
        )
    )
    _log_axes(fig, x_title, y_title)
    return legend_above(fig, 420, top=60)


@cached
def isoflop(
    profiles: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float, float, str]],
    names: list[str],
    kinds: dict[str, str],
    *,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """One IsoFLOP profile per compute: the runs (markers), the parabola in ln N (line) and its minimum — a filled
    star within the profile's sizes, a hollow one where the parabola puts it beyond them, a cross on the lowest run
    where the parabola opens downward. ``profiles``: (N, loss, parabola N, parabola loss, N_opt, loss there, kind);
    ``kinds``: the legend's name of each kind ("inside", "outside", "none")."""
    colours = ramp(len(names))
    marks = {
        "inside": {"symbol": "star", "color": LIMIT},
        "outside": {"symbol": "star-open", "color": "#888888"},
        "none": {"symbol": "x-thin-open", "color": "#888888"},
    }
    fig = go.Figure()
    shown = set()
    for i, ((n, loss, pn, pl, n_opt, l_opt, kind), name) in enumerate(zip(profiles, names)):
        fig.add_trace(
            go.Scatter(
                x=n,
                y=loss,
                mode="markers",
                name=name,
                legendgroup=name,
                legendrank=i,
                marker={"color": colours[i], "size": 9, "line": {"width": 1, "color": "white"}},
                hovertemplate="N %{x:,.0f}: %{y:.3f}<extra>" + name + "</extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=pn,
                y=pl,
                mode="lines",
                legendgroup=name,
                showlegend=False,
                line={"color": colours[i], "width": 1.5},
                hoverinfo="skip",
            )
        )
        mark = marks[kind]
        fig.add_trace(
            go.Scatter(
                x=[n_opt],
                y=[l_opt],
                mode="markers",
                name=kinds[kind],
                legendgroup=kind,
                legendrank=100 + list(marks).index(kind),
                showlegend=kind not in shown,
                marker={**mark, "size": 15, "line": {"width": 1.5, "color": mark["color"]}},
                hovertemplate=kinds[kind] + " · N %{x:,.0f}: %{y:.3f}<extra>" + name + "</extra>",
            )
        )
        shown.add(kind)
    fig.update_xaxes(type="log", title=x_title, exponentformat="power")
    fig.update_yaxes(title=y_title)
    return legend_above(fig, 420, top=60)


@cached
def frontier(
    c: np.ndarray,
    n_opt: dict[str, np.ndarray],
    names: dict[str, str],
    chosen: float,
    trained: list[tuple[str, float, float]],
    sweep: tuple[float, float] | None,
    *,
    sweep_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Compute-optimal N against C (log-log) for each law; the chosen budget as a vertical line; published models at
    (6·N·D, N); the sweep's compute range shaded."""
    fig = go.Figure()
    if sweep is not None:
        fig.add_vrect(x0=sweep[0], x1=sweep[1], fillcolor=LAW_COLOURS["ours"], opacity=0.12, line_width=0)
        fig.add_trace(
            go.Scatter(
                x=[np.sqrt(sweep[0] * sweep[1])],
                y=[None],
                mode="markers",
                name=sweep_name,
                marker={"symbol": "square", "size": 12, "color": LAW_COLOURS["ours"], "opacity": 0.25},
            )
        )
    for law, n in n_opt.items():
        fig.add_trace(
            go.Scatter(
                x=c,
                y=n,
                mode="lines",
                name=names[law],
                line={"color": LAW_COLOURS[law], "width": 2},
                hovertemplate=names[law] + " · C %{x:.2e}: N %{y:.3s}<extra></extra>",
            )
        )
    fig.add_vline(x=chosen, line={"color": LIMIT, "width": 1, "dash": "dot"})
    symbols = ("diamond", "square", "circle")
    for (name, cc, n), symbol in zip(trained, symbols):
        fig.add_trace(
            go.Scatter(
                x=[cc],
                y=[n],
                mode="markers",
                name=name,
                marker={"symbol": symbol, "size": 10, "color": LIMIT},
                hovertemplate=name + " · C %{x:.2e}: N %{y:.3s}<extra></extra>",
            )
        )
    _log_axes(fig, x_title, y_title)
    return legend_above(fig, 440, top=60)


@cached
def zero_bars(stages: list[str], parts: np.ndarray, part_names: list[str], *, unit: str, scale: float) -> go.Figure:
    """(4 stages, 3 parts) bytes per device as stacked bars, labelled with each stage's total in ``unit``."""
    fig = go.Figure()
    values = parts / scale
    for j, name in enumerate(part_names):
        fig.add_trace(
            go.Bar(
                x=stages,
                y=values[:, j],
                name=name,
                marker_color=PART_COLOURS[j],
                hovertemplate=name + ": %{y:,.3g} " + unit + "<extra>%{x}</extra>",
            )
        )
    totals = values.sum(1)
    fig.add_trace(
        go.Scatter(
            x=stages,
            y=totals,
            mode="text",
            text=[f"{v:,.3g} {unit}" for v in totals],
            textposition="top center",
            showlegend=False,
            hoverinfo="skip",
        )
    )
    fig.update_layout(barmode="stack")
    fig.update_yaxes(title=unit, range=[0, totals.max() * 1.18])
    return legend_above(fig, 340, top=30)


# ---- Megatron's split, as HTML -------------------------------------------------------------------------------------

_BOX = (
    f"border:1px solid {var('border')};border-radius:6px;padding:4px 8px;font-size:13px;line-height:1.35;"
    "background:{bg}"
)
_OP = "border-radius:50%;width:34px;height:34px;display:flex;align-items:center;justify-content:center;font-weight:700"


def _box(text: str, bg: str = var("box-bg"), extra: str = "") -> str:
    return f'<div style="{_BOX.format(bg=bg)};{extra}">{text}</div>'


def _op(symbol: str, colour: str, title: str) -> str:
    return (
        f'<div title="{esc(title)}" style="{_OP};border:2px solid {colour};color:{colour};flex:none">{esc(symbol)}'
        "</div>"
    )


def megatron_diagram(
    rows: list[tuple[str, list[str]]], *, input_label: str, output_label: str, f_title: str, g_title: str
) -> str:
    """Each sublayer (attention, MLP) as a row: X → f → one lane per device (what that device computes) → g → Y.
    ``rows``: (sublayer title, one text per device). f: identity forward, all-reduce of the gradient backward;
    g: all-reduce forward, identity backward."""
    arrow = '<div style="flex:none;color:#888">→</div>'
    out = []
    for title, lanes in rows:
        lane_html = "".join(
            _box(
                esc(text),
                bg=var("box-bg-soft"),
                extra=f"border-left:5px solid {DEVICE_COLOURS[i % len(DEVICE_COLOURS)]}",
            )
            for i, text in enumerate(lanes)
        )
        out.append(
            f'<div style="font-weight:600;margin:6px 0 4px">{esc(title)}</div>'
            '<div style="display:flex;align-items:center;gap:8px;flex-wrap:wrap">'
            f"{_box(esc(input_label))}{arrow}{_op('f', '#1f77b4', f_title)}{arrow}"
            f'<div style="display:flex;flex-direction:column;gap:4px;flex:1 1 260px;min-width:0">{lane_html}</div>'
            f"{arrow}{_op('g', '#d62728', g_title)}{arrow}{_box(esc(output_label))}"
            "</div>"
        )
    return '<div style="margin:4px 0 8px">' + "".join(out) + "</div>"
