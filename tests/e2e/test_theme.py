"""The app follows the reader's light or dark colour scheme, and what we draw ourselves stays readable.

The browser is asked for a colour scheme (what a phone or laptop set to dark mode sends); Streamlit picks its theme
from it, our HTML takes its colours from the CSS variables of ``app.shared.theme``, our Plotly figures are recoloured
for the theme the browser reports.
"""

import pytest

from tests.e2e.conftest import exceptions, goto

pytestmark = pytest.mark.e2e

APP = '[data-testid="stApp"]'
FIGURES = ':is([data-testid="stPlotlyChart"], [data-testid="teKeptChart"])'  # st.plotly_chart's, or a kept chart

# An element's text colour and the colour it is drawn on: every background from the page down to it, composited
# (our boxes are translucent in the dark theme).
COLOURS = """
(el) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const chain = [];
  for (let e = el; e; e = e.parentElement) chain.unshift(e);
  let bg = [255, 255, 255];
  for (const e of chain) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) bg = bg.map((v, i) => c[i] * c[3] + v * (1 - c[3]));
  }
  return {fg: parse(getComputedStyle(el).color).slice(0, 3), bg};
}
"""

# Dark greys (r = g = b <= 0x66) that a figure paints with, leaving out the grid and zero lines (Streamlit's own,
# deliberately faint): the ink a light-theme figure draws with, which disappears on a dark background.
DARK_INK = """
() => {
  const dark = (c) => {
    const m = (c || '').match(/^rgb\\((\\d+), (\\d+), (\\d+)\\)$/);
    return m !== null && m[1] === m[2] && m[2] === m[3] && Number(m[1]) <= 0x66;
  };
  return [...document.querySelectorAll('FIGURES path, FIGURES text')]
    .filter((e) => !/grid|zl/.test(e.getAttribute('class') || ''))
    .map((e) => e.style)
    .filter((s) => (dark(s.fill) && s.fillOpacity !== '0')
      || (dark(s.stroke) && s.strokeOpacity !== '0' && parseFloat(s.strokeWidth || '1') > 0))
    .map((s) => s.cssText);
}
""".replace("FIGURES", FIGURES)


def luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (0-255 channels)."""

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def app_background(page):
    return page.locator(APP).evaluate(COLOURS)["bg"]


def readable(locator) -> float:
    colours = locator.evaluate(COLOURS)
    return contrast(colours["fg"], colours["bg"])


@pytest.fixture
def dark(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    yield context.new_page()
    context.close()


@pytest.fixture
def light(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="light")
    yield context.new_page()
    context.close()


def test_dark_scheme_gives_a_dark_app_whose_views_read(server, dark):
    goto(dark, f"{server}/transformer-xl")
    assert exceptions(dark) == 0
    assert luminance(app_background(dark)) < 0.05
    # Our HTML: the segment labels beside the token boxes, a token outside the chosen segment and its memory.
    assert readable(dark.get_by_text("seg. 0", exact=True).first) >= 4.5
    assert readable(dark.locator('[data-testid="stMain"] .te-tip').first) >= 4.5
    # Our figures: no dark-grey ink left (the four score terms' sum markers were #111).
    for figure in dark.locator(FIGURES).all():
        figure.scroll_into_view_if_needed()
    dark.locator(FIGURES).last.locator("svg").first.wait_for()
    assert dark.evaluate(DARK_INK) == []

    # The Megatron diagram's boxes (white in the light theme) with the theme's text colour inside.
    goto(dark, f"{server}/scaling")
    assert exceptions(dark) == 0
    box = dark.get_by_text("on every device").first
    assert readable(box) >= 4.5


def test_light_scheme_stays_light_and_a_switch_follows_at_once(server, light):
    goto(light, f"{server}/transformer-xl")
    assert luminance(app_background(light)) > 0.9
    label = light.get_by_text("seg. 0", exact=True).first
    assert label.evaluate("(el) => getComputedStyle(el).color") == "rgb(85, 85, 85)"  # #555, as before the dark theme
    assert readable(label) >= 4.5
    # The system turns dark: Streamlit follows, and so do our views' colours, without a rerun.
    light.emulate_media(color_scheme="dark")
    app = f"document.querySelector('{APP}')"
    light.wait_for_function(f"getComputedStyle({app}).backgroundColor !== 'rgb(255, 255, 255)'")
    assert luminance(app_background(light)) < 0.05
    assert readable(label) >= 4.5
