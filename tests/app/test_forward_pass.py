"""AppTest of the forward-pass page: the recomposed logits equal the model's, the attribution adds up to the logit,
the position and layer controls change what is shown, one step at a time, and over-long text gets a message."""

from __future__ import annotations

import numpy as np
import pytest

from app.shared.i18n import InputError, translate
from tests.app.conftest import figures, metric, open_app, rerun, spec

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both


def m(at, key: str, lang: str = LANG, **fields) -> str:
    return metric(at, translate(key, lang, **fields))


def figure_data(at, key: str) -> list:
    """The traces' numbers of the Plotly chart with widget key ``key``."""
    return [tr.get("y", tr.get("z", tr.get("x"))) for tr in spec(at, key)["data"]]


STEPS = ("embed", "ln", "qkv", "attention", "out", "mlp", "layers", "predict", "dla")  # the step picker's


def show(at, step: str, lang: str = LANG):
    """Pick the step ``step`` (only the picked step is drawn)."""
    at.session_state["forward_pass_step"] = step
    return rerun(at, lang)


def relative(value: str, scale: float) -> float:
    return float(value) / max(1.0, scale)


def test_recomposed_logits_and_attribution_match_the_model():
    at = open_app("forward-pass", lang=LANG)
    assert not at.exception
    from app.forward_pass import service as svc

    v = svc.analyse(svc.DEFAULT_TEXT, 99, 0, 0, 1.0)
    scale = float(np.abs(v.logits).max())
    assert relative(m(at, "forward_pass.m.check_logits"), scale) <= 1e-4
    assert v.check_logits <= 1e-4 * scale and v.check_numpy <= 1e-4 * scale
    assert abs(v.dla.sum() + v.dla_bias - v.logits[v.predicted]) <= 1e-4 * scale
    show(at, "dla")
    assert not at.exception
    assert float(m(at, "forward_pass.dla.m.check")) <= 1e-4 * scale
    assert m(at, "forward_pass.m.token").startswith(f"{len(v.ids) - 1}:")  # the last token by default
    for check in ("check_embed", "check_ln", "check_qkv", "check_pattern", "check_context", "check_gelu"):
        assert getattr(v, check) <= 1e-4, check


def test_only_the_picked_step_is_drawn():
    """Of the steps, only the picked one is drawn (the knock-out, section 9, is always there below them)."""
    at = open_app("forward-pass", lang=LANG)
    assert at.session_state["forward_pass_step"] == "embed"  # the first step by default
    assert set(figures(at)) == {
        "forward_pass_embed",
        "forward_pass_ko_fig",
    }
    show(at, "mlp")
    assert not at.exception
    assert set(figures(at)) == {
        "forward_pass_mlp",
        "forward_pass_mlp_out",
        "forward_pass_ko_fig",
    }
    with pytest.raises(KeyError):
        m(at, "forward_pass.s1.m.id")  # step 1's metrics are gone with it


def test_position_layer_and_head_change_the_figures():
    at = open_app("forward-pass", lang=LANG)
    token = m(at, "forward_pass.m.token")
    embed = figure_data(at, "forward_pass_embed")
    show(at, "attention")
    attention = figure_data(at, "forward_pass_attention")

    at.slider(key="forward_pass_pos").set_value(5)
    rerun(at, LANG)
    assert not at.exception
    assert m(at, "forward_pass.m.token") != token
    assert m(at, "forward_pass.m.token").startswith("5:")
    assert figure_data(at, "forward_pass_attention") != attention
    show(at, "embed")
    assert figure_data(at, "forward_pass_embed") != embed

    show(at, "ln")
    ln = (m(at, "forward_pass.s2.m.mean"), m(at, "forward_pass.s2.m.std"))
    show(at, "layers")
    norm = m(at, "forward_pass.s7.m.norm", layer=0)
    show(at, "mlp")
    mlp = figure_data(at, "forward_pass_mlp")
    at.slider(key="forward_pass_layer").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert figure_data(at, "forward_pass_mlp") != mlp  # the picked step follows the layer
    show(at, "ln")
    assert (m(at, "forward_pass.s2.m.mean"), m(at, "forward_pass.s2.m.std")) != ln
    show(at, "layers")
    norm2 = m(at, "forward_pass.s7.m.norm", layer=2)
    assert norm2 != norm

    assert at.slider(key="forward_pass_layer").value == 2 and m(at, "forward_pass.s7.m.norm", layer=2) == norm2
    show(at, "attention")
    top = m(at, "forward_pass.s4.m.top")
    weights = figure_data(at, "forward_pass_attention")
    at.button_group(key="forward_pass_head").set_value(3)
    rerun(at, LANG)
    assert not at.exception
    assert figure_data(at, "forward_pass_attention") != weights or m(at, "forward_pass.s4.m.top") != top


def test_temperature_changes_the_top_probability():
    at = open_app("forward-pass", lang=LANG)
    show(at, "predict")
    p = m(at, "forward_pass.s8.m.p")
    at.slider(key="forward_pass_temperature").set_value(0.5)
    rerun(at, LANG)
    assert not at.exception
    assert float(m(at, "forward_pass.s8.m.p").rstrip("%")) > float(p.rstrip("%"))


def test_shorter_text_clamps_the_position():
    at = open_app("forward-pass", lang=LANG)
    at.text_area(key="forward_pass_text").set_value("To be")
    rerun(at, LANG)
    assert not at.exception
    assert m(at, "forward_pass.m.tokens") == "3"
    assert m(at, "forward_pass.m.token").startswith("2:")


def test_too_long_text_gets_a_clear_message():
    at = open_app("forward-pass", lang=LANG)
    at.text_area(key="forward_pass_text").set_value("§¶‡" * 190)  # < 600 characters, > 256 tokens
    rerun(at, LANG)
    assert not at.exception
    assert at.error and "context holds 256" in at.error[0].value
    # The text box stops at 600 characters; a longer text (a hand-made link) meets the service's own cap.
    from app.forward_pass import service as svc

    with pytest.raises(InputError) as caught:
        svc.tokenize("To be, or not to be. " * 40)
    assert "at most 600" in caught.value.message("en") and "600" in caught.value.message("zh")


def test_chinese_labels():
    at = open_app("forward-pass", lang="zh")
    assert not at.exception
    assert at.title[0].value == "一次前向传播的内部"
    show(at, "attention", "zh")
    assert m(at, "forward_pass.s4.m.top", lang="zh")
    assert any("层 0 · 头 0" in h.value for h in at.subheader)


def test_the_guided_experiment_states_what_the_page_shows():
    """The "try this" box's claims, read off the page: every check is below 1e-5 and says it matches, and the top
    token's probabilities at τ = 1 and 0.5 are the ones the page then shows."""
    at = open_app("forward-pass", lang=LANG)
    box = " ".join(x.value for x in at.markdown)
    checks = []
    for step in STEPS:
        show(at, step)
        assert not at.exception, step
        checks += [x for x in at.metric if "e-" in str(x.value) or "e+" in str(x.value)]
    assert len({x.label for x in checks}) >= 10
    assert all(float(x.value) < 1e-5 for x in checks)
    assert all(x.delta == translate("forward_pass.check.ok", LANG) for x in checks)
    show(at, "predict")
    p1 = m(at, "forward_pass.s8.m.p")
    at.slider(key="forward_pass_temperature").set_value(0.5)
    rerun(at, LANG)
    p2 = m(at, "forward_pass.s8.m.p")
    assert f"goes from {p1} to {p2}" in box


def test_paper_vs_here_reads_the_checkpoint_and_the_text_states_the_checks_tolerance():
    """The table's "here" column is the traced checkpoint's config; the try-this and the badges give the tolerance
    the checks use (sections.TOL), and the GELU help no longer says positive inputs pass unchanged."""
    from app.forward_pass import sections
    from app.forward_pass import service as svc

    at = open_app("forward-pass", lang=LANG)
    assert not at.exception
    c = svc.config()
    here = None
    for table in at.table:
        cols = table.value
        if translate("view.pvh.here", LANG) in cols.columns:
            here = dict(zip(cols[translate("view.pvh.what", LANG)], cols[translate("view.pvh.here", LANG)]))
    assert here is not None, "no paper-vs-here table"
    assert here[translate("forward_pass.pvh.layers", LANG)] == str(c["n_layers"])
    assert here[translate("forward_pass.pvh.width", LANG)] == str(c["dim"])
    assert here[translate("forward_pass.pvh.heads", LANG)] == f"{c['n_heads']} × {c['dim'] // c['n_heads']}"
    assert here[translate("forward_pass.pvh.context", LANG)] == f"{c['max_len']:,}"
    assert here[translate("forward_pass.pvh.vocab", LANG)] == f"{c['vocab']:,}"
    tol = f"{sections.TOL:.0e}".replace("e-0", "e-")  # 1e-4
    for lang in ("en", "zh"):
        see = translate("forward_pass.try.see", lang, token="x", p1=0.1, p2=0.2)
        assert tol in see and "1e-5" not in see, lang
        assert tol in translate("forward_pass.check.ok", lang)
    assert "almost unchanged" not in translate("forward_pass.s6.m.active.help", "en")
    assert "Φ(u)" in translate("forward_pass.s6.m.active.help", "zh")


def _before_after(text: str) -> tuple[float, float]:
    """A knock-out metric's "before → after" (a percentage as a fraction)."""
    return tuple(float(x.strip().rstrip("%")) / (100 if "%" in x else 1) for x in text.split("→"))


def test_knocking_out_the_first_mlp_more_than_doubles_the_loss_and_no_head_moves_it_much():
    """On the default text our model's next-token loss is ~3.56 nats; zeroing layer 0's MLP raises it to ~8.7
    (measured 3.562 -> 8.681), while zeroing any single head moves it by < 0.25 (measured: at most +0.23, L2 · H5).
    The page's caption says so (more than doubles; under half a nat); this checks it with margins."""
    from app.forward_pass import service as svc

    cfg = svc.config()
    last = len(svc.tokenize(svc.DEFAULT_TEXT)) - 1
    plain = svc.knock_out(svc.DEFAULT_TEXT, last, 0, "head", "zero", 0)
    for layer in range(cfg["n_layers"]):
        for head in range(cfg["n_heads"]):
            k = svc.knock_out(svc.DEFAULT_TEXT, last, layer, "head", "zero", head)
            assert abs(k.loss_after.mean() - plain.loss_before.mean()) < 0.5, (layer, head)

    at = open_app("forward-pass", lang=LANG)
    assert not at.exception
    assert any(c.value == translate("forward_pass.ko.read.ours", LANG) for c in at.caption)
    lh = translate("view.layer_head", LANG, layer=0, head=0)
    before, after = _before_after(m(at, "forward_pass.ko.m.loss", what=lh))
    assert before == pytest.approx(plain.loss_before.mean(), abs=1e-3) and abs(after - before) < 0.5
    at.button_group(key="forward_pass_ko_part").set_value("mlp")
    rerun(at, LANG)
    assert not at.exception
    before, after = _before_after(
        m(at, "forward_pass.ko.m.loss", what=translate("view.ko.what.blocks.mlp", LANG, layer=0))
    )
    assert after > 2 * before
    token = m(at, "forward_pass.m.predicted")
    p_before, p_after = _before_after(m(at, "forward_pass.ko.m.p", token=token, pos=last))
    assert p_after < p_before  # the plain run's top token loses probability
    at.button_group(key="forward_pass_ko_mode").set_value("mean")
    at.button_group(key="forward_pass_ko_layer").set_value(3)
    rerun(at, LANG)
    assert not at.exception
    assert "→" in m(at, "forward_pass.ko.m.loss", what=translate("view.ko.what.blocks.mlp", LANG, layer=3))


def test_the_knock_out_follows_the_position():
    at = open_app("forward-pass", lang=LANG)
    at.slider(key="forward_pass_pos").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert any(x.label.endswith(translate("forward_pass.ko.m.top", LANG, pos=2)[-12:]) for x in at.metric)


# ---- the real SmolLM2-135M-Instruct, picked at the top of the page ---------------------------------------------------

REAL = "smollm2-135m"


def open_real(lang: str = LANG):
    """The page on the real model; fails (never skips) where it is missing: the README's setup fetches it."""
    from app.shared import services

    if not services.checkpoint(REAL).available:
        pytest.fail("SmolLM2-135M-Instruct is not on this machine: run `python -m models.data.pretrained`")
    at = open_app("forward-pass", lang=lang, timeout=300, forward_pass_model=REAL)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_llama_walk_checks_every_step_on_the_real_model():
    at = open_real()
    from app.forward_pass import service as svc

    v = svc.analyse(svc.DEFAULT_TEXT, 99, 17, 4, 1.0, REAL)
    assert isinstance(v, svc.LlamaView) and (v.n_heads, v.n_kv_heads, v.kv_head) == (9, 3, 1)
    scale = float(np.abs(v.logits).max())
    assert v.check_logits <= 1e-4 * scale and v.check_numpy <= 1e-4 * scale and v.dla_check <= 1e-4 * scale
    assert m(at, "forward_pass.m.tokens") == str(len(svc.tokenize(svc.DEFAULT_TEXT, REAL)))  # no start token
    checks = []
    for step in STEPS:
        show(at, step)
        assert not at.exception, step
        checks += [
            x for x in at.metric if x.delta in (translate(f"forward_pass.check.{k}", LANG) for k in ("ok", "off"))
        ]
    assert len({x.label for x in checks}) >= 9
    assert all(x.delta == translate("forward_pass.check.ok", LANG) for x in checks), [
        (x.label, x.value) for x in checks
    ]
    assert translate("forward_pass.llama.tab.mlp", LANG) == "6 · SwiGLU"
    show(at, "qkv")
    at.slider(key="forward_pass_layer").set_value(17)
    rerun(at, LANG)
    assert not at.exception
    assert m(at, "forward_pass.llama.s3.m.kv") == translate("forward_pass.llama.s3.kv", LANG, head=0, g=0)


def test_the_llama_walk_in_chinese():
    at = open_real("zh")
    show(at, "mlp", "zh")
    assert not at.exception
    assert any("SwiGLU" in h.value for h in at.subheader)
    # the knock-out on the real model: 30 layers (a slider), a layer's attention zeroed changes the loss
    at.button_group(key="forward_pass_ko_part").set_value("attn")
    at.slider(key="forward_pass_ko_layer").set_value(29)
    rerun(at, "zh")
    assert not at.exception and not at.error, [e.value for e in at.error]
    what = translate("view.ko.what.blocks.attn", "zh", layer=29)
    before, after = _before_after(m(at, "forward_pass.ko.m.loss", "zh", what=what))
    assert before != after
