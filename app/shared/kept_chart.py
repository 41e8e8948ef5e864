"""A Plotly figure that stays in the page across reruns, redrawn in place with ``Plotly.react``.

Why: ``st.plotly_chart`` names its element after the figure's content, so a figure whose numbers changed (a slider
moved) is a new element to the browser: React unmounts the old chart and Plotly builds the new one from nothing
(``newPlot``: every axis, layer and the modebar again, and a layout pass for the margins). On a page whose move
redraws six figures that was most of the move (bench/NOTES.md, "Kept charts"). This element keeps its name (the
figure's ``key``) while its content changes, so the browser keeps the plot and hands ``Plotly.react`` the new
figure, which redraws only what differs.

What it is: a Streamlit custom component (``st.components.v2``) whose script (``kept_chart.js``, served as a static
file of the app beside the plotly.js that the ``plotly`` package ships, ``STATIC``) loads plotly.js once per browser
tab. It draws a figure as ``st.plotly_chart`` would: in the reader's theme (Streamlit's chart colours and fonts,
read from the ``--st-*`` CSS properties Streamlit gives a component), the app's modebar (PNG download), the width of
its column. It has no selections: ``ui.plot`` keeps ``st.plotly_chart`` for a figure the reader clicks into."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import plotly
import streamlit as st

NAME = "te_kept_chart"
TEST_ID = "teKeptChart"  # the plot's data-testid (kept_chart.js sets it), for the browser tests and the benches
SOURCE = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
STATIC = Path(__file__).resolve().parents[1] / "static" / "plotly.min.js"  # served at app/static/plotly.min.js
SCRIPT = Path(__file__).with_suffix(".js")  # the component's code, served beside plotly.js
VERSION = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:12]  # in the loader's URL: a changed script is refetched
# What Streamlit sends with every kept chart: a loader of a few bytes, not the script itself (6 kB a figure a rerun).
_JS = (  # two lines: Streamlit takes a one-line string that looks like a path for a file of the component's own
    f'const src = new URL("app/static/kept_chart.js?v={VERSION}", document.baseURI).href;\n'
    "export default (args) => import(src).then((m) => m.default(args));\n"
)


def publish() -> None:
    """Put the plotly package's plotly.js and the component's script where the app serves static files (``STATIC``'s
    folder), each when missing or changed: the server's static folder is ignored by git, and a fresh clone fills it
    on its first run."""
    STATIC.parent.mkdir(exist_ok=True)
    for source, target in ((SOURCE, STATIC), (SCRIPT, STATIC.parent / SCRIPT.name)):
        if target.exists() and target.read_bytes() == source.read_bytes():
            continue
        part = target.with_suffix(f".{os.getpid()}.part")  # one per process: two servers may start at once
        shutil.copyfile(source, part)
        part.replace(target)  # atomic: a reader never gets half a file


_component = None


def _mount():
    global _component
    if _component is None:
        publish()
        _component = st.components.v2.component(NAME, js=_JS, isolate_styles=False)
    return _component


def kept_chart(spec_json: str, *, key: str, config: dict, height: int | None = None) -> None:
    """Draw a figure given as its JSON (``figures.spec_json``) under ``key``, kept in the page while ``key`` is;
    ``height`` in px overrides the figure's own."""
    _mount()(key=key, data={"figure": spec_json, "config": config, "height": height})
