"""The Compare page: any pair of models renders in both languages, three at once, the guesses follow the position,
and bad input is a translated message."""

from __future__ import annotations

import pytest

from app.compare import service as svc
from tests.app.conftest import metric, open_app, rerun

OFFERED = svc.offered()[0]
PAIRS = [("gpt", "mamba-lm"), ("llama-mha", "llama-mqa"), ("mistral", "transformer-xl"), ("mla", "mtp")]
SHORT = "ROMEO:\nBut soft, what light through yonder window breaks? Café"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_a_pair_renders(pair, lang):
    if not set(pair) <= set(OFFERED):
        pytest.skip(f"not installed: {pair}")
    at = open_app("compare", lang=lang, compare_models=",".join(pair), compare_text=SHORT)
    assert not at.exception
    assert not at.error
    assert len(at.metric) == 2
    for name in pair:
        assert 0.5 < float(metric(at, f"{name}: bits/char" if lang == "en" else f"{name}：比特/字符")) < 8
    assert len(at.table) == 4  # guesses of each, the cards, the costs


def test_three_models_and_the_position():
    names = [n for n in ("gpt", "llama", "mamba-lm") if n in OFFERED]
    if len(names) < 3:
        pytest.skip("needs gpt, llama and mamba-lm")
    at = open_app("compare", compare_models=",".join(names), compare_text=SHORT)
    assert not at.exception
    assert [m.label for m in at.metric] == [f"{n}: bits/char" for n in names]
    costs = at.table[-1].value
    assert len(costs) == 3
    held = dict(zip(costs.iloc[:, 0], costs.iloc[:, 3], strict=True))
    assert all(held.values())
    before = [tab.value.iloc[0, 1] for tab in at.table[:3]]
    at.slider(key="compare_pos").set_value(7)  # the "B" of "But"
    at = rerun(at, "en")
    assert not at.exception
    after = [tab.value.iloc[0, 1] for tab in at.table[:3]]
    assert before != after


def test_the_real_model_beside_ours():
    if "smollm2-135m" not in OFFERED:
        pytest.skip("smollm2-135m is not here")
    at = open_app("compare", compare_models="gpt,smollm2-135m", compare_text=SHORT, timeout=300)
    assert not at.exception
    assert float(metric(at, "smollm2-135m: bits/char")) < float(metric(at, "gpt: bits/char"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bad_input_is_a_message(lang):
    at = open_app("compare", lang=lang, compare_models="gpt", compare_text=SHORT)
    assert not at.exception
    assert at.error and ("two or three" in at.error[0].value or "两到三个" in at.error[0].value)
    at = open_app("compare", lang=lang, compare_models="gpt,mamba-lm", compare_text="   ")
    assert not at.exception
    assert at.error and ("Type a text" in at.error[0].value or "请输入" in at.error[0].value)
