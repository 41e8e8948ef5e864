"""Figures of the DeepSeek-V3 page: cache per token of the four attentions, loss against cache, one token's latent and
the keys it makes, exact against absorbed attention scores with and without RoPE on the content keys, expert load over
training, the selection biases, expert counts on the text, tokens coloured by expert, and speculative decoding token by
token. Pure functions: numpy in, Plotly figure or escaped HTML out."""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.html import esc, span
from app.shared.plots import MARGIN, stepped
from app.shared.theme import var
from app.shared.tokens import TOKEN_BOX, strip_label, visible

KIND_COLOURS = {"MHA": "#2ca02c", "GQA": "#1f77b4", "MQA": "#ff7f0e", "MLA": "#d62728"}
LATENT, ROPE = "#6a3d9a", "#ff7f0e"
MODEL_COLOURS = ("#7f7f7f", "#d62728")  # switch, switch-auxfree
LAYER_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b")
EXPERT_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#eeca3b", "#9d755d")
ACCEPTED, OWN, REFUSED = "#2ca02c", "#e8e8e8", "#d62728"
# Plotly's toolbar sits over the top right of a figure, about 30 px tall, and on a phone (390 px) it spans most of
# the width: nothing is drawn there. Legends go in rows under the plot, titles just above the plot area.
TOOLBAR = 36


def below(fig: go.Figure, height: int, top: int = TOOLBAR) -> go.Figure:
    """Height, tight margins with room for the toolbar on top, and the legend in rows under the figure (anchored
    to its bottom edge, the margin growing to fit however many rows a narrow screen needs)."""
    fig.update_layout(
        height=height,
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        legend={
            "font": {"size": 11},
            "orientation": "h",
            "yref": "container",
            "y": 0,
            "yanchor": "bottom",
            "x": 0,
            "xanchor": "left",
        },
        hovermode="closest",
    )
    return fig


def titled(fig: go.Figure, title: str) -> go.Figure:
    """The title just above the plot area, under the toolbar's strip."""
    fig.update_layout(
        title={"text": title, "x": 0, "xanchor": "left", "yref": "paper", "y": 1, "yanchor": "bottom",
               "pad": {"b": 6}, "font": {"size": 13}},
        margin={"t": TOOLBAR + 26},
    )  # fmt: skip
    return fig


@cached
def cache_bars(names: list[str], kinds: list[str], numbers: list[int], *, x_title: str, title: str) -> go.Figure:
    """Numbers cached per token, one horizontal bar per design, labelled with the count and its share of the first."""
    first = numbers[0]
    fig = go.Figure(
        go.Bar(
            y=names,
            x=numbers,
            orientation="h",
            marker_color=[KIND_COLOURS[k] for k in kinds],
            text=[f"{n:,} ({n / first:.1%})" for n in numbers],
            textposition="auto",
            cliponaxis=False,
            hovertemplate="%{y}: %{x:,}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=x_title, rangemode="tozero")
    return titled(below(fig, 250), title)


@cached
def latent_bars(c_kv: np.ndarray, k_rope: np.ndarray, *, latent_name: str, rope_name: str, y_title: str) -> go.Figure:
    """(d_c,) the latent c_KV and (d_h^R,) the rotary key of one token: everything one layer caches for it."""
    K, R = len(c_kv), len(k_rope)
    fig = go.Figure()
    for x, y, name, colour in (
        (np.arange(K), c_kv, latent_name, LATENT),
        (np.arange(K, K + R), k_rope, rope_name, ROPE),
    ):
        fig.add_trace(
            go.Bar(
                x=x,
                y=y,
                name=name,
                marker_color=colour,
                marker_line_width=0,
                hovertemplate=name + " [%{x}]: %{y:.3f}<extra></extra>",
            )
        )
    fig.update_xaxes(title=f"{latent_name} 0 … {K - 1} · {rope_name} {K} … {K + R - 1}", range=[-0.5, K + R - 0.5])
    fig.update_yaxes(title=y_title)
    fig.update_layout(bargap=0.1)
    return below(fig, 320)


@cached
def head_vectors(vectors: np.ndarray, *, head_labels: list[str], x_title: str, value_title: str) -> go.Figure:
    """(H, d_h) the per-head vectors one latent makes (keys W_UK c_KV or values W_UV c_KV), one row per head."""
    lim = float(np.abs(vectors).max()) or 1.0
    fig = go.Figure(
        go.Heatmap(
            z=vectors,
            y=head_labels,
            colorscale="RdBu",
            zmin=-lim,
            zmax=lim,
            colorbar={"thickness": 10, "title": {"text": value_title, "side": "right"}},
            hovertemplate="%{y} · %{x}: %{z:.3f}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=x_title)
    return below(fig, 250)


@cached
def scores_pair(
    exact: np.ndarray,
    attempt: np.ndarray,
    labels: list[str],
    *,
    titles: tuple[str, str],
    query_title: str,
    key_title: str,
    value_title: str,
) -> go.Figure:
    """(T, T) causal scores of one head side by side: computed exactly and through the absorbed path, one colour
    scale; the masked (future) half left blank."""
    T = exact.shape[0]
    causal = np.tril(np.ones((T, T), dtype=bool))
    a, b = np.where(causal, exact, np.nan), np.where(causal, attempt, np.nan)
    lim = float(np.nanmax(np.abs(np.concatenate([a, b])))) or 1.0
    # each title on three lines (name, then the formula's two factors): side by side on a phone, one line each
    # would run into the other
    lines = [re.sub(r"([:：])\s*", r"\1<br>", title, count=1).replace(" · ", " ·<br>") for title in titles]
    fig = make_subplots(rows=1, cols=2, subplot_titles=lines, horizontal_spacing=0.06, shared_yaxes=True)
    ticks = [f"{i}:{visible(p)}" for i, p in enumerate(labels)]
    for col, z in ((1, a), (2, b)):
        fig.add_trace(
            go.Heatmap(
                z=z,
                x=ticks,
                y=ticks,
                colorscale="RdBu",
                zmin=-lim,
                zmax=lim,
                showscale=col == 2,
                colorbar={"thickness": 10, "title": {"text": value_title, "side": "right"}},
                hovertemplate=query_title + " %{y} · " + key_title + " %{x}: %{z:.3f}<extra></extra>",
            ),
            row=1,
            col=col,
        )
    step = max(1, T // 12)
    shown = ticks[::step]
    fig.update_xaxes(title=key_title, tickvals=shown, tickfont={"size": 9}, tickangle=-60)
    fig.update_yaxes(tickvals=shown, tickfont={"size": 9}, autorange="reversed")
    fig.update_yaxes(title=query_title, row=1, col=1)
    fig.update_annotations(font={"size": 11})
    return below(fig, 480, top=TOOLBAR + 54)  # the subplot titles under the toolbar


@cached
def error_by_key(
    coupled: np.ndarray, decoupled: np.ndarray, *, coupled_name: str, decoupled_name: str, x_title: str, y_title: str
) -> go.Figure:
    """(T,) the largest |absorbed − exact| score at each key position, with RoPE on the content keys and without."""
    fig = go.Figure()
    for y, name, colour in ((coupled, coupled_name, "#d62728"), (decoupled, decoupled_name, "#2ca02c")):
        fig.add_trace(
            go.Scatter(
                x=np.arange(len(y)),
                y=y,
                mode="lines+markers",
                name=name,
                line={"color": colour, "width": 2},
                marker={"size": 5},
                hovertemplate=name + " · %{x}: %{y:.3g}<extra></extra>",
            )
        )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    return below(fig, 300)


@cached
def load_curves(
    steps: np.ndarray,
    curve: np.ndarray,
    switch_curve: np.ndarray | None,
    held_out: dict[str, np.ndarray],
    noise_floor: float,
    *,
    layer_names: list[str],
    auxfree_name: str,
    switch_name: str,
    held_out_name: str,
    floor_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """(L, P) the coefficient of variation of the per-batch expert load over training (auxfree solid, switch dashed
    when recorded), the held-out routed load of both models as markers after the last step, and the CV a uniformly
    random router would show on one batch."""
    fig = go.Figure()
    end = float(steps[-1]) if len(steps) else 0.0
    for i, name in enumerate(layer_names):
        colour = LAYER_COLOURS[i % len(LAYER_COLOURS)]
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=curve[i],
                mode="lines",
                name=f"{auxfree_name} · {name}",
                line={"color": colour, "width": 2},
                hovertemplate=f"{auxfree_name} · {name}: %{{y:.3f}}<extra>%{{x}}</extra>",
            )
        )
        if switch_curve is not None:
            fig.add_trace(
                go.Scatter(
                    x=steps,
                    y=switch_curve[i],
                    mode="lines",
                    name=f"{switch_name} · {name}",
                    line={"color": colour, "width": 2, "dash": "dash"},
                    hovertemplate=f"{switch_name} · {name}: %{{y:.3f}}<extra>%{{x}}</extra>",
                )
            )
        for offset, (model, symbol) in enumerate(((switch_name, "square-open"), (auxfree_name, "circle"))):
            if model in held_out:
                fig.add_trace(
                    go.Scatter(
                        x=[end * (1.03 + 0.03 * offset)],
                        y=[held_out[model][i]],
                        mode="markers",
                        marker={"symbol": symbol, "size": 10, "color": colour, "line": {"width": 2, "color": colour}},
                        showlegend=False,
                        hovertemplate=f"{held_out_name} · {model} · {name}: %{{y:.4f}}<extra></extra>",
                    )
                )
    for model, symbol in ((switch_name, "square-open"), (auxfree_name, "circle")):
        if model in held_out:
            fig.add_trace(
                go.Scatter(
                    x=[None],
                    y=[None],
                    mode="markers",
                    marker={"symbol": symbol, "color": "#444", "size": 9},
                    name=f"{held_out_name}: {model}",
                )
            )
    fig.add_hline(y=noise_floor, line={"color": "#999", "dash": "dot"})
    # on a log axis an annotation's y is given as log10 of the value
    fig.add_annotation(
        x=0, xref="paper", y=np.log10(noise_floor), text=floor_name, showarrow=False, yanchor="top", xanchor="left"
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, type="log")
    return below(fig, 440)


@cached
def bias_map(bias: np.ndarray, *, layer_labels: list[str], expert_title: str, value_title: str) -> go.Figure:
    """(L, E) the final selection bias bᵢ of every expert, numbers written in the cells."""
    lim = float(np.abs(bias).max()) or 1.0
    fig = go.Figure(
        go.Heatmap(
            z=bias,
            x=[str(e) for e in range(bias.shape[1])],
            y=layer_labels,
            colorscale="RdBu",
            zmin=-lim,
            zmax=lim,
            text=[[f"{v:+.3f}" for v in row] for row in bias],
            texttemplate="%{text}",
            colorbar={"thickness": 10, "title": {"text": value_title, "side": "top"}},
            hovertemplate="%{y} · " + expert_title + " %{x}: %{z:+.3f}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=expert_title, type="category")
    return below(fig, 240)


@cached
def expert_counts(counts: list[np.ndarray], names: list[str], *, expert_title: str, y_title: str) -> go.Figure:
    """(E,) tokens of the text sent to each expert in one layer, one group of bars per model, with the even share."""
    fig = go.Figure()
    for c, name, colour in zip(counts, names, MODEL_COLOURS):
        fig.add_trace(
            go.Bar(
                x=[str(e) for e in range(len(c))],
                y=c,
                name=name,
                marker_color=colour,
                hovertemplate=name + " · " + expert_title + " %{x}: %{y}<extra></extra>",
            )
        )
    if counts:
        fig.add_hline(y=float(np.mean(counts[0])), line={"color": "#444", "dash": "dot"})
    fig.update_xaxes(title=expert_title, type="category")
    fig.update_yaxes(title=y_title, rangemode="tozero")
    fig.update_layout(barmode="group")
    return below(fig, 280)


def expert_colour(e: int) -> str:
    return EXPERT_COLOURS[e % len(EXPERT_COLOURS)]


def expert_legend(n_experts: int, name: str) -> str:
    chips = [
        span(
            f"{name} {e}",
            style=f"background:{expert_colour(e)};color:#fff;padding:2px 6px;margin:2px;border-radius:3px;"
            "display:inline-block;font-size:0.85em",
        )
        for e in range(n_experts)
    ]
    return f"<div>{''.join(chips)}</div>"


def routing_strip(
    pieces, expert: np.ndarray, changed: np.ndarray | None, *, label: str, expert_word: str, changed_word: str
) -> str:
    """HTML: each token on the colour of its expert; a token whose expert the bias changed has a thick border in the
    page's ink colour (black on the light theme, white on the dark one)."""
    boxes = []
    for i, (tok, e) in enumerate(zip(pieces, expert)):
        moved = changed is not None and bool(changed[i])
        border = f"3px solid {var('ink')}" if moved else "3px solid transparent"
        title = f"{tok!r} → {expert_word} {int(e)}" + (f" ({changed_word})" if moved else "")
        style = f"{TOKEN_BOX};background:{expert_colour(int(e))};color:#fff;border:{border}"
        boxes.append(span(visible(tok), style=style, title=title))
    return f'<div style="line-height:2.1;margin-bottom:6px">{strip_label(label)}{"".join(boxes)}</div>'


def speculation_strip(
    prompt: str,
    pieces,
    drafted,
    rejected: list[tuple[int, str]],
    *,
    accepted_word: str,
    own_word: str,
    refused_word: str,
) -> str:
    """HTML: the prompt in grey, then each new token: green when it came as an accepted MTP draft, light grey when
    the main model produced it, with a draft the main model refused struck through in red just before it."""
    refused = {}
    for pos, draft in rejected:
        refused.setdefault(pos, []).append(draft)
    parts = [f'<span style="color:{var("faint")};white-space:pre-wrap">{esc(prompt)}</span>']
    for i, (tok, was_draft) in enumerate(zip(pieces, drafted)):
        for draft in refused.get(i, []):
            parts.append(
                span(
                    visible(draft),
                    style=f"{TOKEN_BOX};color:{REFUSED};text-decoration:line-through;font-size:0.8em;"
                    "border:1px dashed " + REFUSED,
                    title=f"{refused_word}: {draft!r}",
                )
            )
        colour, text_colour = (ACCEPTED, "#fff") if was_draft else (OWN, "#111")
        parts.append(
            span(
                visible(tok),
                style=f"{TOKEN_BOX};background:{colour};color:{text_colour}",
                title=f"{tok!r}: {accepted_word if was_draft else own_word}",
            )
        )
    return f'<div style="line-height:2.1">{"".join(parts)}</div>'


def legend_chips(items: list[tuple[str, str, str]]) -> str:
    """HTML: (text, background, text colour) chips in one line."""
    chips = [
        span(text, style=f"background:{bg};color:{fg};padding:2px 6px;margin:2px;border-radius:3px;font-size:0.85em")
        for text, bg, fg in items
    ]
    return f"<div>{''.join(chips)}</div>"


@cached
def mtp_losses(
    steps: list[int],
    main: list[float],
    ahead: list[float],
    lam: list[float],
    *,
    main_name: str,
    ahead_name: str,
    lambda_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """The two heads' training losses over the steps and λ on a second axis."""
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    for y, name, colour in ((main, main_name, "#1f77b4"), (ahead, ahead_name, "#d62728")):
        fig.add_trace(
            go.Scatter(x=steps, y=y, mode="lines", name=name, line={"color": colour, "width": 2}),
            secondary_y=False,
        )
    fig.add_trace(
        go.Scatter(
            x=steps, y=lam, mode="lines", name=lambda_name, line={"color": "#999", "dash": "dot", "shape": "hv"}
        ),
        secondary_y=True,
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, secondary_y=False)
    fig.update_yaxes(title="λ", secondary_y=True, rangemode="tozero")
    return below(fig, 320)


def seed_layout(fig: go.Figure) -> go.Figure:
    """The page's layout for app.shared.seeds.two_seed_scatter."""
    return below(fig, 340)


KEY_COLOURS = ("#1f77b4", "#2ca02c", "#d62728", "#8c564b", "#9467bd", "#17becf", "#bcbd22", "#e377c2")


@cached
def latent_steps(
    c_kv: np.ndarray,
    k_rope: np.ndarray,
    keys: np.ndarray,
    *,
    readouts: list[str],
    key_readouts: list[str],
    next_naive: list[list[str]],
    next_absorbed: list[list[str]],
    titles: tuple[str, str],
    head_labels: list[str],
    latent_name: str,
    rope_name: str,
    x_title: str,
    y_title: str,
    active: int,
    prefix: str,
) -> go.Figure:
    """One layer's cache for every token, moved on the figure's own slider (``plots.stepped``: in the browser): on
    top the latent c_KV (T, d_c) and rotary key k^R (T, d_h^R) as bars, then the keys W_UK c_KV (T, H, d_h) as a line
    per head, then the next tokens on both paths (``next_naive[k]``, ``next_absorbed[k]``: a header, then a line per
    rank; the legend sits above them). ``readouts[k]`` and ``key_readouts[k]`` are written above the bars and the
    keys. Everything a step changes is trace data: the traces are restyled, not the figure redrawn."""
    T, K = c_kv.shape
    R, (H, D) = k_rope.shape[1], keys.shape[1:]
    fig = make_subplots(
        rows=3, cols=1, row_heights=[0.38, 0.33, 0.29], vertical_spacing=0.12, subplot_titles=titles
    )  # fmt: skip
    bars = (
        (np.arange(K), c_kv, latent_name, LATENT),
        (np.arange(K, K + R), k_rope, rope_name, ROPE),
    )
    for x, y, name, colour in bars:
        fig.add_trace(
            go.Bar(
                x=x, y=y[active], name=name, marker_color=colour, marker_line_width=0,
                hovertemplate=name + " [%{x}]: %{y:.3f}<extra></extra>",
            ),
            row=1, col=1,
        )  # fmt: skip
    lim = float(max(np.abs(c_kv).max(), np.abs(k_rope).max())) or 1.0
    fig.add_trace(_readout(-0.5, lim * 1.28, readouts[active]), row=1, col=1)
    fig.update_xaxes(title=f"{latent_name} 0 … {K - 1} · {rope_name} {K} … {K + R - 1}", range=[-0.5, K + R - 0.5],
                     title_standoff=4, row=1, col=1)  # fmt: skip
    fig.update_yaxes(title=y_title, range=[-lim * 1.05, lim * 1.45], row=1, col=1)
    key_lim = float(np.abs(keys).max()) or 1.0
    for h in range(H):
        fig.add_trace(
            go.Scatter(
                x=np.arange(D), y=keys[active, h], mode="lines", name=head_labels[h],
                line={"color": KEY_COLOURS[h % len(KEY_COLOURS)], "width": 1.5},
                hovertemplate=head_labels[h] + " [%{x}]: %{y:.3f}<extra></extra>",
            ),
            row=2, col=1,
        )  # fmt: skip
    fig.add_trace(_readout(-0.5, key_lim * 1.28, key_readouts[active]), row=2, col=1)
    fig.update_xaxes(title=x_title, range=[-0.5, D - 0.5], title_standoff=4, row=2, col=1)
    fig.update_yaxes(title=y_title, range=[-key_lim * 1.05, key_lim * 1.45], row=2, col=1)
    rows = len(next_naive[0])
    for x, column in ((0.0, next_naive), (1.0, next_absorbed)):
        fig.add_trace(
            go.Scatter(
                x=[x] * rows, y=list(range(rows)), mode="text", text=column[active], textposition="middle right",
                textfont={"size": 12}, showlegend=False, hoverinfo="skip",
            ),
            row=3, col=1,
        )  # fmt: skip
    fig.update_xaxes(visible=False, range=[-0.02, 2], fixedrange=True, row=3, col=1)
    fig.update_yaxes(visible=False, range=[rows - 0.5, -3.4], fixedrange=True, row=3, col=1)  # the legend on top
    fig.update_annotations(font={"size": 13}, x=0, xanchor="left")
    below(fig, 760)
    fig.update_layout(legend={"yref": "paper", "y": fig.layout.yaxis3.domain[1], "yanchor": "top"})
    fig.update_layout(bargap=0.1)
    steps = [
        {
            "data": [
                {"y": c_kv[k]},
                {"y": k_rope[k]},
                {"text": [readouts[k]]},
                *({"y": keys[k, h]} for h in range(H)),
                {"text": [key_readouts[k]]},
                {"text": next_naive[k]},
                {"text": next_absorbed[k]},
            ]
        }
        for k in range(T)
    ]
    return stepped(fig, steps, active=active, prefix=prefix)


def _readout(x: float, y: float, text: str) -> go.Scatter:
    """A line of text at (x, y) that a step of the figure's slider rewrites (a text trace: no layout change)."""
    return go.Scatter(
        x=[x], y=[y], mode="text", text=[text], textposition="middle right", textfont={"size": 12},
        showlegend=False, hoverinfo="skip",
    )  # fmt: skip
