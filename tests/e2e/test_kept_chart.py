"""A figure that a move changes is redrawn in place (``app.shared.kept_chart``): the browser keeps the same plot and
hands it the new numbers, in the reader's theme, where ``st.plotly_chart`` would mount a new one."""

from __future__ import annotations

import pytest

from bench.interactions import MOVES
from tests.e2e.conftest import exceptions, goto, wait_idle

pytestmark = pytest.mark.e2e

PLOTS = '[data-testid="stMain"] [data-testid="teKeptChart"]'


def test_a_move_redraws_the_same_plots_with_new_numbers(server, page):
    path, move = MOVES["rope-d"]  # the head width d: every d-section's figure changes
    goto(page, f"{server}/{path}")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('{PLOTS}')].filter((gd) => gd._fullLayout).length >= 6"
    )
    before = page.evaluate(
        f"() => [...document.querySelectorAll('{PLOTS}')].map((gd, i) => {{"
        " gd.__teMark = i; return JSON.stringify(gd.data); })"
    )
    assert len(before) >= 6
    move(page, 1)
    changed = (
        f"(before) => [...document.querySelectorAll('{PLOTS}')]"
        ".filter((gd, i) => JSON.stringify(gd.data) !== before[i]).length"
    )
    page.wait_for_function(f"(before) => ({changed})(before) >= 3", arg=before, timeout=60_000)
    assert exceptions(page) == 0
    marks = page.evaluate(f"() => [...document.querySelectorAll('{PLOTS}')].map((gd) => gd.__teMark)")
    assert marks == list(range(len(before)))  # the same nodes, in the same order: none was mounted anew


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_kept_plot_takes_the_themes_colours(server, browser, scheme):
    """Streamlit's Plotly template names its colours #000001 ... #000040; a kept plot draws with the theme's."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    page = context.new_page()
    try:
        goto(page, f"{server}/rope")
        page.wait_for_function(
            f"() => [...document.querySelectorAll('{PLOTS}')].filter((gd) => gd._fullLayout).length >= 6"
        )
        drawn = page.evaluate(
            f"() => [...document.querySelectorAll('{PLOTS}')].map((gd) => ({{"
            " paper: ((d) => { d.style.color = gd._fullLayout.paper_bgcolor; document.body.append(d);"
            "   const c = getComputedStyle(d).color; d.remove(); return c; })(document.createElement('span')),"
            " layout: JSON.stringify(gd._fullLayout.colorway),"
            " data: JSON.stringify(gd._fullData.map((t) => [t.marker && t.marker.color, t.line && t.line.color])),"
            " app: getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor }))"
        )
        assert drawn
        for plot in drawn:
            assert "#0000" not in plot["layout"] + plot["data"]
            assert plot["paper"] == plot["app"]  # the figure sits on the app's own background
            r, g, b = (int(c) for c in plot["paper"][4:-1].split(","))
            assert (r + g + b > 384) == (scheme == "light")
    finally:
        context.close()


def test_a_plot_that_leaves_the_page_is_freed(server, page):
    """A kept plot is freed (``Plotly.purge``: its data and layout gone, its resize observer stopped) once its
    element has left the page — here when the reader follows a link in the sidebar to another page."""
    goto(page, f"{server}/rope")
    page.wait_for_function(f"() => [...document.querySelectorAll('{PLOTS}')].some((gd) => gd._fullLayout)")
    page.evaluate(f"() => {{ window.__teOld = document.querySelector('{PLOTS}'); }}")
    link = page.locator('[data-testid="stSidebarNav"] a[href$="/llama"]')
    link.evaluate("a => a.click()")
    page.wait_for_function("() => !window.__teOld.isConnected && !window.__teOld._fullLayout", timeout=60_000)
    wait_idle(page)
    assert exceptions(page) == 0
    assert page.evaluate(f"() => document.querySelectorAll('{PLOTS}').length") >= 1  # the new page's own plots


def test_a_figure_with_its_own_slider_keeps_its_frames(server, page):
    """A figure whose slider steps through frames (``plots.stepped``, RoPE's rotation) reaches the plot with every
    frame: its slider moves in the browser, without a rerun."""
    goto(page, f"{server}/rope")
    plot = ".st-key-rope_rotation .js-plotly-plot"
    page.wait_for_function(f"() => !!document.querySelector('{plot}')?._fullLayout")
    frames, steps = page.evaluate(
        f"() => {{ const gd = document.querySelector('{plot}');"
        " return [gd._transitionData._frames.length, gd.layout.sliders[0].steps.length]; }"
    )
    assert frames == steps > 1
