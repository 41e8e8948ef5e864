"""AppTest of home: every paper has its page, so home says nothing about planned pages, in either language."""

from __future__ import annotations

import json

import pytest

from app.catalog import APP_DIR, PAPERS
from app.shared.i18n import translate
from tests.app.conftest import open_app


def test_every_paper_of_the_catalog_has_its_page():
    """What lets home drop its "planned" metric, section and hollow markers: no paper is without a page."""
    assert [p.key for p in PAPERS if not (APP_DIR / p.script).exists()] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_speaks_of_no_planned_page(lang):
    at = open_app(lang=lang)
    assert not at.exception
    assert [m.label for m in at.metric] == [translate("home.available", lang)]
    assert [int(m.value) for m in at.metric] == [len(PAPERS)]
    text = " ".join(e.value for e in (*at.markdown, *at.caption, *at.subheader))
    for word in ("planned", "hollow", "no page yet", "计划", "空心", "尚无页面"):
        assert word not in text, word
    (chart,) = at.get("plotly_chart")
    traces = json.loads(chart.proto.spec)["data"]
    assert len(traces) == 1 and traces[0]["marker"].get("symbol", "circle") == "circle"  # filled: nothing hollow
    assert len(traces[0]["x"]) == len(PAPERS)
