"""AppTest of the Mamba page: the instance, task, length and layer change what the page reports; the scan check and
the decoding costs are shown; bad input gets a translated message instead of a traceback."""

from __future__ import annotations

import pytest

from app.mamba import service as svc
from app.shared.i18n import InputError, translate
from tests.app.conftest import metric, open_app, rerun

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.skipif(not svc.available("copy"), reason="no Mamba checkpoint shipped")


def test_controls_change_the_metrics():
    at = open_app("mamba", lang=LANG)
    assert not at.exception and not at.error
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    assert m("mamba.m.positions") == "72"
    first = (m("mamba.m.delta_max"), m("mamba.m.delta_ratio"))
    # The three ways to run the scan agree to float32 rounding, relative to the logits' own scale (the absolute
    # difference depends on the CPU: 1.3e-4 was seen on logits of a few units).
    shown = svc.analyse("copy", 0, svc.INDUCTION_LENGTHS[0], "")
    scale = svc.scan_check(shown.name, tuple(int(i) for i in shown.ids))["logit_scale"]
    assert float(m("mamba.m.diff_seq")) <= 1e-3 * scale and float(m("mamba.m.diff_rec")) <= 1e-3 * scale
    assert m("mamba.m.state_kb").endswith("KiB")

    at.number_input(key="mamba_seed").set_value(5)
    rerun(at, LANG)
    assert not at.exception
    assert (m("mamba.m.delta_max"), m("mamba.m.delta_ratio")) != first

    by_seed = m("mamba.m.delta_max")
    at.slider(key="mamba_layer").set_value(1)
    rerun(at, LANG)
    assert not at.exception
    assert m("mamba.m.delta_max") != by_seed

    at.button_group(key="mamba_source").set_value("induction")
    rerun(at, LANG)
    assert not at.exception
    assert m("mamba.m.positions") == "64"
    at.button_group(key="mamba_length").set_value(256)
    rerun(at, LANG)
    assert not at.exception and not at.error
    assert m("mamba.m.positions") == "256"
    assert m("mamba.m.accuracy") in {"0%", "100%"}  # one answer per induction instance


def test_the_comparison_reports_both_models():
    at = open_app("mamba", lang=LANG, mamba_seed="3")
    assert not at.exception
    assert at.number_input(key="mamba_seed").value == 3
    for key in ("mamba.m.acc_mamba", "mamba.m.acc_lti"):
        assert metric(at, translate(key, "en")).endswith("%")
    table = next(d.value for d in at.dataframe if list(d.value.columns)[-1] == "LTI baseline")
    assert len(table) == 8 and list(table.columns) == ["position", "target", "Mamba", "LTI baseline"]
    assert (table["Mamba"] == table["target"]).mean() >= (table["LTI baseline"] == table["target"]).mean()


def test_the_url_reproduces_the_view():
    at = open_app("mamba", lang=LANG, mamba_source="induction", mamba_length="128", mamba_layer="1")
    assert not at.exception
    assert metric(at, "Positions") == "128"
    assert at.slider(key="mamba_layer").value == 1


def test_bad_input_gets_a_translated_message():
    with pytest.raises(InputError) as e:
        svc.analyse("copy", svc.MAX_SEED + 1, 64, "")
    assert e.value.message(LANG) == translate("mamba.error.seed", LANG, max=svc.MAX_SEED)
    if svc.available("induction"):
        with pytest.raises(InputError) as e:
            svc.analyse("induction", 0, 100, "")
        assert e.value.message(LANG) == translate("mamba.error.length", LANG, lengths="64, 128, 256")
    if not svc.available("text"):
        return
    at = open_app("mamba", lang=LANG, mamba_source="text")
    assert not at.exception
    at.text_area(key="mamba_text").set_value("   ")
    rerun(at, LANG)
    assert not at.exception
    assert [x.value for x in at.error] == [translate("mamba.error.empty", LANG)]
    at.text_area(key="mamba_text").set_value("莎士比亚" * 50)  # 200 characters, 600 bytes: far over 255 tokens
    rerun(at, LANG)
    assert not at.exception
    # Shakespeare's BPE has no merges for these bytes: 3 tokens a character.
    assert [x.value for x in at.error] == [translate("mamba.error.too_long", LANG, n=600, max=255)]
