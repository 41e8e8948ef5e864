"""AppTest helpers: run the real entry point (sidebar, navigation) and switch to a page."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app.shared import kept_chart

ENTRY = str(Path(__file__).resolve().parents[2] / "app" / "streamlit_app.py")


def page_script(page: str) -> str:
    """The script of the page at url_path ``page``, relative to the entry point's folder (``moe`` -> ``moe/page.py``),
    as ``AppTest.switch_page`` takes it."""
    return f"{page.replace('-', '_')}/page.py"


def open_app(page: str | None = None, lang: str = "en", timeout: float = 60, **query: str) -> AppTest:
    """The app after its first run on ``app/<page>/page.py`` (home when None), with query parameters set."""
    at = AppTest.from_file(ENTRY, default_timeout=timeout)
    at.query_params["lang"] = lang
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    if page is not None:
        at.switch_page(page_script(page)).run()
    return at


def rerun(at: AppTest, lang: str) -> AppTest:
    """Run again after a widget change, in ``lang``. After ``switch_page`` AppTest's tree has no sidebar, so the
    shell's language selectbox sends no state back; setting it before each run keeps the language of the test."""
    at.session_state["lang"] = lang
    drawn = len(at.main.children)
    at.run()
    if len(at.main.children) < drawn:
        # A control whose callback reruns named fragments (ui.rerun_parts) gets a run of those fragments alone, and
        # AppTest's tree then holds only what that run drew, not the rest of the page a browser keeps showing; a
        # run with nothing changed draws the whole page again, the controls included, at the values they have.
        at.session_state["lang"] = lang
        at.run()
    return at


def metric(at: AppTest, label: str) -> str:
    """The value of the st.metric whose label is ``label``."""
    for m in at.metric:
        if m.label == label:
            return m.value
    raise KeyError(f"no metric {label!r}; have {[m.label for m in at.metric]}")


def figures(at: AppTest) -> dict[str, str]:
    """Every Plotly figure the run drew, by its key, as the JSON sent to the browser: a kept chart's
    (``app.shared.kept_chart``, most figures) or an ``st.plotly_chart``'s (a figure the reader clicks into)."""
    out = {}
    for chart in at.get("bidi_component"):
        if chart.proto.component_name == kept_chart.NAME:
            out[chart.proto.id.rsplit("-", 1)[-1]] = json.loads(chart.proto.json)["figure"]
    for chart in at.get("plotly_chart"):
        out[chart.proto.id.rsplit("-", 1)[-1]] = chart.proto.spec
    return out


def spec(at: AppTest, key: str) -> dict:
    """The Plotly figure drawn with ``key``, as Streamlit sends it (its frames included: ``plots.stepped``)."""
    try:
        return json.loads(figures(at)[key])
    except KeyError:
        raise KeyError(f"no figure {key!r}") from None


def values(array) -> np.ndarray:
    """A figure's array as its JSON holds it: a list, or Plotly's typed array ``{"dtype", "bdata"}``."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"])
    return np.asarray(array, dtype=float)


@pytest.fixture
def app():
    return open_app
