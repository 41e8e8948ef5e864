"""Colours that follow the reader's light or dark theme (Streamlit's settings menu, else the system's setting).

Two mechanisms, one per kind of output:

- HTML we build (token strips, boxes, the head view's SVG) takes its page colours from CSS custom properties,
  ``var(--te-<name>)`` (``var(name)``). ``THEME_CSS``, added once per page by the shell, gives each a
  ``light-dark()`` pair; the browser picks the half that matches the ``color-scheme`` Streamlit sets on the app,
  so these colours follow a change of theme at once, without a rerun.
- Plotly figures cannot read CSS variables. Their builders draw for the light theme, and ``for_dark`` recolours a
  figure for the dark one just before it is sent (``ui.plot``, from ``st.context.theme``, which the browser
  reports on every rerun): the dark greys used as ink become light greys, and a white or tinted plot background
  becomes the app's own. Data colours (series, colour scales) are left as they are: they read on both.

Colour that sits on a fixed light fill of our own (a token chip coloured by its data, a box of a diagram, a drawn
matrix) must stay dark in both themes: use ``ON_FILL`` (``on_fill`` for a translucent line), which neither mechanism
changes.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go

# name: (light theme, dark theme). The light values are the colours the views used before the app had a dark theme.
PALETTE: dict[str, tuple[str, str]] = {
    "ink": ("#111", "#fafafa"),  # text and rules drawn on the page itself
    "muted": ("#555", "#a8a8a8"),  # small captions on the page (the label above a token strip)
    "faint": ("#777", "#9a9a9a"),  # text shown only as context (the prompt before generated tokens)
    "chip-bg": ("#f1f1f1", "#3a3b44"),  # a neutral token chip (not in the segment, an empty cache slot)
    "chip-fg": ("#666", "#c4c4c4"),
    "box-bg": ("#fff", "rgba(250,250,250,0.07)"),  # a box of a diagram drawn in HTML
    "box-bg-soft": ("#fafafa", "rgba(250,250,250,0.04)"),
    "border": ("#bbb", "#6b6b6b"),  # its border
    "rule": ("rgba(49,51,63,0.2)", "rgba(250,250,250,0.2)"),  # a hairline, as Streamlit draws its own
    "highlight": ("#fff3c4", "#5c4a12"),  # the row being stepped through
}

ON_FILL = "#31333f"  # text on a fixed light fill (a data colour): Streamlit's light-theme text, in both themes


def on_fill(alpha: float) -> str:
    """``ON_FILL``, translucent: lines drawn over a fixed light image of ours (a tile grid over a drawn matrix)."""
    return f"rgba(49,51,63,{alpha:g})"


def var(name: str) -> str:
    """The CSS value of palette colour ``name`` in the reader's theme, for a style attribute."""
    if name not in PALETTE:
        raise KeyError(name)
    return f"var(--te-{name})"


THEME_CSS = (
    "<style>:root { "
    + " ".join(f"--te-{name}: light-dark({light}, {dark});" for name, (light, dark) in PALETTE.items())
    + " }</style>"
)


def svg_style(rules: dict[str, tuple[str, str]]) -> str:
    """A ``<style>`` for an SVG shown as an ``<img>``, where the page's CSS variables do not reach: ``rules`` maps a
    selector to (property, palette name). The browser gives an image the colour scheme of the element showing it
    (here Streamlit's), so ``prefers-color-scheme`` inside the image follows the app's theme."""
    light = "".join(f"{sel}{{{prop}:{PALETTE[name][0]}}}" for sel, (prop, name) in rules.items())
    dark = "".join(f"{sel}{{{prop}:{PALETTE[name][1]}}}" for sel, (prop, name) in rules.items())
    return f"<style>{light}@media (prefers-color-scheme: dark){{{dark}}}</style>"


# Plotly, dark theme. Ink: each dark grey the builders draw lines, markers and labels with, and its light
# counterpart. Only these exact spellings change, anywhere in a figure but its colour scales.
_INK_DARK = {
    **dict.fromkeys(("#000", "#000000", "black", "#111", "#111111", "#222", "#222222", "#333", "#333333"), "#fafafa"),
    **dict.fromkeys(("#444", "#444444", "#555", "#555555"), "#bdbdbd"),
    **dict.fromkeys(("#666", "#666666"), "#a3a3a3"),
}
_BLACK_ALPHA = re.compile(r"rgba\(\s*0\s*,\s*0\s*,\s*0\s*,\s*([0-9.]+)\s*\)")
# Paper: a background the builders set (plot area, legend) that is lighter than the dark app.
_PAPER_DARK = {
    **dict.fromkeys(("white", "#fff", "#ffffff"), "rgba(0,0,0,0)"),
    "#dfe7f1": "#252c37",
    "rgba(255,255,255,0.8)": "rgba(14,17,23,0.8)",
}
_PAPER_KEYS = {"plot_bgcolor", "paper_bgcolor", "bgcolor"}
_SKIP_KEYS = {"template", "x", "y", "z", "customdata", "text", "hovertext", "ids", "source", "ticktext", "tickvals"}


def dark_colour(value: str, key: str) -> str | None:
    """The dark theme's colour for ``value`` found under ``key``, or None when it stays."""
    low = value.strip().lower()
    if key in _PAPER_KEYS and low in _PAPER_DARK:
        return _PAPER_DARK[low]
    if low in _INK_DARK:
        return _INK_DARK[low]
    match = _BLACK_ALPHA.fullmatch(low)
    return f"rgba(250,250,250,{match.group(1)})" if match else None


def _changes(node, path: tuple, out: list) -> None:
    """Collect (path, new value) for every colour under ``node`` that the dark theme changes."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _SKIP_KEYS or "colorscale" in key:
                continue
            if isinstance(value, str):
                new = dark_colour(value, key)
                if new is not None:
                    out.append(((*path, key), new))
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                swapped = [dark_colour(v, key) or v for v in value]  # per-point colours
                if swapped != value:
                    out.append(((*path, key), swapped))
            else:
                _changes(value, (*path, key), out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            if isinstance(value, (dict, list)):
                _changes(value, (*path, i), out)


def for_dark(fig: go.Figure) -> go.Figure:
    """Recolour ``fig`` (in place) for the dark theme: ink greys become light, light plot backgrounds the app's."""
    spec = fig.to_dict()
    for i, trace in enumerate(spec.get("data", [])):
        changes: list = []
        _changes(trace, (), changes)
        for path, value in changes:
            fig.data[i][path] = value
    changes = []
    _changes(spec.get("layout", {}), (), changes)
    for path, value in changes:
        fig.layout[path] = value
    for k, frame in enumerate(spec.get("frames", [])):  # a figure's own steps (plots.stepped) recoloured alike
        for i, trace in enumerate(frame.get("data", [])):
            changes = []
            _changes(trace, (), changes)
            for path, value in changes:
                fig.frames[k].data[i][path] = value
        changes = []
        _changes(frame.get("layout", {}), (), changes)
        for path, value in changes:
            fig.frames[k].layout[path] = value
    return fig
