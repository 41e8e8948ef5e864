"""A short run of ``python -m bench.first_visit`` (one page, its own fresh server): it measures a first visit to the
end and its longest silent stretch, which cannot exceed the visit."""

from __future__ import annotations

import pytest

from bench import first_visit

pytestmark = pytest.mark.e2e


def test_one_first_visit_is_measured(browser):
    row = first_visit.visit(browser, "attention")
    assert row["page"] == "attention"
    assert 0 < row["complete_s"] < first_visit.LIMIT_S
    assert 0 <= row["longest_silent_s"] <= row["complete_s"]
    assert isinstance(row["spinner_seen"], bool)
    assert "| attention |" in first_visit.table([row])
