// A Plotly figure kept across Streamlit reruns: app/shared/kept_chart.py mounts it (st.components.v2) and copies this
// file to app/static/, where the component's inline loader imports it. Plain browser JavaScript, no build step.
const SRC = new URL("plotly.min.js", import.meta.url).href;  // beside this file, in app/static/

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
    gd.setAttribute("data-testid", "teKeptChart");
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
    // the figure as one object: its frames too (a figure's own slider, plots.stepped, animates between them)
    const figure = { data: fig.data || [], layout: fig.layout, frames: fig.frames || [], config: data.config };
    return P.react(gd, figure).then(() => { gd.__teDrawn = true; });
  }).catch((e) => { gd.textContent = String(e); });
  return gd.__teCleanup;
}
