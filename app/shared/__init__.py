"""What several pages use: ui helpers (a figure and its download in one call), the i18n machinery and the common
strings, the bridge to models/ (engine, run), heatmaps, token strips, image maps, numpy helpers and number formats,
and the static assets loader.

The figure builders here are pure functions from numpy arrays to Plotly figures or escaped HTML, testable without
Streamlit; labels come in as arguments (already translated by the page). Nothing here imports a page's folder.
"""
