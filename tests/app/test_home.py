"""AppTest of home: every paper has its page, so home says nothing about planned pages, in either language."""

from __future__ import annotations

import json

import pytest

from app.catalog import APP_DIR, PAPERS
from app.shared.i18n import translate
from tests.app.conftest import figures, open_app


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
    (chart,) = figures(at).values()
    traces = json.loads(chart)["data"]
    assert len(traces) == 1 and traces[0]["marker"].get("symbol", "circle") == "circle"  # filled: nothing hollow
    assert len(traces[0]["x"]) == len(PAPERS)


def _timeline_order():
    from app.catalog import ERAS

    return [p for era in ERAS for p in sorted((q for q in PAPERS if q.era == era), key=lambda q: q.year)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phone_reads_the_timeline_and_the_cards_in_order(lang):
    """On a phone (390 px) the timeline's labels piled up, six papers within two years sharing one lane, and the cards,
    dealt to three columns in turn, stacked column by column. Each paper now has a row of the timeline to itself, the
    rows in the timeline's order; the cards carry the numbers of "start here" and come in that order in the page (what
    a phone stacks), era by era."""
    from app.catalog import ERAS, start_here

    order = _timeline_order()
    at = open_app(lang=lang)
    (chart,) = figures(at).values()
    (trace,) = json.loads(chart)["data"]
    rows = trace["y"]
    assert len(set(rows)) == len(rows) == len(PAPERS)  # no two labels share a row
    assert [label for _, label in sorted(zip(rows, trace["text"]))] == [p.short for p in order]
    numbered = [f"**{i} · {translate(f'paper.{p.key}.title', lang)}**" for i, p in enumerate(start_here(), start=1)]
    assert [p.era for p in start_here()] == sorted((p.era for p in PAPERS), key=ERAS.index)  # era by era
    cards = [md.value for md in at.markdown if md.value in numbered]
    assert cards == numbered


def test_labels_stay_inside_a_phones_plot():
    """A label points into the plot from its dot: to the right early on the axis, to the left late on it."""
    from app.home import views

    fig = views.timeline("en", tuple(p.key for p in PAPERS))
    (trace,) = fig.data
    lo, hi = views.X_RANGE
    for x, position in zip(trace.x, trace.textposition):
        assert position == ("middle left" if x - lo > (hi - lo) / 2 else "middle right"), (x, position)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_newcomer_sees_the_learning_paths(lang):
    """The Lessons page was invisible before a path was begun (issue 61): home, on a first visit (no progress
    cookie), offers every path by its title with a link that starts it at its first stop, and the Lessons page."""
    from urllib.parse import parse_qs

    from app.lessons import paths

    at = open_app(lang=lang)
    assert not at.exception
    text = " ".join(e.value for e in (*at.markdown, *at.subheader))
    assert translate("home.paths.title", lang) in text
    links = [(link.proto.page, link.proto.label, parse_qs(link.proto.query_string)) for link in at.get("page_link")]
    for key, stops in paths.PATHS.items():
        assert translate(f"lessons.path.{key}.title", lang) in text, key
        first = stops[0]
        starts = [q for page, _, q in links if q.get("lesson") == [key] and q.get("stop") == ["1"]]
        assert len(starts) == 1 and all(starts[0][k] == [v] for k, v in first.params), key
    assert any(page.endswith("lessons") or page == "lessons/page.py" for page, _, _ in links), links


def test_zh_start_here_names_no_page_in_english():
    """zh "Start here" labelled two pages in English ("Forward pass", "Scaling laws"); proper names (GPT, LLaMA,
    Switch / MoE) stay as they are."""
    import re

    from app.catalog import start_here

    at = open_app(lang="zh")
    assert not at.exception
    labels = [link.proto.label for link in at.get("page_link") if re.match(r"\d+ · ", link.proto.label)]
    assert [label.split(" · ", 1)[0] for label in labels] == [str(i + 1) for i in range(len(start_here()))]
    english = [label for label in labels if re.search(r"[A-Za-z]+ [a-z]{2,}", label)]
    assert not english, english
    assert any("前向计算" in label for label in labels) and any("缩放定律" in label for label in labels)
