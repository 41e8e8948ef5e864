"""The knock-out's two modes are named as the field names them (issue 61, item 11): zero ablation / mean ablation,
零消融 / 均值消融; the link keeps the ids ``zero`` / ``mean``; the help says what the mean is over (en, zh)."""

from __future__ import annotations

import pytest

from app.mla import service as svc
from app.shared.i18n import translate
from tests.app.conftest import open_app

LABELS = {"en": ["zero ablation", "mean ablation"], "zh": ["零消融", "均值消融"]}


def test_the_mode_labels_and_help_say_what_the_mean_is_over():
    for lang, labels in LABELS.items():
        assert [translate(f"view.ko.mode.{m}", lang) for m in ("zero", "mean")] == labels
    en, zh = translate("view.ko.mode.help", "en"), translate("view.ko.mode.help", "zh")
    assert "from 0 up to that one" in en and "running mean" in en and "all positions" in en
    assert "位置 0 到该位置" in zh and "累积均值" in zh and "所有位置" in zh


@pytest.mark.skipif(not svc.available(svc.MLA), reason="no mla checkpoint")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_page_shows_the_labels_and_keeps_the_mode_id_in_the_link(lang):
    at = open_app("mla", lang=lang, mla_ko_mode="mean")
    assert not at.exception
    mode = at.button_group(key="mla_ko_mode")
    assert mode.options == LABELS[lang] and mode.value == "mean"
    assert at.query_params["mla_ko_mode"] in ("mean", ["mean"])
