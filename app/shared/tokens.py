"""A strip of tokens, each coloured by a value (loss, Δ, expert, attention to one token ...), as escaped HTML."""

from __future__ import annotations

import numpy as np
from plotly.colors import sample_colorscale

from app.shared.figures import cached
from app.shared.html import esc, span
from app.shared.theme import var

# The box around one token (colours come per token); also the MoE page's expert strip.
TOKEN_BOX = "padding:2px 4px;margin:1px;border-radius:3px;display:inline-block;font-family:monospace;white-space:pre"


def strip_label(label: str) -> str:
    """The small grey caption above a strip of tokens (empty when there is none)."""
    return f'<div style="font-size:0.85em;color:{var("muted")};margin-bottom:2px">{esc(label)}</div>' if label else ""


def _text_colour(rgb: str) -> str:
    r, g, b = (int(float(v)) for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def visible(token: str) -> str:
    """Make whitespace visible in a token (a space as ·, a newline as ↵)."""
    return token.replace(" ", "·").replace("\n", "↵").replace("\t", "→") or "∅"


@cached  # the same strip for every reader and rerun: built once (figures.cached keys the arrays itself)
def token_strip(
    tokens: list[str],
    values: np.ndarray,
    *,
    vmin: float | None = None,
    vmax: float | None = None,
    colorscale: str = "Blues",
    fmt: str = "{:.3f}",
    label: str = "",
) -> str:
    """HTML: one box per token, background from ``values`` on ``colorscale``, the value in the tooltip."""
    values = np.asarray(values, dtype=float)
    lo = float(np.nanmin(values)) if vmin is None else vmin
    hi = float(np.nanmax(values)) if vmax is None else vmax
    scaled = np.clip((values - lo) / (hi - lo if hi > lo else 1.0), 0.0, 1.0)
    colours = sample_colorscale(colorscale, [float(v) for v in np.nan_to_num(scaled)])
    boxes = []
    for tok, value, colour in zip(tokens, values, colours):
        style = f"background:{colour};color:{_text_colour(colour)};{TOKEN_BOX}"
        boxes.append(span(visible(tok), style=style, title=f"{tok!r}: {fmt.format(value)}"))
    return f'<div style="line-height:1.9">{strip_label(label)}{"".join(boxes)}</div>'
