"""The one way custom HTML is built: every text goes through ``esc``; styles are built from our own numbers."""

from __future__ import annotations

import html as _html
import json

from app.shared.theme import var


def esc(text: object) -> str:
    return _html.escape(str(text), quote=True)


TIP = "te-tip"  # a span whose title also shows on a tap (TIP_CSS): phones have no hover


def span(text: object, *, style: str = "", title: object = None, cls: str = "") -> str:
    """``<span>`` with escaped text and title. ``style`` and ``cls`` must be built by our code, never user text.
    A span with a title can take the focus, so a tap shows the title too (``TIP_CSS``)."""
    attrs = ""
    classes = " ".join(c for c in (cls, TIP if title is not None else "") if c)
    if classes:
        attrs += f' class="{esc(classes)}"'
    if style:
        attrs += f' style="{esc(style)}"'
    if title is not None:
        attrs += f' title="{esc(title)}" data-tip="{esc(title)}" tabindex="0"'
    return f"<span{attrs}>{esc(text)}</span>"


# The tap equivalent of a hover title: the focused span (a tap focuses it) shows its text in a bar at the foot of the
# window, which fits any screen width. Added once per page by the shell.
TIP_CSS = f"""<style>
.{TIP} {{ cursor: help; }}
.{TIP}:focus {{ outline: 2px solid #1f77b4; outline-offset: 1px; }}
.{TIP}:focus::after {{
  content: attr(data-tip); position: fixed; left: 8px; right: 8px; bottom: 8px; z-index: 1000;
  background: #262730; color: #fff; padding: 6px 10px; border-radius: 6px; font: 0.9rem sans-serif;
  white-space: pre-wrap; overflow-wrap: anywhere; pointer-events: none;
}}
/* On a phone a tap shows Plotly's toolbar over the figure's title and legend; every figure has its own download
   of the numbers below it, so the toolbar goes. */
@media (max-width: 640px) {{ .js-plotly-plot .modebar-container {{ display: none !important; }} }}
/* A row of segmented buttons wider than a phone wraps onto a second line rather than scrolling sideways, where
   the options past the edge would be hidden (a knock-out's five parts, a model's layers). */
@media (max-width: 640px) {{
  [data-testid="stButtonGroup"] [role="radiogroup"] {{ flex-wrap: wrap; overflow-x: visible; row-gap: 0.25rem; }}
}}
/* A static table on a phone: tighter cells, so most tables fit 390 px; a wider one scrolls inside its box. */
@media (max-width: 640px) {{
  [data-testid="stTableStyledTable"] :is(th, td) {{ padding: 0.25rem 0.25rem !important; font-size: 0.78rem; }}
}}
</style>"""


def reset_link(href: str, label: object, title: object) -> str:
    """A button-like link that opens ``href`` in this tab (a fresh session of the page). ``href`` is built by our
    code from the page's own address; it is escaped all the same."""
    style = (
        f"display:inline-block;padding:0.25rem 0.75rem;border:1px solid {var('rule')};border-radius:0.5rem;"
        "color:inherit;text-decoration:none;font-size:0.875rem;line-height:1.6"
    )
    return f'<a href="{esc(href)}" target="_self" title="{esc(title)}" style="{style}">⟲ {esc(label)}</a>'


SHARE_LINK = "te-share-link"  # the class of the sidebar's link; the history script keeps its text current


def share_link(href: str) -> str:
    """The view's address as text to copy. Drawn by the server at the end of a whole run, it would go stale as soon
    as a fragment's control wrote the URL (the sidebar does not rerun then); the history script sets its text to the
    browser's address whenever that changes or the link is drawn."""
    style = "white-space:pre-wrap;word-break:break-all;font-size:0.8rem"
    return f'<code class="{SHARE_LINK}" style="{style}">{esc(href)}</code>'


# Presenter mode (a projector in a workshop): larger type; the explanation blocks, the reference expanders and the
# captions under figures are hidden, so the controls and figures fill the screen; the sidebar starts collapsed.
PRESENTER_CSS = """<style>
html { font-size: 125%; }
[class*="st-key-te_explain_"], [data-testid="stExpander"], [data-testid="stCaptionContainer"] { display: none; }
</style>"""

# Presenter mode, one figure at a time: Page Down / Page Up (what a presentation clicker sends) bring the next or the
# previous figure of the page to the middle of the screen. Ours, static; active while the marker element is drawn
# (presenter mode on), ignored while the reader types in a field.
PRESENTER_MARKER = "te-present-on"
PRESENTER_SCRIPT = f"""<span class="{PRESENTER_MARKER}"></span><script>
(() => {{
  if (window.__tePresent) return;
  window.__tePresent = true;
  const FIGURES = ['stPlotlyChart', 'teKeptChart', 'stVegaLiteChart', 'stImage']
    .map((id) => '[data-testid="stMain"] [data-testid="' + id + '"]').join(', ');
  document.addEventListener("keydown", (event) => {{
    if (!document.querySelector(".{PRESENTER_MARKER}")) return;
    if (event.key !== "PageDown" && event.key !== "PageUp") return;
    if (event.target.closest && event.target.closest("input, textarea, [contenteditable]")) return;
    const middle = window.innerHeight / 2;
    const figures = [...document.querySelectorAll(FIGURES)].filter((f) => f.offsetParent !== null);
    const centre = (f) => {{ const r = f.getBoundingClientRect(); return r.top + r.height / 2; }};
    const next = event.key === "PageDown"
      ? figures.find((f) => centre(f) > middle + 8)
      : figures.filter((f) => centre(f) < middle - 8).pop();
    if (!next) return;
    event.preventDefault();
    next.scrollIntoView({{ block: "center" }});
  }});
}})();
</script>"""


# Browser Back and Forward through a page's states. Streamlit writes a control bound to the URL with
# history.replaceState, so a change leaves no entry to go back to, and on Back it reruns with the controls the
# browser still holds. This script (ours, static; no user text) makes a change of the query string a new history
# entry, and on Back/Forward reopens the address the entry holds — as a shared link, which restores every control.
# A change of page arrives as up to three writes (the new page's query string — none from the sidebar, the link's
# parameters from an in-app link — first written on the old page's path, then the new path, then the shell's
# parameters added back); they are merged into one entry, so the old page's entry keeps the old page's address.
# ``shell`` names the parameters every page keeps.
def history_script(shell: tuple[str, ...]) -> str:
    return HISTORY_SCRIPT.replace("SHELL_KEYS", json.dumps(list(shell)))


HISTORY_SCRIPT = """<script>
(() => {
  if (window.__teHistory) return;
  window.__teHistory = true;
  const SHELL = SHELL_KEYS;
  const MERGE_MS = 1500;
  const NEW_PATH_MS = 10000;  // a busy server may take seconds between clearing the old page and the new path
  const here = () => location.pathname + location.search;
  const own = (search) => [...new URLSearchParams(search).keys()].filter((k) => !SHELL.includes(k));
  const ownOf = (search) => {  // the page's own parameters, as one comparable string
    const p = new URLSearchParams(search);
    SHELL.forEach((k) => p.delete(k));
    p.sort();
    return p.toString();
  };
  let shown = here();
  let pageChange = 0;  // when the last write of a page change happened
  let cleared = 0;  // when the old page's parameters were last cleared
  const replace = history.replaceState.bind(history);
  const push = history.pushState.bind(history);
  let leaving = false;  // Back or Forward has asked for a reload: this document writes no more entries
  // An in-app link to another page (a lesson's next stop, Compare's "Open …'s page", the home page's links) that
  // the reader just followed: Streamlit then writes the link's query string on the old page's path before it
  // writes the new path. That write starts the new page's entry; the old page's entry keeps the old address.
  let following = 0;
  document.addEventListener("click", (event) => {
    const a = event.target.closest ? event.target.closest("a[href]") : null;
    if (!a || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (a.target && a.target !== "_self") return;
    const to = new URL(a.href, location.href);
    if (to.origin === location.origin && to.pathname !== location.pathname) following = Date.now();
  }, true);
  const write = (state, title, url) => {
    // The app may still write the address of the state it shows while the reload is under way (a rerun the
    // Back started); as a new entry, that write would cut off every entry after it, and Forward would lead nowhere.
    if (leaving) return;
    const next = url ? new URL(url, location.href) : null;
    if (!next || (next.pathname === location.pathname && next.search === location.search)) {
      replace(state, title, url);  // nothing a reader would go back to (a hash, the same address)
    } else {
      const now = Date.now();
      const newPage = next.pathname !== location.pathname;
      const followed = now - following < NEW_PATH_MS;
      const linked = followed && !newPage;  // the followed link's query string, on the old page's path
      const clearing = linked || (!newPage && own(location.search).length > 0 && own(next.search).length === 0);
      following = 0;
      // the shell's parameters written back (same page, same own parameters) are never an entry of their own,
      // however long the new page took to run; nor is the new path that follows a clearing. A link followed soon
      // after the last page change is a change of its own.
      const shellOnly = !linked && !newPage && ownOf(location.search) === ownOf(next.search);
      const soon = !followed && now - pageChange < MERGE_MS;
      const merge = !linked && (shellOnly || (newPage && now - cleared < NEW_PATH_MS) || soon);
      (merge ? replace : push)(state, title, url);
      if (newPage || clearing) pageChange = now;
      cleared = clearing ? now : newPage ? 0 : cleared;
    }
    shown = here();
    syncLinks();
  };
  history.replaceState = write;
  history.pushState = write;
  // The sidebar's link (SHARE_LINK) shows the address the reader would share: the one in the address bar now.
  const syncLinks = () => {
    const href = location.href;
    document.querySelectorAll("code.te-share-link").forEach((c) => {
      if (c.textContent !== href) c.textContent = href;
    });
  };
  new MutationObserver(syncLinks).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("popstate", (event) => {
    if (here() === shown) return;  // an in-page anchor
    event.stopImmediatePropagation();
    leaving = true;
    location.reload();
  }, true);
})();
</script>"""


# Streamlit's own words while the connection to the server is lost are English and speak to a developer ("Connecting",
# and after a while a dialog "Connection error … streamlit run yourscript.py"). In a class behind deploy/launch.py a
# student sees them when their process stops, until a live one takes them over. The style shows our translated words
# in their place (the original text stays in the page, at size 0, for React to update); the script (ours, static, the
# texts passed as JSON) marks that dialog, which no selector can tell from another by its text.
CONNECTION_DIALOG = "te-connection-dialog"


def connection_words(status: str, title: str, body: str) -> str:
    words = {
        k: json.dumps(str(v), ensure_ascii=False) for k, v in (("status", status), ("title", title), ("body", body))
    }
    return f"""<style>
[data-testid="stConnectionStatus"] label {{ font-size: 0 !important; }}
[data-testid="stConnectionStatus"] label::after {{ content: {words["status"]}; font-size: 0.875rem; }}
section[role="dialog"].{CONNECTION_DIALOG} h2 {{ font-size: 0 !important; }}
section[role="dialog"].{CONNECTION_DIALOG} h2::after {{ content: {words["title"]}; font-size: 1.5rem; }}
section[role="dialog"].{CONNECTION_DIALOG} h2 ~ * {{ display: none !important; }}
section[role="dialog"].{CONNECTION_DIALOG}::after {{
  content: {words["body"]}; display: block; padding: 0 1.5rem 1.5rem;
}}
</style><script>
(() => {{
  if (window.__teConnection) return;
  window.__teConnection = true;
  const mark = () => document.querySelectorAll('section[role="dialog"]').forEach((d) => {{
    const h = d.querySelector("h2");
    if (h && h.textContent.trim() === "Connection error") d.classList.add("{CONNECTION_DIALOG}");
  }});
  new MutationObserver(mark).observe(document.body, {{ childList: true, subtree: true }});
}})();
</script>"""
