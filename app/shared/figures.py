"""Figures built once per input and shared by every reader of the process (issue 27).

A page rerun used to rebuild each Plotly figure from its numbers — graph_objects validating every property on the
way — and Streamlit then copied it into a dict (``Figure.to_dict``) to send it: together the largest share of a
rerun's time (sampled with py-spy on the GPT page under load).

- ``@cached`` on a figure builder memoises it by its arguments, in one process-wide cache (``st.cache_resource``:
  the figure is shared, not copied per reader). Builders are pure functions of their arguments, and nothing may
  change a figure a builder returned: pages pass it to ``ui.plot``/``ui.figure`` and nothing else.
- ``for_chart(fig, dark)``, which ``ui.plot`` calls, keeps the dict of a cached figure for each theme on the figure
  itself, wrapped in a figure whose ``to_dict`` returns it, so a rerun with cached inputs hands Streamlit a dict
  that is already built. A figure that was not cached goes through unchanged (recoloured for the dark theme).
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Callable
from typing import TypeVar

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from app.shared import theme

F = TypeVar("F", bound=Callable[..., go.Figure])

MAX_FIGURES = 512  # distinct (builder, arguments) kept per process, least recently used dropped first
CHECK = os.environ.get("TE_CHECK_FIGURES") == "1"  # set by the tests: see for_chart


_building = threading.local()  # set while this thread runs a cached builder


@st.cache_resource(show_spinner=False, max_entries=MAX_FIGURES)
def _build(name: str, _builder: Callable[..., go.Figure], args: tuple, kwargs: dict) -> go.Figure:
    """One figure per (builder name, arguments); the arguments are hashed by value (arrays by their bytes)."""
    _building.active = True
    try:
        fig = _builder(*args, **kwargs)
    finally:
        _building.active = False
    fig._te_cached = True  # for_chart may keep its dicts on it
    return fig


def cached(builder: F) -> F:
    """Decorator: ``builder(*args)`` is computed once per distinct arguments in this process and shared.

    Called from inside another cached builder (which may go on to change the figure it gets), it builds a fresh,
    unshared figure instead."""
    name = f"{builder.__module__}.{builder.__qualname__}"

    @functools.wraps(builder)
    def wrapper(*args, **kwargs):
        if getattr(_building, "active", False):
            return builder(*args, **kwargs)
        return _build(name, builder, args, kwargs)

    wrapper.uncached = builder  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


class _Ready(go.Figure):
    """An empty figure whose ``to_dict`` is a dict built once: what ``st.plotly_chart`` reads on every rerun."""

    def __init__(self, spec: dict):
        super().__init__()
        self._te_spec = spec

    def to_dict(self) -> dict:
        return self._te_spec


def _as_built(fig: go.Figure) -> dict:
    """The figure's content as plain JSON values (key order aside: a copy of a figure may reorder its keys)."""
    return json.loads(pio.to_json(fig.to_dict(), validate=False))


def for_chart(fig: go.Figure, dark: bool) -> go.Figure:
    """What ``ui.plot`` hands ``st.plotly_chart`` for ``fig`` in the reader's theme.

    With ``TE_CHECK_FIGURES=1`` (the tests) a shared figure that was changed after it was first sent raises: its
    readers would see the dict built before the change."""
    if not getattr(fig, "_te_cached", False):
        return theme.for_dark(fig) if dark else fig
    if CHECK:
        if not hasattr(fig, "_te_as_built"):
            fig._te_as_built = _as_built(fig)
        elif _as_built(fig) != fig._te_as_built:
            raise RuntimeError("a figure of figures.cached was changed after it was sent; change a fresh one instead")
    attr = "_te_ready_dark" if dark else "_te_ready_light"
    ready = getattr(fig, attr, None)
    if ready is None:  # once per figure and theme; two readers racing here build the same dict
        source = theme.for_dark(go.Figure(fig.to_dict())) if dark else fig  # the shared figure stays as built
        ready = _Ready(source.to_dict())
        setattr(fig, attr, ready)
    return ready
