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
