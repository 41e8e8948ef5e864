"""A quality-against-cost scatter of trained models with two seeds each (the LLaMA and DeepSeek-V3 pages)."""

from __future__ import annotations

import plotly.graph_objects as go


def two_seed_scatter(
    labels: list[str],
    colours: list[str],
    xs: list[float],
    ys: list[float],
    other_ys: list[float | None],
    *,
    x_title: str,
    y_title: str,
    seed_name: str,
    other_seed_name: str,
    x_unit: str = "",
) -> go.Figure:
    """One labelled point per model at (cost, quality): the shipped seed filled, the other seed hollow in the same
    colour (where it was measured), and a legend telling the two apart. Layout (height, margins) is the page's."""
    fig = go.Figure()
    for label, colour, x, y, other in zip(labels, colours, xs, ys, other_ys):
        for value, seed, marker in (
            (y, seed_name, {"size": 13, "color": colour}),
            (other, other_seed_name, {"size": 11, "color": "rgba(0,0,0,0)", "line": {"color": colour, "width": 2}}),
        ):
            if value is None:
                continue
            fig.add_trace(
                go.Scatter(
                    x=[x],
                    y=[value],
                    mode="markers+text" if seed == seed_name else "markers",
                    text=[label] if seed == seed_name else None,
                    textposition="top center",
                    marker=marker,
                    showlegend=False,
                    hovertemplate=f"{label} ({seed}): %{{y:.4f}}<extra>%{{x:.2f}} {x_unit}</extra>",
                )
            )
    for name, symbol in ((seed_name, "circle"), (other_seed_name, "circle-open")):
        fig.add_trace(
            go.Scatter(x=[None], y=[None], mode="markers", marker={"symbol": symbol, "color": "#444"}, name=name)
        )
    fig.update_xaxes(title=x_title, rangemode="tozero")
    fig.update_yaxes(title=y_title)
    return fig
