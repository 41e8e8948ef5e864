"""AppTest of the Mistral page on a real sliding-window model: a tiny random Gemma3ForCausalLM (tests/real_models.py:
6 layers, layer 5 global, the others local with a window of 5, a word tokenizer) stands in for gemma-3-270m in a
fake Hugging Face cache. Picked, the page opens in both languages; the band's caption names the local and global
layers and W from the model's config; the reach is bounded by Σ (W − 1) over the local layers and unbounded after the
global one; the rolling buffer keeps W rows in every local layer while the global layer's cache grows; no number of
our mistral's card shows, and the sections that only make sense on ours say so and switch the page to ours."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("transformers")

from app.mistral import service as svc  # noqa: E402
from app.shared.i18n import InputError, translate  # noqa: E402
from tests import real_models  # noqa: E402
from tests.app.conftest import metric, open_app, rerun, spec  # noqa: E402

KEY = "gemma-3-270m"
L, W, GLOBAL = real_models.GEMMA_LAYERS, real_models.GEMMA_WINDOW, real_models.GEMMA_GLOBAL
TEXT = (
    "to be or not to be that is the question whether tis nobler in the mind to suffer what thou hast heaven knows "
    "good morning my lord how now"
)  # 29 words: longer than W, and than the local layers' reach before the global one


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    """HF_HUB_CACHE holding the tiny stand-in, TE_PRETRAINED an empty folder; the engine and the page's cached
    results forget models of this name afterwards."""
    from app.shared import services

    root = tmp_path_factory.mktemp("real-gemma")
    real_models.fake_hub(root / "hub", KEY)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_CACHE", str(root / "hub"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TE_PRETRAINED", str(root / "converted"))
        services.engine.clear()
        svc.forget()
        yield root
    services.engine.clear()
    svc.forget()


def _open(lang: str, **query):
    at = open_app("mistral", lang=lang, mistral_model=KEY, mistral_text_real=TEXT, **query)
    assert not at.exception, at.exception
    return at


def _texts(at) -> str:
    """Every sentence and number the page shows as text (markdown, captions, notices, metrics and their help)."""
    parts = [x.value for x in (*at.markdown, *at.caption, *at.info, *at.error)]
    parts += [f"{m.label} {m.value} {m.proto.help}" for m in at.metric]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_on_the_real_model_and_names_its_layers(real_cache, lang):
    at = _open(lang)
    assert at.selectbox(key="mistral_model").value == KEY
    assert not at.error
    s = svc.shape(KEY)
    assert s.real and s.window == W and s.global_ == GLOBAL and len(s.local) == L - len(GLOBAL)  # from its config
    caption = translate(
        "mistral.band.caption.real", lang, W=W, L=L, locals=svc.spans(s.local), globals=svc.spans(GLOBAL),
        n_local=L - len(GLOBAL), n_global=len(GLOBAL),
    )  # fmt: skip
    assert caption in [x.value for x in at.markdown]
    assert "0–4" in caption and "5" in caption
    # the global layer's pattern: no trained edge, every causal key
    at.button_group(key="mistral_layer").set_value(GLOBAL[0])
    rerun(at, lang)
    assert not at.exception
    assert any(translate("mistral.layer.global", lang) in x.value for x in at.markdown)


def test_no_number_of_our_card_shows(real_cache):
    lang = "en"
    at = _open(lang)
    shown = _texts(at)
    ours = svc.shape()  # our mistral (a skip-free check: its numbers come from the code's defaults when absent)
    for sentence in ("mistral.intro", "mistral.try.see", "mistral.explain", "mistral.ko.read", "mistral.narrow.read"):
        assert translate(sentence, lang, W=ours.window) not in shown
    assert f"W = {ours.window}" not in shown
    assert str(ours.n_layers * (ours.window - 1)) not in shown  # our reach, 124
    metrics = svc.card().get("metrics", {})
    for value in ("val_bpc", "llama_val_bpc"):
        if value in metrics:
            assert f"{metrics[value]:.3f}" not in shown
    # the sections that only make sense on ours say so, and switch the page to ours
    assert translate("mistral.real.ko", lang, name=svc.title(KEY), W=W, T=svc.MAX_REAL_TOKENS) in shown
    buttons = [b for b in at.button if b.key and b.key.startswith("mistral_ours_")]
    assert len(buttons) == 2  # the knock-outs and the narrower windows (the chunked pre-fill runs on it)
    if svc.available():
        buttons[0].click()
        rerun(at, lang)
        assert not at.exception
        assert at.selectbox(key="mistral_model").value == svc.NAME


def test_reach_is_bounded_by_the_local_layers_and_unbounded_after_the_global_one(real_cache):
    lang = "zh"
    at = _open(lang)
    n = len(svc.encode(TEXT, name=KEY))
    assert n - 1 > sum(W - 1 for _ in range(GLOBAL[0]))  # the text is longer than the local layers' reach
    all_ = translate("mistral.reach.all", lang)
    for layer in range(L):
        farthest, bound = metric(at, translate("mistral.m.farthest", lang, layer=layer)).split(" / ")
        if layer < GLOBAL[0]:
            assert bound == str((layer + 1) * (W - 1))
            assert int(farthest) <= int(bound)
        else:
            assert bound == all_
            assert int(farthest) == n - 1  # the global layer reads the first token
    assert metric(at, translate("mistral.m.beyond", lang)) == "0"
    r = svc.reach(TEXT, n - 1, KEY)
    assert r.influence[GLOBAL[0] - 1, : n - 1 - GLOBAL[0] * (W - 1)].max() == 0  # before it: out of reach, exactly


def test_reach_measures_the_local_layers_whose_bound_can_still_bind(real_cache):
    """A backward pass through a real model's long text costs seconds: the local layers are measured while the
    layers before them reach less than the position back, then the first global layer; the page says which."""
    lang = "en"
    bound = [(i + 1) * (W - 1) for i in range(GLOBAL[0])]  # 4, 8, 12, 16, 20
    position = bound[1] + 2  # 10: layers 0–2 reach 12 ≥ 10 back, so layers 3 and 4 are not measured
    expected = (*(i for i in range(GLOBAL[0]) if i == 0 or bound[i - 1] < position), GLOBAL[0])
    assert svc.reach_layers(position, KEY) == expected == (0, 1, 2, GLOBAL[0])
    at = _open(lang, mistral_position=str(position))
    assert not at.exception and not at.error
    for layer in range(L):
        label = translate("mistral.m.farthest", lang, layer=layer)
        assert (label in [m.label for m in at.metric]) == (layer in expected), layer
    assert translate("mistral.reach.some", lang, layers=svc.spans(expected)) in [x.value for x in at.caption]
    r = svc.reach(TEXT, position, KEY)
    assert r.layers == expected and r.farthest[0] == W - 1 and r.beyond.max() == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_real_model_opens_on_a_text_longer_than_its_window(real_cache, lang):
    """With no text in the link, a real model reads its own, longer than W, in its own text box; the band map's
    slider draws widths up to the text's length, W among them, and opens on W."""
    at = open_app("mistral", lang=lang, mistral_model=KEY)
    assert not at.exception and not at.error
    assert at.text_area(key="mistral_text_real").value == svc.LONG_TEXT
    T = len(svc.encode(svc.LONG_TEXT, name=KEY))
    assert W < T <= svc.MAX_REAL_TOKENS
    assert translate("mistral.band.short", lang, T=T, W=W) not in [x.value for x in at.caption]
    windows = svc.display_windows(T, KEY)
    assert W in windows and windows[-1] >= T > windows[-2] and list(windows) == sorted(set(windows))
    slider = spec(at, "mistral_band")["layout"]["sliders"][0]
    assert len(slider["steps"]) == len(windows) and slider["active"] == windows.index(W)
    assert svc.display_windows(T) == tuple(range(svc.DISPLAY_WINDOWS[0], svc.DISPLAY_WINDOWS[1] + 1))  # ours


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chunked_prefill_runs_on_the_real_model_and_equals_one_forward_pass(real_cache, lang):
    """Chunks of W through the local layers' rolling buffers and the global layer's growing cache give the last
    logits of one forward pass; the mask drawn is the first (local) layer's: at most W − 1 keys from the cache."""
    import math

    at = _open(lang)
    assert not at.exception and not at.error
    T = len(svc.encode(TEXT, name=KEY))
    p = svc.prefill(TEXT, KEY)
    assert len(p.masks) == math.ceil(T / W) and p.starts == tuple(range(0, T, W))
    assert all(m.shape[1] - m.shape[0] <= W - 1 for m in p.masks)
    assert p.max_diff <= 1e-4 * p.logit_scale
    assert metric(at, translate("mistral.m.chunks", lang)) == str(len(p.masks))
    caption = translate("mistral.prefill.caption.real", lang, name=svc.title(KEY), globals=svc.spans(GLOBAL))
    assert caption in [x.value for x in at.markdown]


def test_the_rolling_caches_hold_w_rows_in_local_layers(real_cache):
    lang = "en"
    at = _open(lang, mistral_prompt="to be or not to be that is the question", mistral_n_real="12")
    at.button(key="mistral_generate").click()
    rerun(at, lang)
    assert not at.exception and not at.error
    g = svc.generate("to be or not to be that is the question", 12, KEY)
    assert g.slots.shape[1] == W and (g.slots[-1] >= 0).sum() == W  # a local layer: W slots, all filled
    assert g.local_rows == W and g.global_rows == len(g.prompt) + 12  # the global layer keeps every position
    assert g.same_tokens
    assert metric(at, translate("mistral.m.local_rows", lang)) == f"{W} / {W}"
    assert metric(at, translate("mistral.m.global_rows", lang)) == str(g.global_rows)
    assert g.rolling_bytes[-1] < g.full_bytes[-1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_real_model_writes_after_the_text_and_its_buffers_wrap(real_cache, lang):
    """On a real model the rolling buffer may write after the text of section 1 (longer than W): the prompt is that
    text, every local buffer holds the last W positions, the oldest overwritten, and the tokens equal the full
    cache's."""
    at = _open(lang, mistral_n_real="4")
    at.toggle(key="mistral_after_text").set_value(True)
    rerun(at, lang)
    assert translate("mistral.roll.after_text.on", lang) in [x.value for x in at.caption]
    at.button(key="mistral_generate").click()
    rerun(at, lang)
    assert not at.exception and not at.error
    g = svc.generate(TEXT, 4, KEY, svc.max_text_chars(KEY))
    P = len(svc.encode(TEXT, name=KEY))
    assert list(g.prompt) == list(svc.encode(TEXT, name=KEY)) and P > W
    assert g.local_rows == W and g.global_rows == P + 4 and g.same_tokens
    assert sorted(g.slots[-1]) == list(range(P + 4 - W, P + 4))  # the last W positions, each in slot i mod W
    assert metric(at, translate("mistral.m.overwritten", lang)) == str(P + 4 - W)
    with pytest.raises(InputError):  # the prompt box's limit still holds where the reader types a prompt
        svc.generate(TEXT * 8, 4, KEY)


def test_gemma_reads_its_bos_and_reach_measures_chosen_layers(real_cache):
    """Gemma's own tokenizer starts every text with <bos> (its tokenizer.json, and ours converted from its GGUF,
    say so): the page reads it first, once. ``mistral.influence`` on a Gemma measures the layers asked for, equal to
    those rows of all."""
    import torch

    from models import mistral

    tok = real_cache_tokenizer()
    ids = svc.encode(TEXT, name=KEY)
    assert ids[0] == tok.token_to_id("<bos>") and (ids == ids[0]).sum() == 1
    model = svc.handle(KEY).model
    tokens = torch.as_tensor(ids)[None]
    every = mistral.influence(model, tokens, len(ids) - 1)
    some = mistral.influence(model, tokens, len(ids) - 1, [0, GLOBAL[0]])
    assert every.shape == (L, len(ids)) and some.shape == (2, len(ids))
    scale = float(every.max())
    assert abs(some - every[[0, GLOBAL[0]]]).max() <= 1e-5 * scale


def real_cache_tokenizer():
    return svc.handle(KEY).tokenizer


def test_the_lessons_exercise_asks_about_ours_and_offers_to_switch(real_cache):
    """The page's exercise counts our L · (W − 1): with Gemma picked it says it is about ours, not a check on Gemma."""
    lang = "zh"
    at = _open(lang)
    assert translate("lessons.ours_only", lang, name=svc.NAME) in [x.value for x in at.info]


def test_switching_models_keeps_the_page_whole(real_cache):
    """A layer, head or position chosen on one model and out of range on the other: the page switches both ways."""
    lang = "en"
    at = _open(lang)
    at.button_group(key="mistral_layer").set_value(GLOBAL[0])
    at.button_group(key="mistral_head").set_value(3)
    rerun(at, lang)
    assert not at.exception
    if not svc.available():
        return
    at.selectbox(key="mistral_model").set_value(svc.NAME)
    rerun(at, lang)
    assert not at.exception and not at.error
    ours = svc.shape()
    at.button_group(key="mistral_layer").set_value(ours.n_layers - 1)
    at.text_area(key="mistral_text").set_value(svc.DEFAULT_TEXT)
    rerun(at, lang)
    T = len(svc.encode(svc.DEFAULT_TEXT))
    at.slider(key="mistral_position").set_value(T - 1)
    rerun(at, lang)
    assert not at.exception
    at.selectbox(key="mistral_model").set_value(KEY)
    rerun(at, lang)
    assert not at.exception and not at.error
    at.text_area(key="mistral_text_real").set_value(TEXT)  # a real model's text box: its own key
    rerun(at, lang)
    assert not at.exception and not at.error


def test_a_real_models_origin_names_the_gguf_file_it_came_in(monkeypatch):
    """Gemma 3 270M comes as a GGUF file joined from pinned wheels (no repository, no wheel of its own): the picker's
    line about it names that file ("from ." before)."""
    from types import SimpleNamespace

    from app.shared import services

    card = {
        "real": True,
        "title": "Gemma 3 270M",
        "source": {"kind": "gguf", "file": "gemma-3-270m-q4_k_m.gguf", "metadata": {"license": "gemma"}},
    }
    monkeypatch.setattr(services, "checkpoint", lambda name, step=None: SimpleNamespace(card=card))
    about = services.real_about("gemma-3-270m")
    assert about["origin"] == "gemma-3-270m-q4_k_m.gguf" and about["license"] == "gemma"


@pytest.mark.slow
def test_on_the_real_gemma_the_window_binds_on_the_text_it_opens_with():
    """Where ``python -m models.data.pretrained gemma-3-270m`` has brought Gemma 3 270M: its text (Antony's speech,
    593 tokens) is longer than W = 512; no local layer puts any weight outside its band while each global layer
    does; after layer 0 the last state's farthest input is exactly W − 1 back, after layer 1 the first token; fed
    in two chunks of W, it gives one forward pass's last logits."""
    from app.shared import services
    from models import pretrained
    from models.data import pretrained as fetched

    if fetched.gguf_source(KEY) is None:
        pytest.skip("the Gemma 3 270M GGUF is not here: python -m models.data.pretrained gemma-3-270m")
    pretrained.prepare(KEY)
    services.engine.clear()
    svc.forget()
    s = svc.shape(KEY)
    T = len(svc.encode(svc.LONG_TEXT, name=KEY))
    assert s.window == 512 and s.global_ == (5, 11, 17) and s.window < T <= s.limit
    a = svc.analyse(svc.LONG_TEXT, "torch", KEY)
    beyond = a.outside_share(s.window)  # (L, H) the weight at distances ≥ W, over queries
    assert beyond[list(s.local)].max() == 0 and a.outside_own(s.windows) == 0
    assert all(beyond[g].max() > 0.01 for g in s.global_)  # every global layer reads past the band
    r = svc.reach(svc.LONG_TEXT, T - 1, KEY)
    assert r.layers == (0, 1, 5)
    assert list(r.farthest) == [s.window - 1, T - 1, T - 1] and r.beyond.max() == 0
    p = svc.prefill(svc.LONG_TEXT, KEY)  # two chunks: 512 positions, then 81 reading 511 back from the buffers
    assert [m.shape for m in p.masks] == [(s.window, s.window), (T - s.window, T - 1)]
    assert p.max_diff <= 1e-4 * p.logit_scale
    services.engine.clear()
    svc.forget()


def test_a_run_of_a_wide_buffer_names_its_own_slots():
    """A wide buffer (Gemma's 512 slots) shows the run around the slot written last: each box keeps its slot's
    number and its position mod W, and the newest is the red one."""
    from app.mistral import views

    W, newest = 512, 600
    positions = np.array([p if p % W < newest % W + 1 else p - W for p in range(W, 2 * W)])  # after 601 positions
    slots = np.empty(W, dtype=int)
    slots[positions % W] = positions
    first = 48
    html = views.slots_html(
        slots[first : first + 48], [str(i) for i in range(newest + 1)], newest, slot_name="slot", empty="-",
        first=first, W=W,
    )  # fmt: skip
    assert html.count("<span") == 48 and ">48: #560 " in html and ">88: #600 " in html and ">89: #89 " in html
    assert "slot 88 = 600 mod 512" in html and html.count("rgb(214,39,40)") == 1
