"""Figures of the GPT page: next-token bars, sampling before/after with the nucleus line, the logit lens grid,
and per-token loss on a repeated sequence. Pure functions: numpy and translated labels in, Plotly figures out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached, from_dicts
from app.shared.plots import fixed_layout, fixed_margins, label_px
from app.shared.tokens import visible

BEFORE, AFTER, CUT = "#9aa5b1", "#1f77b4", "#d62728"
# Plotly's toolbar covers the top ~30 px of a figure's right side, most of the width on a phone (390 px): the figures
# leave that strip empty, and put their legends in rows under the plot (anchored to the figure's bottom edge, the
# margin growing to fit the rows a narrow screen needs).
TOOLBAR = 36
LEGEND_BELOW = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"}


@cached
def next_token_bars(pieces: list[str], probs: np.ndarray, *, value_title: str = "probability") -> go.Figure:
    """Horizontal bars, most likely token on top. Built from dicts (``from_dicts``): a new text builds it anew."""
    labels = [f"{i + 1}. {visible(p)}" for i, p in enumerate(pieces)]
    bars = {
        "type": "bar",
        "x": probs,
        "y": labels,
        "orientation": "h",
        "marker": {"color": AFTER},
        "text": [f"{p:.1%}" for p in probs],
        "textposition": "outside",
        "cliponaxis": False,
        "hovertemplate": "%{y}: %{x:.4f}<extra></extra>",
    }
    layout = {
        "yaxis": {"autorange": "reversed", "type": "category"},
        "xaxis": {
            "title": {"text": value_title},
            "rangemode": "tozero",
            "range": [0, max(0.05, float(np.max(probs)) * 1.2)],
        },
        "height": int(90 + 24 * len(labels)),
    }
    # margins set here, not measured by Plotly (a step or a new text redraws it): the labels' room, ticks and title
    return from_dicts([bars], fixed_layout(layout, ("xaxis", "yaxis"), l=14 + label_px(labels), r=30, t=TOOLBAR, b=48))


@cached
def sampling_bars(
    pieces: list[str],
    before: np.ndarray,
    after: np.ndarray,
    cumulative: np.ndarray,
    top_p: float,
    *,
    before_name: str,
    after_name: str,
    cumulative_name: str,
    cut_name: str,
    value_title: str = "probability",
) -> go.Figure:
    """Bars before and after temperature/top-k/top-p for the most likely ids, the tempered cumulative mass as a
    line, and the nucleus threshold p as a dashed line: ids whose bar vanished were cut. Built from dicts
    (``from_dicts``): a new text or a new setting builds it anew."""
    labels = [f"{i + 1}. {visible(p)}" for i, p in enumerate(pieces)]
    cut = after <= 0
    traces = [
        {
            "type": "bar",
            "x": labels,
            "y": before,
            "name": before_name,
            "marker": {"color": BEFORE},
            "hovertemplate": "%{x}: %{y:.4f}<extra>" + before_name + "</extra>",
        },
        {
            "type": "bar",
            "x": labels,
            "y": after,
            "name": after_name,
            "marker": {"color": [CUT if c else AFTER for c in cut]},
            "hovertemplate": "%{x}: %{y:.4f}<extra>" + after_name + "</extra>",
        },
        {
            "type": "scatter",
            "x": labels,
            "y": cumulative,
            "name": cumulative_name,
            "mode": "lines+markers",
            "yaxis": "y2",
            "line": {"color": "#444", "width": 1.5},
            "marker": {"size": 5},
            "hovertemplate": "%{x}: %{y:.3f}<extra>" + cumulative_name + "</extra>",
        },
    ]
    layout = {
        "barmode": "group",
        "height": 420,
        "legend": LEGEND_BELOW,
        "yaxis": {"title": {"text": value_title}, "rangemode": "tozero"},
        "yaxis2": {
            "overlaying": "y",
            "side": "right",
            "range": [0, 1.05],
            "showgrid": False,
            "tickvals": [0, 0.25, 0.5, 0.75, 1.0],
            "tickformat": ".0%",
        },
        "xaxis": {"tickangle": -45, "type": "category"},
    }
    if top_p < 1:  # the nucleus line across the plot, at p on the cumulative axis, labelled at its left end
        line = {"xref": "x domain", "x0": 0, "x1": 1, "yref": "y2", "y0": top_p, "y1": top_p}
        layout["shapes"] = [{"type": "line", **line, "line": {"color": CUT, "dash": "dash", "width": 1.5}}]
        layout["annotations"] = [
            {
                "text": f"{cut_name} p = {top_p:.2f}",
                "showarrow": False,
                "xref": "x domain",
                "x": 0,
                "xanchor": "left",
                "yref": "y2",
                "y": top_p,
                "yanchor": "bottom",
            }
        ]
    # set here, not measured by Plotly (a step or a control redraws it): the probability axis and its title on the
    # left, the cumulative percentages on the right, the labels turned by 45° and a row of legend under the plot
    fixed_layout(layout, ("xaxis", "yaxis", "yaxis2"), l=64, r=48, t=TOOLBAR, b=52 + round(0.71 * label_px(labels)))
    return from_dicts(traces, layout)


@cached
def lens_grid(
    pieces: np.ndarray,
    probs: np.ndarray,
    position_labels: list[str],
    layer_labels: list[str],
    *,
    value_title: str = "probability",
    position_title: str = "position",
    layer_title: str = "layer",
    title: str = "",
) -> go.Figure:
    """(layers, positions) grid: each cell names the top next token read from that layer's residual stream and is
    shaded by its probability. Rows are shorter for a deep model (31 rows of a 30-layer one)."""
    text = [[visible(str(p))[:10] for p in row] for row in pieces]
    row_px = 44 if len(layer_labels) <= 12 else 24
    fig = go.Figure(
        go.Heatmap(
            z=probs,
            text=text,
            texttemplate="%{text}",
            textfont={"size": 11 if len(layer_labels) <= 12 else 10},
            colorscale="Blues",
            zmin=0,
            zmax=1,
            x=list(range(len(position_labels))),
            y=list(range(len(layer_labels))),
            customdata=[
                [f"{position_labels[j]} → {text[i][j]}" for j in range(len(position_labels))]
                for i in range(len(layer_labels))
            ],
            hovertemplate="%{customdata}<br>" + value_title + ": %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    _layers_by_positions(fig, layer_labels, position_labels, layer_title, position_title)
    fig.update_layout(
        height=int(170 + TOOLBAR + row_px * len(layer_labels)), margin={"l": 10, "r": 10, "t": 100 + TOOLBAR, "b": 10}
    )
    if title:
        heading = {"text": title, "x": 0, "xanchor": "left", "y": 1, "yanchor": "top", "yref": "container"}
        fig.update_layout(title={**heading, "pad": {"t": 6}, "font": {"size": 13}})
    return fig


@cached
def loss_by_position(
    loss: np.ndarray,
    length: int,
    *,
    loss_title: str,
    position_title: str,
    first_name: str,
    second_name: str,
    uniform: float | None = None,
    uniform_name: str = "",
) -> go.Figure:
    """Per-token loss over the sequence, the first copy and the repeat in two colours; ``uniform`` (nats) draws the
    loss of a uniform guess as a dotted line."""
    pos = np.arange(1, len(loss) + 1)  # target positions
    first = pos <= length
    fig = go.Figure()
    fig.add_bar(x=pos[first], y=loss[first], name=first_name, marker_color=BEFORE)
    fig.add_bar(x=pos[~first], y=loss[~first], name=second_name, marker_color=AFTER)
    fig.add_vline(x=length + 0.5, line={"dash": "dash", "color": "#555"})
    if uniform is not None:
        fig.add_hline(
            y=uniform,
            line={"dash": "dot", "color": "#d62728"},
            annotation_text=uniform_name,
            annotation_position="top right",
            annotation_font_color="#d62728",
        )
    fig.update_layout(
        height=330,
        bargap=0.05,
        margin={"l": 10, "r": 10, "t": TOOLBAR, "b": 10},
        legend=LEGEND_BELOW,
        xaxis={"title": position_title},
        yaxis={"title": loss_title, "rangemode": "tozero"},
    )
    return fig


@cached
def head_scores(scores: np.ndarray, *, layer_title: str, head_title: str, value_title: str) -> go.Figure:
    """(L, H) small heatmap of a score per head, value printed in each cell (rows shorter for a deep model)."""
    L, H = scores.shape
    fig = go.Figure(
        go.Heatmap(
            z=scores,
            x=[f"{head_title} {h}" if H <= 6 else str(h) for h in range(H)],
            y=[f"{layer_title} {i}" for i in range(L)],
            colorscale="Oranges",
            zmin=0,
            zmax=1,
            texttemplate="%{z:.2f}",
            textfont={"size": 12 if L <= 12 else 10},
            hovertemplate="%{y}, %{x}: %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_yaxes(autorange="reversed")
    if H > 6:
        fig.update_xaxes(title=head_title, side="top")
    fig.update_layout(
        height=int(96 + (46 if L <= 12 else 22) * L), margin={"l": 10, "r": 10, "t": TOOLBAR + 20, "b": 10}
    )
    return fig


@cached
def patching_map(
    restored: np.ndarray,
    position_labels: list[str],
    layer_labels: list[str],
    *,
    value_title: str = "restored",
    position_title: str = "position",
    layer_title: str = "layer",
) -> go.Figure:
    """(layers, positions) restored logit difference, 0 white (corrupted), 1 deep red (clean), negative blue; each
    cell written out where the grid is small enough to read."""
    small = restored.size <= 400
    fig = go.Figure(
        go.Heatmap(
            z=restored,
            text=[[f"{v:.2f}".replace("-0.00", "0.00") for v in row] for row in restored] if small else None,
            texttemplate="%{text}" if small else None,
            textfont={"size": 10},
            colorscale="RdBu",
            reversescale=True,
            zmid=0,
            zmin=-1,
            zmax=1,
            x=list(range(len(position_labels))),
            y=list(range(len(layer_labels))),
            customdata=[
                [f"{layer_labels[i]} · {position_labels[j]}" for j in range(len(position_labels))]
                for i in range(len(layer_labels))
            ],
            hovertemplate="%{customdata}<br>" + value_title + ": %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    _layers_by_positions(fig, layer_labels, position_labels, layer_title, position_title)
    row_px = 40 if len(layer_labels) <= 12 else 20
    fig.update_layout(
        height=int(150 + TOOLBAR + row_px * len(layer_labels)), margin={"l": 10, "r": 10, "t": 90 + TOOLBAR, "b": 10}
    )
    return fig


def _layers_by_positions(fig, layer_labels, position_labels, layer_title: str, position_title: str) -> None:
    """The axes of a layer × position grid (the logit lens, activation patching): positions along the top, labelled
    by their token (cut to 10 characters), layers down the side, first on top."""
    fig.update_xaxes(
        title=position_title,
        tickmode="array",
        tickvals=list(range(len(position_labels))),
        ticktext=[visible(p)[:10] for p in position_labels],
        tickangle=-50,
        side="top",
    )
    fig.update_yaxes(
        title=layer_title,
        tickmode="array",
        tickvals=list(range(len(layer_labels))),
        ticktext=layer_labels,
        autorange="reversed",
    )


HEAD_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")


# The training figures' margins, set here rather than measured by Plotly (a step move redraws both): the scores' and
# losses' ticks on the left, the subplot titles above, and under the plot the steps, their title and a row of legend.
STEP_MARGINS = {"l": 44, "r": 24, "t": TOOLBAR + 20, "b": 90}


def _step_marks(fig: go.Figure, formed: int | None, current: int, formed_name: str, rows: int) -> None:
    """The formation step (dashed, named in the legend; None: not formed yet) and the step the page shows (solid)
    on every row."""
    for row in range(1, rows + 1):
        if formed is not None:
            fig.add_vline(x=formed, line={"dash": "dash", "color": CUT, "width": 1.5}, row=row, col=1)
        fig.add_vline(x=current, line={"color": "#444", "width": 2}, opacity=0.5, row=row, col=1)
    if formed is not None:  # a legend entry for the dashed line: a label over the plot ran into the row titles
        fig.add_trace(
            go.Scatter(x=[None], y=[None], mode="lines", name=formed_name, line={"dash": "dash", "color": CUT}),
            row=1,
            col=1,
        )


@cached
def head_scores_over_steps(
    measured: np.ndarray,
    induction: np.ndarray,
    prev: np.ndarray,
    head_labels: list[str],
    formed: int | None,
    current: int,
    *,
    titles: tuple[str, str],
    step_title: str,
    formed_name: str,
) -> go.Figure:
    """Every head's induction score (top) and previous-token score (bottom) over the training steps: one line per
    head, coloured alike in both rows, with the formation step and the shown step marked."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=titles)
    n = induction.shape[1] * induction.shape[2]
    for i in range(n):
        layer, head = divmod(i, induction.shape[2])
        colour = HEAD_COLOURS[i % len(HEAD_COLOURS)]
        for row, scores in ((1, induction), (2, prev)):
            fig.add_trace(
                go.Scatter(
                    x=measured,
                    y=scores[:, layer, head],
                    mode="lines",
                    name=head_labels[i],
                    legendgroup=head_labels[i],
                    showlegend=row == 1,
                    line={"color": colour, "width": 2},
                    hovertemplate=f"{head_labels[i]} · %{{x}}: %{{y:.2f}}<extra></extra>",
                ),
                row=row,
                col=1,
            )
    _step_marks(fig, formed, current, formed_name, 2)
    fig.update_yaxes(range=[0, 1.05])
    fig.update_xaxes(title_text=step_title, row=2, col=1)
    fig.update_layout(height=460, legend=LEGEND_BELOW)
    return fixed_margins(fig, **STEP_MARGINS)


@cached
def losses_over_steps(
    steps: np.ndarray,
    loss: np.ndarray,
    measured: np.ndarray,
    loss_first: np.ndarray,
    loss_repeat: np.ndarray,
    icl: np.ndarray,
    formed: int | None,
    current: int,
    *,
    names: tuple[str, str, str, str],
    titles: tuple[str, str],
    step_title: str,
    formed_name: str,
    smooth: int = 25,
) -> go.Figure:
    """Top: the training loss (a running mean of ``smooth`` steps) and, measured on held-out sequences shown twice, the
    loss on the first copy and on the repeat. Bottom: the in-context-learning score (loss late in a text minus loss
    early). The formation step and the shown step marked."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=titles)
    k = min(smooth, len(loss))
    smooth = np.convolve(loss, np.ones(k) / k, mode="valid") if k else loss
    lines = (
        (steps[k - 1 :] if k else steps, smooth, names[0], BEFORE, 1),
        (measured, loss_first, names[1], AFTER, 1),
        (measured, loss_repeat, names[2], "#2ca02c", 1),
        (measured, icl, names[3], "#9467bd", 2),
    )
    for x, y, name, colour, row in lines:
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines",
                name=name,
                line={"color": colour, "width": 2},
                hovertemplate=f"{name} · %{{x}}: %{{y:.3f}}<extra></extra>",
            ),
            row=row,
            col=1,
        )
    _step_marks(fig, formed, current, formed_name, 2)
    fig.add_hline(y=0, line={"color": "#888", "width": 1}, row=2, col=1)
    fig.update_xaxes(title_text=step_title, row=2, col=1)
    fig.update_layout(height=460, legend=LEGEND_BELOW)
    return fixed_margins(fig, **STEP_MARGINS)
