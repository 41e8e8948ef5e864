"""The numbers behind a figure are written when someone downloads them, not on every rerun: one small
download per figure, and no rerun spends its time writing CSVs nobody clicked."""

from __future__ import annotations

from app.shared import numbers
from tests.app.conftest import open_app


def test_a_rerun_writes_no_download(monkeypatch):
    calls = []
    for name in ("to_csv", "to_json"):
        real = getattr(numbers, name)

        def counted(*a, _real=real, _name=name, **k):
            calls.append(_name)
            return _real(*a, **k)

        monkeypatch.setattr(numbers, name, counted)
    at = open_app("mamba")
    assert not at.exception
    buttons = [el for el in at.main if el.type == "download_button"]
    assert buttons  # the page offers its numbers ...
    assert calls == []  # ... without writing them
    assert all(b.proto.type == "tertiary" for b in buttons)
