"""Figures built once per input and shared by every reader of the process.

A page rerun used to rebuild each Plotly figure from its numbers — graph_objects validating every property on the
way — and Streamlit then copied it into a dict (``Figure.to_dict``) to send it: together the largest share of a
rerun's time.

- ``@cached`` on a figure builder memoises it by its arguments, in one process-wide cache (the figure is shared,
  not copied per reader): keyed by ``_key`` for the usual argument types, by ``st.cache_resource`` for others.
  It serves as well for another pure function whose result nobody changes (an HTML strip, a service's frozen
  dataclass), where ``st.cache_data`` would hash the arguments with Streamlit's slower hashing and copy the result
  for every call.
  Builders are pure functions of their arguments, and nothing may change a figure a builder returned: pages pass
  it to ``ui.plot``/``ui.figure`` and nothing else.
- ``from_dicts(data, layout)`` builds a figure from plain dicts without Plotly's per-property validation, for
  builders whose inputs change with every new text.
- ``for_chart(fig, dark)``, which ``ui.plot`` calls, keeps the dict of a cached figure for each theme on the figure
  itself, wrapped in a figure whose ``to_dict`` returns it, so a rerun with cached inputs hands Streamlit a dict
  that is already built. A figure that was not cached goes through unchanged (recoloured for the dark theme).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import orjson
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from app.shared import theme

F = TypeVar("F", bound=Callable[..., go.Figure])

MAX_FIGURES = 512  # distinct (builder, arguments) kept per process, least recently used dropped first
CHECK = os.environ.get("TE_CHECK_FIGURES") == "1"  # set by the tests: see for_chart


_building = threading.local()  # set while this thread runs a cached builder


def _mark(value) -> None:
    """A cached figure: ``for_chart`` may keep its dicts on it. Other values (a service's result) are left as they
    are. A trace may not be shared: adding one to a figure validates it by taking its ``type`` out of its properties
    and putting it back (Plotly's data validator), so two readers adding the same trace at once could see it
    without its type, as a scatter ("Invalid property … Scatter: 'colorbar'" on a heatmap); cache the figure."""
    if isinstance(value, BaseTraceType):
        raise TypeError("figures.cached may not return a trace, which readers would share: cache the figure instead")
    if isinstance(value, go.Figure):
        value._te_cached = True


@st.cache_resource(show_spinner=False, max_entries=MAX_FIGURES)
def _build(name: str, _builder: Callable[..., go.Figure], args: tuple, kwargs: dict) -> go.Figure:
    """One figure per (builder name, arguments); the arguments are hashed by value (arrays by their bytes)."""
    _building.active = True
    try:
        fig = _builder(*args, **kwargs)
    finally:
        _building.active = False
    _mark(fig)
    return fig


class _Unkeyed(Exception):
    """An argument of a type ``_key`` does not know: Streamlit's own hashing keys that call instead."""


_SCALARS = (str, int, float, bool, bytes, type(None))


def _key(value):
    """A hashable key equal for equal arguments of the types figure builders take: numbers, strings, None, arrays
    (by dtype, shape and bytes), and lists, tuples and dicts of these; the type is part of the key (1, 1.0 and True
    differ). Several times faster than Streamlit's hashing of the same arguments, which a rerun pays for every
    figure."""
    if isinstance(value, _SCALARS):
        return (type(value).__name__, value.hex() if type(value) is float else value)  # NaN keys equal to NaN
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return ("ndarray-object", value.shape, _key(value.tolist()))
        digest = hashlib.blake2b(np.ascontiguousarray(value).tobytes(), digest_size=16).digest()
        return ("ndarray", value.dtype.str, value.shape, digest)
    if isinstance(value, np.generic):
        return ("np", value.dtype.str, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((_key(k), _key(v)) for k, v in value.items()))
    raise _Unkeyed(type(value).__name__)


_figures: OrderedDict = OrderedDict()  # key -> figure, least recently used first
_figures_lock = threading.Lock()


def _build_keyed(key, builder: Callable[..., go.Figure], args: tuple, kwargs: dict) -> go.Figure:
    """``_build`` for arguments ``_key`` knows: the same process-wide sharing in our own LRU dict."""
    with _figures_lock:
        fig = _figures.get(key)
        if fig is not None:
            _figures.move_to_end(key)
            return fig
    _building.active = True
    try:
        fig = builder(*args, **kwargs)
    finally:
        _building.active = False
    _mark(fig)
    with _figures_lock:
        fig = _figures.setdefault(key, fig)  # two readers racing: both get the first one stored
        _figures.move_to_end(key)
        while len(_figures) > MAX_FIGURES:
            _figures.popitem(last=False)
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
        try:
            key = (name, _key(args), _key(kwargs))
        except _Unkeyed:
            return _build(name, builder, args, kwargs)
        return _build_keyed(key, builder, args, kwargs)

    wrapper.uncached = builder  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def from_dicts(data: list[dict], layout: dict) -> go.Figure:
    """A figure from plain trace and layout dicts, as ``go.Figure(...)`` with the same properties would build it, but
    without Plotly's check of every property on the way: for a builder on a path where each new input builds a new
    figure (a new text on the GPT page: its two bar charts took 22 and 8 ms to build with ``graph_objects``, under
    1 ms each from dicts). The app's default template is applied as usual. With ``TE_CHECK_FIGURES=1`` (the tests)
    the dicts are checked as ``go.Figure`` checks them, so a misspelt property fails a test instead of vanishing."""
    spec = {"data": data, "layout": layout}
    if CHECK:
        _no_named_scales(spec)
        return go.Figure(spec)
    return go.Figure(spec, _validate=False)


def _no_named_scales(value) -> None:
    """Raise on a colour scale given by name: ``graph_objects`` turns "Blues" into Plotly for Python's stops, but a
    name sent as it is reaches plotly.js, whose scale of that name differs (its "Blues" runs dark to light)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "colorscale" and isinstance(item, str):
                raise ValueError(f"colorscale={item!r}: pass its stops (plotly.colors.get_colorscale({item!r}))")
            _no_named_scales(item)
    elif isinstance(value, list):
        for item in value:
            _no_named_scales(item)


def compact(value):
    """``value`` (a figure's dict, or part of one) with every float64 array that float32 holds exactly as a float32
    array: Plotly writes an array as its bytes (``{"dtype": "f8", "bdata": base64}``), so such an array goes out at
    half the size with the same numbers. The model's own activations are float32, widened on the way (a LLaMA
    token move sent 90 kB of figures, most of it such arrays). Other values are returned as they are."""
    if isinstance(value, dict):
        if value.get("dtype") == "f8" and isinstance(value.get("bdata"), str):
            wide = np.frombuffer(base64.b64decode(value["bdata"]), dtype="<f8")
            narrow = wide.astype("<f4")
            if np.array_equal(narrow, wide, equal_nan=True):
                return {**value, "dtype": "f4", "bdata": base64.b64encode(narrow.tobytes()).decode("ascii")}
            return value
        return {k: compact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


class _Spec(dict):
    """A figure's dict that also holds its JSON, written once: ``st.plotly_chart`` writes the dict it gets with
    ``plotly.io.to_json``, whose orjson engine asks an object for ``to_plotly_json`` first and copies an
    ``orjson.Fragment`` into its output as it is, instead of writing the same JSON again on every rerun.
    Plotly's other engine, or any other reader, sees the plain dict. Its arrays are
    ``compact``: the same numbers, half the bytes where float32 holds them."""

    def __init__(self, spec: dict):
        spec = compact(spec)
        super().__init__(spec)
        self.json = pio.to_json(spec, validate=False, engine="orjson")
        self._fragment = orjson.Fragment(self.json)

    def to_plotly_json(self):
        return self._fragment


class _Ready(go.Figure):
    """An empty figure whose ``to_dict`` is a dict built once: what ``st.plotly_chart`` reads on every rerun."""

    def __init__(self, spec: dict):
        super().__init__()
        self._te_spec = _Spec(spec)

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


def spec_json(fig: go.Figure, dark: bool) -> str:
    """``for_chart``'s figure as the JSON ``st.plotly_chart`` would send (arrays ``compact``): a cached figure's is
    written once per theme, another's on each call."""
    ready = for_chart(fig, dark)
    if isinstance(ready, _Ready):
        return ready._te_spec.json
    return pio.to_json(compact(ready.to_dict()), validate=False, engine="orjson")
