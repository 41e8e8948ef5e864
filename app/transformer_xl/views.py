"""Figures of the Transformer-XL page: the text cut into segments with the memory a segment reads, one query's
attention over [memory ∘ segment], the per-token loss with and without memory under the text, the reach of the
attention through the layers, the four score terms of one query, the absolute-position collision, and the measured
evaluation speed. Pure functions: numpy in, Plotly figure (or escaped HTML) out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from app.shared.figures import cached
from app.shared.heatmaps import KEYS, MARKED, QUERY_KEY, ticks
from app.shared.html import span
from app.shared.plots import fixed_margins, legend_above, stepped
from app.shared.theme import ON_FILL, var
from app.shared.tokens import TOKEN_BOX, visible

# The memory keys, the current segment, the query: the colours of the shared attention bars (heatmaps).
MEMORY, CURRENT, QUERY = MARKED, KEYS, QUERY_KEY
WITH, WITHOUT = "#1f77b4", "#ff7f0e"  # loss with memory, with the memory cleared
TERMS = {"a": "#1f77b4", "b": "#ff7f0e", "c": "#2ca02c", "d": "#9467bd"}
MAX_TICKS = 40
# The margins of the figures a query, layer or head move redraws, set here rather than measured by Plotly (the
# template's automargin), so that a move lays each figure out once: room on the left for the weights and the axis'
# title, and under the plot for the key labels, rotated by 60°, as long as the longest piece, and the axis' title.
LEFT = 64


def _key_margins(fig: go.Figure, shown: list[str]) -> go.Figure:
    longest = max((len(p) for p in shown), default=1)
    return fixed_margins(fig, l=LEFT, b=34 + round(5.5 * longest))


STRIP = "te-txl-strip"  # the class of the segments strip drawn once per text (``segments_strip_html``)


@cached
def segments_strip_html(pieces: list[str], L: int, *, segment_name: str) -> str:
    """The text as token boxes, one line label per segment, every box neutral: drawn once per text, outside the
    part a segment move reruns. Box p of segment s carries the classes ``s{s}`` and ``p{p}``, which the part's style
    rule (``segments_marks_css``) colours: a move sends a few hundred bytes instead of every box again (a 485-token
    text's strip was 129 kB, sanitised, parsed and laid out anew on each move). Every piece of text is escaped."""
    out = []
    for s0 in range(0, len(pieces), L):
        label = span(f"{segment_name} {s0 // L}", style=f"font-size:0.8em;color:{var('muted')};margin:0 6px 0 2px")
        boxes = "".join(
            span(visible(pieces[p]), cls=f"t s{s0 // L} p{p}", title=f"{p}: {pieces[p]!r}")
            for p in range(s0, min(s0 + L, len(pieces)))
        )
        out.append(f'<div style="line-height:1.9;margin-bottom:4px">{label}{boxes}</div>')
    return f'<div class="{STRIP}">{"".join(out)}</div>'


def segments_marks_css(segment: int, memory_start: int, L: int) -> str:
    """The style rule that colours ``segments_strip_html``: the chosen segment in blue, the memory it reads (positions
    ``memory_start`` up to the segment's start) in yellow, every other box in the chips' colours."""
    box = f".{STRIP} span.t"
    memory = ",".join(f"{box}.p{p}" for p in range(memory_start, segment * L))
    rules = [
        f"{box}{{background:{var('chip-bg')};color:{var('chip-fg')};{TOKEN_BOX}}}",
        f"{box}.s{segment}{{background:{CURRENT};color:{ON_FILL}}}",
    ]
    if memory:
        rules.append(f"{memory}{{background:{MEMORY};color:{ON_FILL}}}")
    return f"<style>{''.join(rules)}</style>"


def _cell(colour: str, title: str) -> str:
    return span(" ", style=f"display:block;height:9px;background:{colour};margin-top:1px", title=title)


@cached  # the same cells for every reader and rerun of a text; Plotly's colour sampling costs ~1 ms a call
def loss_columns_html(
    pieces: list[str],
    with_memory: np.ndarray,
    cleared: np.ndarray,
    L: int,
    *,
    with_name: str,
    cleared_name: str,
    unit: str,
) -> str:
    """Each predicted token with two cells under it: its loss with the memory cleared (top) and with memory
    (bottom), on one colour scale; a bar before each segment's first token. ``pieces[1:]`` are the targets."""
    hi = float(np.percentile(np.concatenate([with_memory, cleared]), 98))
    scaled = np.clip(np.stack([cleared, with_memory]) / (hi if hi > 0 else 1.0), 0, 1)  # (2, T) on [0, hi]
    colours = sample_colorscale("Reds", [float(v) for v in scaled.ravel()])  # one call: every cell's colour
    top_colours, bottom_colours = colours[: len(cleared)], colours[len(cleared) :]
    out = []
    for t, (w, c) in enumerate(zip(with_memory, cleared)):
        token = pieces[t + 1]
        edge = f"border-left:2px solid {var('ink')};padding-left:2px;" if t % L == 0 and t else ""
        top = span(visible(token), style=f"{TOKEN_BOX};padding:0 2px;margin:0", title=f"{t + 1}: {token!r}")
        cells = _cell(top_colours[t], f"{cleared_name}: {c:.2f} {unit}") + _cell(
            bottom_colours[t], f"{with_name}: {w:.2f} {unit}"
        )
        out.append(f'<span style="display:inline-block;vertical-align:top;margin:2px 1px;{edge}">{top}{cells}</span>')
    return f'<div style="line-height:1.2">{"".join(out)}</div>'


@cached
def place_lines(
    with_memory: np.ndarray,
    cleared: np.ndarray,
    *,
    with_name: str,
    cleared_name: str,
    place_title: str,
    value_title: str,
    height: int = 300,
) -> go.Figure:
    """(L,) mean loss at each place of a segment (0 = its first token), with memory and with it cleared."""
    x = np.arange(len(with_memory))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x, y=cleared, mode="lines+markers", name=cleared_name, line={"color": WITHOUT}))
    fig.add_trace(go.Scatter(x=x, y=with_memory, mode="lines+markers", name=with_name, line={"color": WITH}))
    fig.update_traces(marker={"size": 4})
    fig.update_xaxes(title=place_title)
    fig.update_yaxes(title=value_title, rangemode="tozero")
    return legend_above(fig, height, top=30)


@cached
def reach_bars(
    direct: np.ndarray,
    chained: np.ndarray,
    bound: np.ndarray,
    *,
    layer_names: list[str],
    direct_name: str,
    chained_name: str,
    bound_name: str,
    value_title: str,
    height: int = 320,
) -> go.Figure:
    """Per layer: the largest offset one layer's attention reaches, the offset reached through the stack, and the
    bound (n + 1)·M + L − 1 as markers."""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=layer_names, y=direct, name=direct_name, marker_color=CURRENT, text=direct))
    fig.add_trace(go.Bar(x=layer_names, y=chained, name=chained_name, marker_color=WITH, text=chained))
    fig.add_trace(
        go.Scatter(
            x=layer_names,
            y=bound,
            mode="markers+lines",
            name=bound_name,
            marker={"symbol": "line-ew-open", "size": 28, "color": QUERY, "line": {"width": 3}},
            line={"color": QUERY, "dash": "dot", "width": 1},
        )
    )
    fig.update_traces(selector={"type": "bar"}, textposition="outside", cliponaxis=False)
    fig.update_layout(barmode="group")
    fig.update_yaxes(title=value_title, rangemode="tozero")
    return legend_above(fig, height, top=40)


def collision_rows(L: int, query: int) -> list[dict]:
    """The tiny example: a memory of one segment (L tokens) and the current segment, seen from the current token
    ``query``. Per key: where it is, the position index an absolute encoding gives it (0 .. L − 1 in every
    segment), and the offset i − j a relative encoding uses."""
    rows = []
    for j in range(2 * L):
        in_memory = j < L
        rows.append(
            {
                "key": j,
                "memory": in_memory,
                "absolute": j % L,
                "offset": L + query - j if j <= L + query else None,
            }
        )
    return rows


@cached
def speed_bars(
    attention: list[int],
    xl_ms: list[float],
    vanilla_ms: list[float],
    speedup: list[float],
    *,
    xl_name: str,
    vanilla_name: str,
    x_title: str,
    value_title: str,
    speedup_label: str,
    height: int = 340,
) -> go.Figure:
    """Milliseconds per predicted token, log scale, at each attention length; the speed-up written on the vanilla
    bar."""
    x = [f"{a}" for a in attention]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=x,
            y=vanilla_ms,
            name=vanilla_name,
            marker_color=WITHOUT,
            text=[speedup_label.format(s=s) for s in speedup],
            textposition="outside",
            cliponaxis=False,
        )
    )
    fig.add_trace(go.Bar(x=x, y=xl_ms, name=xl_name, marker_color=WITH))
    fig.update_layout(barmode="group")
    fig.update_xaxes(title=x_title, type="category")
    fig.update_yaxes(title=value_title, type="log", dtick=1)  # decades only
    return legend_above(fig, height, top=40)


@cached
def sweep_line(memory: list[int], bpc: list[float], trained: int, *, x_title: str, value_title: str, trained_name: str):
    """Validation bits per character against the memory length used at evaluation."""
    fig = go.Figure(
        go.Scatter(
            x=memory,
            y=bpc,
            mode="lines+markers+text",
            text=[f"{b:.3f}" for b in bpc],
            textposition="top right",
            cliponaxis=False,
            line={"color": WITH},
            showlegend=False,
        )
    )
    fig.add_vline(x=trained, line={"color": QUERY, "dash": "dot"}, annotation_text=trained_name)
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=value_title)
    return legend_above(fig, 300, top=30)


def _readout(x: float, y: float, text: str) -> go.Scatter:
    """A line of text at (x, y) that a step of the figure's slider rewrites (a text trace: no layout change)."""
    return go.Scatter(
        x=[x], y=[y], mode="text", text=[text], textposition="middle right", textfont={"size": 12},
        showlegend=False, hoverinfo="skip", cliponaxis=False,
    )  # fmt: skip


def _key_axis(fig: go.Figure, shown: list[str], n_memory: int, memory_name: str, key_title: str) -> None:
    """Every key of the segment on a fixed axis (a step only changes how many have a bar), the memory shaded."""
    if n_memory:
        fig.add_vrect(x0=-0.5, x1=n_memory - 0.5, fillcolor=MEMORY, opacity=0.15, line_width=0, layer="below")
        fig.add_annotation(x=(n_memory - 1) / 2, y=0, yref="paper", text=memory_name, showarrow=False, yanchor="bottom")
    fig.update_xaxes(
        title=key_title, tickangle=-60, range=[-0.5, len(shown) - 0.5], **ticks(shown, MAX_TICKS)
    )  # fmt: skip


@cached
def memory_steps(
    weights: np.ndarray,
    labels: list[str],
    n_memory: int,
    *,
    readouts: list[str],
    key_title: str,
    value_title: str,
    memory_name: str,
    current_name: str,
    query_name: str,
    active: int,
    prefix: str,
) -> go.Figure:
    """(Q, n_memory + Q) every query's weights over [memory ∘ segment] in one layer and head, moved on the figure's
    own slider (``plots.stepped``: in the browser): memory keys, the segment's keys before the query, the query
    itself, and ``readouts[q]`` above the bars. Every step restyles the traces alone."""
    Q = weights.shape[0]
    shown = [visible(p) for p in labels]
    groups = (memory_name, MEMORY), (current_name, CURRENT), (query_name, QUERY)

    def parts(q: int) -> list[np.ndarray]:
        end = n_memory + q
        return [np.arange(n_memory), np.arange(n_memory, end), np.array([end])]

    # a bar's label is customdata at its index: the memory's and the segment's keys are the trace's own, in order
    # (a step sends only x and y), the query's one key moves with it
    hover = (shown[:n_memory], shown[n_memory:], None)
    fig = go.Figure()
    for x, (name, colour), labels_ in zip(parts(active), groups, hover):
        fig.add_trace(
            go.Bar(
                x=x, y=weights[active, x], name=name, marker={"color": colour, "line": {"width": 0}},
                customdata=labels_ if labels_ is not None else [shown[j] for j in x],
                hovertemplate="%{customdata}<br>" + value_title + ": %{y:.3f}<extra></extra>",
            )
        )  # fmt: skip
    top = float(weights.max()) or 1.0
    fig.add_trace(_readout(-0.5, top * 1.2, readouts[active]))
    _key_axis(fig, shown, n_memory, memory_name, key_title)
    fig.update_yaxes(title=value_title, range=[0, top * 1.32])
    fig.update_layout(bargap=0.1)
    fig = _key_margins(legend_above(fig, 360, top=30), shown)
    steps = [
        {
            "data": [
                *({"x": x, "y": weights[q, x]} for x in parts(q)[:2]),
                {"x": parts(q)[2], "y": weights[q, parts(q)[2]], "customdata": [shown[n_memory + q]]},
                {"text": [readouts[q]]},
            ]
        }
        for q in range(Q)
    ]
    return stepped(fig, steps, active=active, prefix=prefix, clear=fig.layout.margin.b)  # under the key labels


@cached
def terms_steps(
    terms: list[dict[str, np.ndarray]],
    labels: list[str],
    n_memory: int,
    *,
    readouts: list[str],
    names: dict[str, str],
    total_name: str,
    key_title: str,
    value_title: str,
    memory_name: str,
    active: int,
    prefix: str,
) -> go.Figure:
    """Every query's score over its keys split into (a)–(d) as stacked bars and their sum as a marker, moved on the
    figure's own slider (``plots.stepped``): ``terms[q]`` holds (K_q,) arrays a, b, c, d over the keys the query
    sees, ``readouts[q]`` the line above the bars. Every step restyles the traces alone."""
    shown = [visible(p) for p in labels]
    totals = [sum(step[k] for k in "abcd") for step in terms]

    def data(q: int) -> list[dict]:  # a key's label is customdata at its index, the traces' own (keys in order)
        x = np.arange(len(totals[q]))
        return [*({"x": x, "y": terms[q][k]} for k in "abcd"), {"x": x, "y": totals[q]}]

    fig = go.Figure()
    first = data(active)
    for k, props in zip("abcd", first):
        fig.add_trace(
            go.Bar(
                **props, name=names[k], marker={"color": TERMS[k], "line": {"width": 0}}, customdata=shown,
                hovertemplate="%{customdata}<br>" + names[k] + ": %{y:.2f}<extra></extra>",
            )
        )  # fmt: skip
    fig.add_trace(
        go.Scatter(
            **first[4], mode="markers", name=total_name, marker={"color": "#111", "size": 4}, customdata=shown,
            hovertemplate="%{customdata}<br>" + total_name + ": %{y:.2f}<extra></extra>",
        )
    )  # fmt: skip
    pos = max(float(np.clip(np.stack([s[k] for k in "abcd"]), 0, None).sum(0).max()) for s in terms)
    neg = min(float(np.clip(np.stack([s[k] for k in "abcd"]), None, 0).sum(0).min()) for s in terms)
    span_ = (pos - neg) or 1.0
    fig.add_trace(_readout(-0.5, pos + 0.12 * span_, readouts[active]))
    _key_axis(fig, shown, n_memory, memory_name, key_title)
    fig.update_layout(barmode="relative", bargap=0.1)
    fig.update_yaxes(
        title=value_title, zeroline=True, zerolinecolor="#666", range=[neg - 0.05 * span_, pos + 0.2 * span_]
    )
    fig = _key_margins(legend_above(fig, 400, top=40), shown)
    steps = [{"data": [*data(q), {"text": [readouts[q]]}]} for q in range(len(terms))]
    return stepped(fig, steps, active=active, prefix=prefix, clear=fig.layout.margin.b)  # under the key labels
