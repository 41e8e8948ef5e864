"""A Plotly figure that stays in the page across reruns, redrawn in place with ``Plotly.react``.

Why: ``st.plotly_chart`` names its element after the figure's content, so a figure whose numbers changed (a slider
moved) is a new element to the browser: React unmounts the old chart and Plotly builds the new one from nothing
(``newPlot``: every axis, layer and the modebar again, and a layout pass for the margins). On a page whose move
redraws six figures that was most of the move (bench/NOTES.md, "Kept charts"). This element keeps its name (the
figure's ``key``) while its content changes, so the browser keeps the plot and hands ``Plotly.react`` the new
figure, which redraws only what differs.

What it is: a Streamlit custom component (``st.components.v2``) whose script loads the plotly.js that the
``plotly`` package ships (served as a static file of the app, ``STATIC``) once per browser tab. It draws a figure as
``st.plotly_chart`` would: in the reader's theme (Streamlit's chart colours and fonts, read from the ``--st-*``
CSS properties Streamlit gives a component), the app's modebar (PNG download), the width of its column. It has no
selections: ``ui.plot`` keeps ``st.plotly_chart`` for a figure the reader clicks into."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import plotly
import streamlit as st

NAME = "te_kept_chart"
TEST_ID = "teKeptChart"  # the plot's data-testid, for the browser tests and the benches
SOURCE = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
STATIC = Path(__file__).resolve().parents[1] / "static" / "plotly.min.js"  # served at app/static/plotly.min.js


def publish() -> None:
    """Put the plotly package's plotly.js where the app serves static files (``STATIC``), once per version: the
    server's static folder is ignored by git, and a fresh clone fills it on its first run."""
    if STATIC.exists() and STATIC.stat().st_size == SOURCE.stat().st_size:
        return
    STATIC.parent.mkdir(exist_ok=True)
    part = STATIC.with_suffix(f".{os.getpid()}.part")  # one per process: two servers may start at once
    shutil.copyfile(SOURCE, part)
    part.replace(STATIC)  # atomic: a reader never gets half a file


_JS = r"""
const SRC = new URL("app/static/plotly.min.js", document.baseURI).href;

function plotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__tePlotly) {
    window.__tePlotly = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = SRC;
      s.onload = () => resolve(window.Plotly);
      s.onerror = () => { window.__tePlotly = null; reject(new Error("plotly.js did not load")); };
      document.head.appendChild(s);
    });
  }
  return window.__tePlotly;
}

function merge(into, from) {  // from's values win, objects merged key by key
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === "object" && !Array.isArray(v) && into[k] && typeof into[k] === "object") merge(into[k], v);
    else into[k] = v;
  }
  return into;
}

function light(colour) {  // whether a #rrggbb background is light
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour || "");
  if (!m) return true;
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 128;
}

// What Streamlit's own Plotly element does to a figure in its "streamlit" theme: the template's placeholder colours
// (#000001 ... #000040) become the theme's chart colours, and the template's layout gets the theme's fonts, greys
// and backgrounds (Streamlit 1.67's PlotlyChart, read from its bundle; the greys are its fixed light/dark ones).
function themed(text, style) {
  const v = (name) => style.getPropertyValue("--st-" + name).trim();
  const list = (name) => v(name).split(",").map((c) => c.trim()).filter((c) => c);
  const bg = v("background-color") || "#ffffff", border = v("border-color") || "#dcd8d4";
  const isLight = light(bg);
  const f = isLight ? "#808495" : "#e6eaf1", l = isLight ? "#e6eaf1" : "#31333F", s = isLight ? "#262730" : "#fafafa";
  const cat = list("chart-categorical-colors"), seq = list("chart-sequential-colors"),
        div = list("chart-diverging-colors");
  const map = { "#000035": l, "#000036": f, "#000037": s, "#000038": bg, "#000039": v("secondary-background-color"),
    "#000040": v("secondary-background-color"), "#000032": v("green-color"), "#000033": v("red-color"),
    "#000034": v("blue-color") };
  for (let i = 0; i < 10; i++) {
    if (cat.length) map["#0000" + String(i + 1).padStart(2, "0")] = cat[i % cat.length];
    if (seq.length) map["#0000" + String(i + 11)] = seq[i % seq.length];
    if (div.length) map["#0000" + String(i + 21)] = div[i % div.length];
  }
  const fig = JSON.parse(text.replace(/#0000(0[1-9]|[1-3][0-9]|40)/g, (m) => map[m] || m));
  const font = v("font") || "sans-serif";
  const axisTitle = { font: { color: f, size: 14 } };
  const layout = fig.layout || (fig.layout = {});
  const template = layout.template || (layout.template = {});
  template.layout = merge(template.layout || {}, {
    font: { color: f, family: font, size: 12, weight: 400 },
    title: { font: { family: v("heading-font") || font, size: 16, color: v("heading-color") || s }, pad: { l: 4 },
             xanchor: "left", x: 0 },
    legend: { title: { font: { size: 12, color: f }, side: "top" }, valign: "top", bordercolor: "rgba(0,0,0,0)",
              borderwidth: 0, font: { size: 12, color: s } },
    paper_bgcolor: bg, plot_bgcolor: bg,
    yaxis: { ticklabelposition: "outside", zerolinecolor: l, title: { ...axisTitle, standoff: 24 }, tickcolor: l,
             tickfont: { color: f, size: 12 }, gridcolor: l, minor: { gridcolor: l }, automargin: true },
    xaxis: { zerolinecolor: l, gridcolor: l, showgrid: false, tickfont: { color: f, size: 12 }, tickcolor: l,
             title: { ...axisTitle, standoff: 20 }, minor: { gridcolor: l }, zeroline: false, automargin: true },
    margin: { pad: 8, r: 0, l: 0 },
    hoverlabel: { bgcolor: bg, bordercolor: border, font: { color: f, family: font, size: 12 } },
    coloraxis: { colorbar: { thickness: 16, xpad: 24, ticklabelposition: "outside", outlinecolor: "rgba(0,0,0,0)",
                 outlinewidth: 8, len: 0.75, y: 0.5745, title: { font: { color: f, size: 14 } },
                 tickfont: { color: f, size: 12 } } },
  });
  const title = layout.title;
  if (title !== undefined && title !== null && title !== "") {
    const t = typeof title === "string" ? { text: title } : title;
    if (typeof t.text === "string" && t.text) layout.title = { ...t, text: "<b>" + t.text + "</b>" };
  }
  return fig;
}

export default function ({ data, parentElement }) {
  let gd = parentElement.querySelector(":scope > div.te-kept");
  if (!gd) {
    gd = document.createElement("div");
    gd.className = "te-kept";
    gd.setAttribute("data-testid", "%TEST_ID%");
    gd.style.width = "100%";
    parentElement.appendChild(gd);
    const observer = new ResizeObserver(() => {
      if (gd.__teDrawn && window.Plotly && gd.clientWidth !== gd.__teWidth) {
        gd.__teWidth = gd.clientWidth;
        window.Plotly.Plots.resize(gd);
      }
    });
    observer.observe(gd);
    // Streamlit calls the last function returned when the element unmounts (later, from a promise), and the one a
    // superseded call returned at once: free the plot only once it has left the page.
    gd.__teCleanup = () => {
      if (gd.isConnected) return;
      observer.disconnect();
      if (window.Plotly) window.Plotly.purge(gd);
    };
  }
  const text = typeof data.figure === "string" ? data.figure : new TextDecoder().decode(data.figure);
  const key = text + "\u0000" + getComputedStyle(parentElement).getPropertyValue("--st-background-color");
  if (gd.__teKey === key) return gd.__teCleanup;
  gd.__teKey = key;
  const fig = themed(text, getComputedStyle(parentElement));
  if (data.height) fig.layout.height = data.height;
  const height = fig.layout.height || 450;
  gd.style.height = height + "px";
  plotly().then((P) => {
    if (gd.__teKey !== key) return;  // a newer figure came while plotly.js loaded
    gd.__teWidth = gd.clientWidth;
    return P.react(gd, fig.data || [], fig.layout, data.config).then(() => { gd.__teDrawn = true; });
  }).catch((e) => { gd.textContent = String(e); });
  return gd.__teCleanup;
}
""".replace("%TEST_ID%", TEST_ID)

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
