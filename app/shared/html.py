"""The one way custom HTML is built: every text goes through ``esc``; styles are built from our own numbers."""

from __future__ import annotations

import html as _html


def esc(text: object) -> str:
    return _html.escape(str(text), quote=True)


def span(text: object, *, style: str = "", title: object = None, cls: str = "") -> str:
    """``<span>`` with escaped text and title. ``style`` and ``cls`` must be built by our code, never user text."""
    attrs = ""
    if cls:
        attrs += f' class="{esc(cls)}"'
    if style:
        attrs += f' style="{esc(style)}"'
    if title is not None:
        attrs += f' title="{esc(title)}"'
    return f"<span{attrs}>{esc(text)}</span>"


def reset_link(href: str, label: object, title: object) -> str:
    """A button-like link that opens ``href`` in this tab (a fresh session of the page). ``href`` is built by our
    code from the page's own address; it is escaped all the same."""
    style = (
        "display:inline-block;padding:0.25rem 0.75rem;border:1px solid rgba(49,51,63,0.2);border-radius:0.5rem;"
        "color:inherit;text-decoration:none;font-size:0.875rem;line-height:1.6"
    )
    return f'<a href="{esc(href)}" target="_self" title="{esc(title)}" style="{style}">⟲ {esc(label)}</a>'


# Presenter mode (a projector in a workshop): larger type; the explanation blocks, the reference expanders and the
# captions under figures are hidden, so the controls and figures fill the screen; the sidebar starts collapsed.
PRESENTER_CSS = """<style>
html { font-size: 125%; }
[class*="st-key-te_explain_"], [data-testid="stExpander"], [data-testid="stCaptionContainer"] { display: none; }
</style>"""
