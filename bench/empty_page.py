"""A page that draws nothing: with TE_BENCH_EMPTY_PAGE=1 the app serves it at /empty, and bench.load measures the
app shell's own rerun around it, the yardstick of the other pages' reruns.

With ``bench_kind`` and ``bench_n`` in its link it draws ``bench_n`` elements of that kind (``KINDS``), as the pages
draw them, so that bench.load can measure what one more element of each kind adds to a rerun in the same run
(``bench.load.ELEMENTS_ARGS``). Nothing else reads these parameters."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from app.shared import figures, ui

MAX_N = 100


@figures.cached
def small_figure() -> go.Figure:
    """A small line chart, built once per process (what a page's cached figure costs to send, not to build)."""
    return go.Figure(go.Scatter(x=np.arange(16), y=np.arange(16) ** 0.5, mode="lines"))


KINDS = {
    "metric": lambda i: st.metric(f"metric {i}", f"{i / 7:.3f}", help="a metric"),
    "caption": lambda i: st.caption(f"caption {i}"),
    "markdown": lambda i: st.markdown(f"**markdown** {i}"),
    "download": lambda i: ui.download(np.arange(4.0), f"numbers-{i}", key=f"bench_dl_{i}"),
    "plotly": lambda i: ui.plot(small_figure(), key=f"bench_plot_{i}"),
    "container": lambda i: st.container(),
}

kind, n = st.query_params.get("bench_kind"), st.query_params.get("bench_n", "0")
if kind in KINDS and n.isdigit():
    for i in range(min(int(n), MAX_N)):
        KINDS[kind](i)
