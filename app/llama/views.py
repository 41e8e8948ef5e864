"""Figures of the LLaMA-family page: one token's residual stream with its mean, the mean's share of the RMS at every
norm, SwiGLU's gate, up projection and product for one token, the head groupings of MHA / GQA / MQA, validation loss
against KV-cache bytes, and the caches growing while the three models write. Pure functions: numpy in, Plotly out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.plots import fixed_margins, legend_below, unchecked_labels

QUERY, KV, MEAN, RMS = "#1f77b4", "#d62728", "#d62728", "#555"
SIBLING_COLOURS = ("#2ca02c", "#1f77b4", "#ff7f0e")  # MHA, GQA, MQA
GROUP_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")  # by KV head
GATE, UP, PRODUCT = "#ff7f0e", "#1f77b4", "#6a3d9a"
# Plotly's toolbar (and Streamlit's full-screen button) sit at a figure's top right and cover whatever is there: on a
# phone a centred title or a legend reaches that corner. Figures with text along their top stand the toolbar upright
# in a strip of right margin kept for it; the gating figure, whose colour bar fills its right margin, keeps the
# toolbar flat and leaves a band at the top clear instead.
TOOLBAR_STRIP = 40  # px of right margin for the upright toolbar
TOOLBAR_BAND = 30  # px at the top that the flat toolbar covers


# More bars than this (our model's 192 channels and 512 hidden units, a real model's 576 channels, 1536 hidden units)
# are drawn as one filled line: 3 · 512 bars were the costliest figure of a token move, and 192 bars still made the
# browser build and lay out 192 SVG elements on every move (a few pixels wide each, the line looks the same).
MAX_BARS = 128


def _bars(
    x: np.ndarray, y: np.ndarray, colour: str, *, name=None, customdata=None, hover: str = ""
) -> go.BaseTraceType:
    """Bars, or past MAX_BARS one filled step line that looks the same: the browser draws one path instead of an
    SVG element per bar (three rows of 1536 bars took seconds on every token move, of 512 over 100 ms)."""
    common = {"x": x, "y": y, "name": name, "customdata": customdata, "showlegend": name is not None,
              "hovertemplate": hover + "<extra></extra>"}  # fmt: skip
    if len(x) <= MAX_BARS:
        return go.Bar(marker_color=colour, marker_line_width=0, **common)
    return go.Scatter(mode="lines", line={"color": colour, "width": 1, "shape": "hvh"}, fill="tozeroy", **common)


def _upright_toolbar(fig: go.Figure) -> go.Figure:
    """The toolbar stood upright in a right-hand strip of its own, clear of titles and legends along the top."""
    fig.update_layout(modebar={"orientation": "v"}, margin={"r": TOOLBAR_STRIP})
    return fig


@cached
def channels(x: np.ndarray, *, channel_title: str, value_title: str, mean_name: str, rms_name: str) -> go.Figure:
    """(C,) one token's residual stream as bars, with its mean μ (what LayerNorm subtracts) and ±RMS (what both
    divide by) as horizontal lines."""
    mu, rms = float(x.mean()), float(np.sqrt((x**2).mean()))
    fig = go.Figure(_bars(np.arange(len(x)), x, "#9ecae1", name=value_title, hover=channel_title + " %{x}: %{y:.3f}"))
    for y, name, colour, dash in ((mu, mean_name, MEAN, None), (rms, rms_name, RMS, "dot"), (-rms, None, RMS, "dot")):
        fig.add_trace(
            go.Scatter(
                x=[-0.5, len(x) - 0.5],
                y=[y, y],
                mode="lines",
                name=name,
                showlegend=name is not None,
                line={"color": colour, "width": 2, "dash": dash},
                hovertemplate=f"{name or rms_name}: {y:.3f}<extra></extra>",
            )
        )
    fig.update_xaxes(title=channel_title, range=[-0.5, len(x) - 0.5])
    fig.update_yaxes(title=value_title)
    legend_below(fig, 320, top=30, y=-0.18)
    fig.update_layout(legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right"})
    # margins set here, not grown by Plotly (automargin, autoexpand): a token move draws this figure once, without
    # automargin's second pass; room for a real model's wide values (−1000) and the axis titles
    return fixed_margins(_upright_toolbar(fig), l=72, r=TOOLBAR_STRIP, t=30, b=44, autoexpand=False)


@cached
def mean_share(
    share: np.ndarray,
    change: np.ndarray,
    chosen: tuple[int, int],
    *,
    point_names: list[str],
    share_name: str,
    change_name: str,
    token_name: str,
    y_title: str,
    x_title: str = "",
) -> go.Figure:
    """(P, T) |μ|/RMS and the relative change LayerNorm would make, at every point of the stream: the mean over the
    tokens as lines, every token as faint dots, the chosen (point, token) ringed. Percentages."""
    P, T = share.shape
    fig = go.Figure()
    xs = np.repeat(np.arange(P), T) + np.tile(np.linspace(-0.12, 0.12, T), P)
    for values, name, colour, offset in ((share, share_name, MEAN, -0.18), (change, change_name, QUERY, 0.18)):
        fig.add_trace(
            go.Scatter(
                x=xs + offset,
                y=100 * values.ravel(),
                mode="markers",
                marker={"color": colour, "size": 4, "opacity": 0.25},
                showlegend=False,
                hoverinfo="skip",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=np.arange(P) + offset,
                y=100 * values.mean(1),
                mode="lines+markers",
                name=name,
                line={"color": colour, "width": 2},
                marker={"size": 8},
                hovertemplate=name + ": %{y:.2f}%<extra></extra>",
            )
        )
        p, t = chosen
        fig.add_trace(
            go.Scatter(
                x=[xs[p * T + t] + offset],
                y=[100 * values[p, t]],
                mode="markers",
                marker={"color": "rgba(0,0,0,0)", "size": 13, "line": {"color": "#111", "width": 2}},
                name=token_name,
                showlegend=offset < 0,
                hovertemplate=token_name + ": %{y:.2f}%<extra></extra>",
            )
        )
    every = 1 if P <= 12 else 5  # 31 names of a real model's norms: every fifth and the last
    shown = [n if i % every == 0 or i == P - 1 else "" for i, n in enumerate(point_names)]
    fig.update_xaxes(tickmode="array", tickvals=list(range(P)), ticktext=shown, title=x_title or None)
    if every > 1:
        fig.update_xaxes(tickangle=0)
    fig.update_yaxes(title=y_title, rangemode="tozero", ticksuffix="%")
    legend_below(fig, 320, top=30, y=-0.18)
    fig.update_layout(legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right"})
    return unchecked_labels(_upright_toolbar(fig))


@cached
def gating(
    gate: np.ndarray,
    up: np.ndarray,
    product: np.ndarray,
    closed_below: float,
    *,
    gate_title: str,
    up_title: str,
    product_title: str,
    closed_name: str,
) -> go.Figure:
    """Each hidden unit of one token as a dot: SiLU(W₁x) across, W₃x up, coloured by their product; the band of
    closed gates shaded. A closed gate silences its unit whatever W₃x says."""
    lim = float(np.abs(product).max()) or 1.0
    fig = go.Figure()
    fig.add_vrect(x0=-closed_below, x1=closed_below, fillcolor="#bbb", opacity=0.35, line_width=0)
    fig.add_trace(
        go.Scatter(
            x=gate,
            y=up,
            mode="markers",
            name=closed_name,
            showlegend=False,
            customdata=np.stack([np.arange(len(gate)), product], axis=-1),
            marker={
                "color": product,
                "colorscale": "RdBu",
                "cmin": -lim,
                "cmax": lim,
                "size": 6,
                "line": {"width": 0},
                "colorbar": {"thickness": 12, "title": {"text": product_title, "side": "right"}},
            },
            hovertemplate="#%{customdata[0]}: "
            + gate_title
            + " %{x:.3f}, "
            + up_title
            + " %{y:.3f} → %{customdata[1]:.3f}<extra></extra>",
        )
    )
    fig.add_annotation(x=0, y=1, yref="paper", text=closed_name, showarrow=False, yanchor="bottom", font={"size": 11})
    fig.update_xaxes(title=gate_title, zeroline=True)
    fig.update_yaxes(title=up_title, zeroline=True)
    return unchecked_labels(legend_below(fig, 360 + TOOLBAR_BAND, top=24 + TOOLBAR_BAND, y=-0.18))


@cached
def sorted_units(
    gate: np.ndarray, up: np.ndarray, product: np.ndarray, *, names: tuple[str, str, str], unit_title: str
) -> go.Figure:
    """The three vectors of one token, units sorted by |gate ⊙ up| (largest first), as three aligned rows of bars."""
    order = np.argsort(-np.abs(product), kind="stable")
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.12, subplot_titles=names)
    for row, (values, colour) in enumerate(((gate, GATE), (up, UP), (product, PRODUCT)), start=1):
        fig.add_trace(
            _bars(np.arange(len(values)), values[order], colour, customdata=order, hover="#%{customdata}: %{y:.3f}"),
            row=row,
            col=1,
        )
    fig.update_xaxes(title=unit_title, row=3, col=1)
    fig.update_annotations(font={"size": 12})
    return fixed_margins(  # set here, not grown by Plotly, as ``channels``
        _upright_toolbar(legend_below(fig, 380, top=24, y=-0.18)),
        l=56,
        r=TOOLBAR_STRIP,
        t=24,
        b=44,
        autoexpand=False,
    )


@cached
def grouping(n_heads: int, n_kv_heads: int, *, title: str, query_name: str, kv_name: str) -> go.Figure:
    """Query heads on top, key/value heads below, a line from each query head to the key/value head it reads
    (⌊h / (H/G)⌋)."""
    per = n_heads // n_kv_heads
    qx = np.arange(n_heads, dtype=float)
    kx = np.array([g * per + (per - 1) / 2 for g in range(n_kv_heads)])
    fig = go.Figure()
    xs: list[float | None] = []
    ys: list[float | None] = []
    for h in range(n_heads):
        xs += [qx[h], kx[h // per], None]
        ys += [1, 0, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line={"color": "#999", "width": 2}, hoverinfo="skip"))
    fig.add_trace(
        go.Scatter(
            x=qx,
            y=np.ones(n_heads),
            mode="markers+text",
            marker={"symbol": "square", "size": 30, "color": QUERY},
            text=[f"Q{h}" for h in range(n_heads)],
            textfont={"color": "white", "size": 11},
            hovertemplate=query_name + " %{text}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=kx,
            y=np.zeros(n_kv_heads),
            mode="markers+text",
            marker={"symbol": "square", "size": 30, "color": KV},
            text=[f"KV{g}" for g in range(n_kv_heads)],
            textfont={"color": "white", "size": 10},
            hovertemplate=kv_name + " %{text}<extra></extra>",
        )
    )
    fig.update_xaxes(visible=False, range=[-0.7, n_heads - 0.3])
    fig.update_yaxes(visible=False, range=[-0.45, 1.45])
    fig.update_layout(showlegend=False, title={"text": title, "x": 0.5, "xanchor": "center", "font": {"size": 13}})
    return _upright_toolbar(legend_below(fig, 190, top=36, y=-0.18))


@cached
def cache_growth(
    names: list[str],
    positions: list[np.ndarray],
    measured_kib: list[np.ndarray],
    formula_kib: list[np.ndarray],
    *,
    x_title: str,
    y_title: str,
    formula_name: str,
    colours: list[str],
) -> go.Figure:
    """KV cache KiB against cached positions while each sibling writes: measured from the tensors (lines) and
    2 · L · G · D · bytes · positions (open markers on them)."""
    fig = go.Figure()
    for name, x, y, f, colour in zip(names, positions, measured_kib, formula_kib, colours):
        fig.add_trace(
            go.Scatter(
                x=x, y=y, mode="lines", name=name, line={"color": colour, "width": 3}, hovertemplate="%{y:.1f} KiB"
            )
        )
        step = max(1, len(x) // 12)
        fig.add_trace(
            go.Scatter(
                x=x[::step],
                y=f[::step],
                mode="markers",
                name=f"{name}: {formula_name}",
                marker={"symbol": "circle-open", "size": 9, "color": "#111"},
                showlegend=False,
                hovertemplate=formula_name + ": %{y:.1f} KiB",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[None], y=[None], mode="markers", marker={"symbol": "circle-open", "color": "#111"}, name=formula_name
        )
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    fig.update_layout(hovermode="x unified")
    return legend_below(fig, 340, 10, y=-0.18)


def seed_layout(fig: go.Figure) -> go.Figure:
    """The page's layout for app.shared.seeds.two_seed_scatter, with room on the right for the last point's label."""
    right = max((max((x for x in trace.x if x is not None), default=0) for trace in fig.data), default=0)
    fig.update_xaxes(range=[0, 1.2 * right])
    return legend_below(fig, 320, top=24, y=-0.26)  # under the x title, which is taller in Chinese


@cached
def head_scores(
    scores: dict[str, np.ndarray],
    kv: np.ndarray,
    chosen: int,
    *,
    head_names: list[str],
    kv_names: list[str],
    y_title: str,
) -> go.Figure:
    """One layer's query heads side by side, a group of bars per score (previous token, induction ...), each bar
    coloured by the key/value head its query head reads, the chosen head outlined: heads that share keys sit in
    one colour."""
    names = list(scores)
    fig = make_subplots(rows=1, cols=len(names), shared_yaxes=True, subplot_titles=names, horizontal_spacing=0.04)
    colours = [GROUP_COLOURS[g % len(GROUP_COLOURS)] for g in kv]
    lines = [2.5 if h == chosen else 0 for h in range(len(kv))]
    for col, name in enumerate(names, start=1):
        fig.add_trace(
            go.Bar(
                x=head_names,
                y=np.nan_to_num(scores[name]),
                marker={"color": colours, "line": {"color": "#111", "width": lines}},
                customdata=[kv_names[g] for g in kv],
                showlegend=False,
                hovertemplate="%{x} → %{customdata}: %{y:.2f}<extra>" + name + "</extra>",
            ),
            row=1,
            col=col,
        )
        fig.update_xaxes(tickangle=-90 if len(kv) > 6 else 0, tickfont={"size": 10}, row=1, col=col)
    for g in sorted(set(kv.tolist())):  # one legend entry per key/value head, in its colour
        fig.add_trace(go.Bar(x=[None], y=[None], marker_color=GROUP_COLOURS[g % len(GROUP_COLOURS)], name=kv_names[g]))
    fig.update_yaxes(title=y_title, range=[0, 1], row=1, col=1)
    fig.update_annotations(font={"size": 12})
    legend_below(fig, 300, top=40, y=-0.32)
    return _upright_toolbar(fig)
