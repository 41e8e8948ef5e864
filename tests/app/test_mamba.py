"""AppTest of the Mamba page: the instance, task, length and layer change what the page reports; the scan check and
the decoding costs are shown; bad input gets a translated message instead of a traceback."""

from __future__ import annotations

import pytest

from app.mamba import service as svc
from app.shared.i18n import InputError, translate
from tests.app.conftest import metric, open_app, rerun, spec

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.skipif(not svc.available("copy"), reason="no Mamba checkpoint shipped")


FIGURE = "mamba_layer_steps"


def selection(at) -> dict:
    """The selection figure (every layer's strip, readout and map, on its own slider), as its JSON."""
    return spec(at, FIGURE)


def readouts(at) -> list[str]:
    """The readout of each layer (Δ's largest movement, and its share near the letters), one per step."""
    return [frame["data"][1]["text"][0] for frame in selection(at)["frames"]]


def test_controls_change_the_metrics():
    at = open_app("mamba", lang=LANG)
    assert not at.exception and not at.error
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    assert m("mamba.m.positions") == "72"
    first = readouts(at)
    assert selection(at)["layout"]["sliders"][0]["active"] == 0
    assert first[0].startswith("Δ moves most after the letter") and "near letters:" in first[0]
    # The three ways to run the scan agree to float32 rounding, relative to the logits' own scale (the absolute
    # difference depends on the CPU: 1.3e-4 was seen on logits of a few units).
    shown = svc.analyse("copy", 0, svc.INDUCTION_LENGTHS[0], "")
    scale = svc.scan_check(shown.name, tuple(int(i) for i in shown.ids))["logit_scale"]
    assert float(m("mamba.m.diff_seq")) <= 1e-3 * scale and float(m("mamba.m.diff_rec")) <= 1e-3 * scale
    # Decoding is timed on request, for this reader: nothing until the button, then the measured figures.
    assert not any(x.label == translate("mamba.m.state_kb", LANG) for x in at.metric)
    at.button(key="mamba_measure").click()
    rerun(at, LANG)
    assert not at.exception
    assert m("mamba.m.state_kb").endswith("KiB")

    at.number_input(key="mamba_seed").set_value(5)
    rerun(at, LANG)
    assert not at.exception
    assert readouts(at) != first
    # the reader's measurement is kept through other changes, and can be taken again
    assert m("mamba.m.state_kb").endswith("KiB")
    assert at.button(key="mamba_measure").label == translate("mamba.decode.again", LANG)

    by_layer = readouts(at)
    assert len(by_layer) == 2 and by_layer[0] != by_layer[1]  # the movement's size (and maybe place) in the other layer
    for shown, traces in (("abar", 5), ("bc", 8), ("hnorm", 5), ("delta", 5)):  # strip, readout, then the map's
        at.button_group(key="mamba_map").set_value(shown)
        rerun(at, LANG)
        assert not at.exception
        assert len(selection(at)["data"]) == traces and readouts(at) == by_layer

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
    assert selection(at)["layout"]["sliders"][0]["active"] == 1  # the figure opens on the link's layer


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


def percent(text: str) -> float:
    return float(text.rstrip("%")) / 100


def test_the_guided_experiment():
    """The "Try this" box: on selective copying, layer 0, Δ moves near the letters (a letter and the next d_conv − 1
    tokens) and hardly elsewhere, on the default instance and others; Mamba copies, the LTI model far less. The box
    states the numbers of instances 0–39, and the largest movement is not put on a noise token without its letter."""
    at = open_app("mamba", lang=LANG)
    m = lambda key: metric(at, translate(key, LANG))  # noqa: E731
    stats = svc.try_stats()
    assert stats.share_low > 0.85 and stats.positions < 0.5 and stats.accuracy > 0.99 and stats.lti < 0.6
    for seed in (0, 7, 21):
        at.number_input(key="mamba_seed").set_value(seed)
        rerun(at, LANG)
        assert not at.exception
        a = svc.analyse("copy", seed, svc.INDUCTION_LENGTHS[0], "")
        share, positions = svc.share_near_letters(a, 0)
        near = readouts(at)[0].split("near letters: ")[1].split("%")[0]  # layer 0's readout
        assert int(near) / 100 == pytest.approx(share, abs=0.006) and share > positions + 0.4
        assert percent(m("mamba.m.acc_mamba")) > percent(m("mamba.m.acc_lti"))
        peak = svc.movement_peak(a, 0)
        assert a.labels[peak] != "·" or svc.letter_before(a, peak) is not None  # a noise peak names its letter
    box = next(md.value for md in at.markdown if translate("view.try.title", LANG) in md.value)
    assert f"{stats.share_median:.0%}" in box and f"{stats.lti:.1%}" in box


def test_the_largest_movement_names_the_letter_not_a_noise_token():
    """On the default view the largest Δ movement (layer 0, past the padded start) sits just after a letter: the
    readout names that letter (never a noise token) and where exactly Δ peaks."""
    at = open_app("mamba", lang=LANG)
    shown = readouts(at)[0]
    a = svc.analyse("copy", 0, svc.INDUCTION_LENGTHS[0], "")
    peak = svc.movement_peak(a, 0)
    letter = svc.letter_before(a, peak)
    assert peak >= a.d_conv - 1 and letter is not None
    assert shown.startswith(
        translate("mamba.readout.letter", LANG, letter=a.labels[letter], t=letter, at=peak, v=a.delta_move[0][peak])
    )
    assert a.labels[letter] != "·" and f"the letter {a.labels[letter]!r}" in shown


def test_clamping_delta_collapses_copying_on_the_page():
    at = open_app("mamba", lang=LANG)
    assert not at.exception
    m = lambda key: metric(at, translate(key, LANG))  # noqa: E731
    before = float(m("mamba.clamp.acc_before").rstrip("%"))
    after = float(m("mamba.clamp.acc_after").rstrip("%"))
    assert before > 95 and after < 25  # Δ → 0 on every channel of layer 0: 99.6% -> 11.9% (chance 12.5%)
    at.segmented_control(key="mamba_clamp_mode").set_value("top").run()
    at.slider(key="mamba_clamp_k").set_value(4).run()
    assert not at.exception
    assert float(m("mamba.clamp.acc_after").rstrip("%")) > after  # four channels clamped hurt less than all of them
