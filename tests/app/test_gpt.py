"""AppTest of the GPT page: prompt, sampling controls, generation and every view change what the page reports."""

from __future__ import annotations

import pytest

from app.shared.i18n import InputError, translate
from tests.app.conftest import metric, open_app, rerun

LANG = "en"


def rerun_whole(at):
    """Run after a sampling control changed. Its callback reruns the sampling part alone (the controls are a fragment
    of their own), and AppTest's tree then holds only that part's elements; a plain run after it draws the whole page
    again, with the controls the next step sets."""
    rerun(at, LANG)
    return rerun(at, LANG)  # page behaviour is tested in one language; test_shell visits every page in both


def texts(at) -> list[str]:
    return [x.value for x in at.text]


def generate(at):
    """Press Generate (generation runs on request only), then draw the whole page again."""
    at.button(key="gpt_generate").click()
    return rerun_whole(at)


def test_prompt_and_sampling_controls_change_the_metrics():
    at = open_app("gpt", lang=LANG)
    assert not at.exception
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    assert int(m("gpt.m.tokens")) > 5
    generate(at)
    assert int(m("gpt.m.generated")) == 32
    assert float(m("gpt.m.tps")) > 0
    first = (m("gpt.m.top"), m("gpt.m.entropy"))

    at.text_area(key="gpt_text").set_value("KING HENRY. My lord")
    rerun(at, LANG)
    assert not at.exception
    assert int(m("gpt.m.tokens")) == 6
    assert (m("gpt.m.top"), m("gpt.m.entropy")) != first
    kept_default = int(m("gpt.m.kept"))

    at.slider(key="gpt_temperature").set_value(0.0)
    rerun_whole(at)
    assert int(m("gpt.m.kept")) == 1
    assert float(m("gpt.m.entropy_after")) == 0.0

    at.slider(key="gpt_temperature").set_value(1.0)
    at.slider(key="gpt_top_p").set_value(1.0)
    at.slider(key="gpt_top_k").set_value(5)
    rerun_whole(at)
    assert int(m("gpt.m.kept")) == 5
    assert kept_default != 5

    generate(at)
    before = texts(at)
    at.number_input(key="gpt_seed").set_value(1)
    rerun_whole(at)
    generate(at)
    assert texts(at) != before  # another seed, another continuation

    at.slider(key="gpt_n").set_value(8)
    rerun_whole(at)
    generate(at)
    assert int(m("gpt.m.generated")) == 8


def test_generate_streams_the_same_tokens_as_the_cached_continuation():
    from app.gpt import sampling
    from app.gpt import service as svc

    at = open_app("gpt", lang=LANG)
    at.button(key="gpt_generate").click()
    rerun(at, LANG)
    assert not at.exception
    streamed = at.session_state[sampling.LAST][1]
    s = sampling.DEFAULTS
    cached = svc.generate(
        svc.EXAMPLES[0], s["gpt_n"], s["gpt_temperature"], s["gpt_top_k"], s["gpt_top_p"], s["gpt_seed"], "torch"
    )
    assert streamed.new_ids == cached.new_ids
    assert int(metric(at, "Generated tokens")) == len(cached.new_ids)
    assert float(metric(at, "Tokens per second")) > 0


def test_a_slider_move_does_not_generate_and_the_button_does(monkeypatch):
    """The first visit draws the distribution and generates nothing; a sampling move redraws the distribution and
    keeps the last continuation, marked out of date; only Generate decodes, and the mark follows the settings."""
    from app.gpt import service as svc

    calls = []
    real = svc.stream
    monkeypatch.setattr(svc, "stream", lambda *a, **k: calls.append(a) or real(*a, **k))
    at = open_app("gpt", lang=LANG)
    assert not at.exception and calls == []
    assert any(c.value == translate("gpt.not_generated", LANG) for c in at.caption)
    assert not [x for x in at.metric if x.label == translate("gpt.m.generated", LANG)]
    kept = metric(at, translate("gpt.m.kept", LANG))
    generate(at)
    assert len(calls) == 1
    continuation, made = texts(at), at.session_state["_gpt_last"]
    current = [c.value for c in at.caption if c.value.startswith("Made with the current settings")]
    assert len(current) == 1 and "temperature 0.80" in current[0]

    at.slider(key="gpt_temperature").set_value(1.5)
    rerun_whole(at)
    assert not at.exception
    assert len(calls) == 1  # no decoding on a move
    assert at.session_state["_gpt_last"] is made and texts(at) == continuation
    assert metric(at, translate("gpt.m.kept", LANG)) != kept  # the distribution follows the move
    stale = [c.value for c in at.caption if c.value.startswith("Out of date")]
    assert len(stale) == 1 and "temperature 0.80" in stale[0]

    at.slider(key="gpt_temperature").set_value(0.8)  # back to the settings it was made with
    rerun_whole(at)
    assert len(calls) == 1 and any(c.value.startswith("Made with the current settings") for c in at.caption)
    at.slider(key="gpt_temperature").set_value(1.5)
    rerun_whole(at)
    generate(at)
    assert len(calls) == 2
    assert any("temperature 1.50" in c.value and c.value.startswith("Made with") for c in at.caption)


def test_every_view_renders():
    at = open_app("gpt", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    assert int(m("gpt.tok.m.bytes")) >= int(m("gpt.m.tokens"))

    at.button_group(key="gpt_view").set_value("attention")
    rerun(at, LANG)
    assert not at.exception
    seen = {(m("gpt.att.m.last_looks"), m("gpt.att.m.self"))}
    at.button_group(key="gpt_head").set_value(3)
    rerun(at, LANG)
    seen.add((m("gpt.att.m.last_looks"), m("gpt.att.m.self")))
    at.button_group(key="gpt_layer").set_value(0)
    rerun(at, LANG)
    assert not at.exception
    seen.add((m("gpt.att.m.last_looks"), m("gpt.att.m.self")))
    assert len(seen) == 3
    at.toggle(key="gpt_att_generated").set_value(False)
    rerun(at, LANG)
    assert not at.exception

    at.button_group(key="gpt_view").set_value("lens")
    rerun(at, LANG)
    assert not at.exception
    assert len(m("gpt.lens.m.final_prob").split("→")) == 5  # embedding + 4 blocks

    at.button_group(key="gpt_view").set_value("icl")
    rerun(at, LANG)
    assert not at.exception
    # The shipped model has an induction head (card: induction_head_score 0.97, block 3 head 3): the page finds it.
    assert float(m("gpt.icl.m.ratio").rstrip("%")) < 25
    assert m("gpt.icl.m.head") == translate("view.layer_head", LANG, layer=3, head=3)
    at.slider(key="gpt_icl_length").set_value(50)
    rerun(at, LANG)
    assert not at.exception
    for shot, continues in (("refrain", True), ("list", True), ("names", False)):
        at.button_group(key="gpt_icl_shot").set_value(shot)
        rerun(at, LANG)
        assert not at.exception
        assert m("gpt.icl.few.m.continues") == translate("gpt.yes" if continues else "gpt.no", LANG), shot


def test_the_guided_experiment_holds_on_the_shipped_model():
    """The page's "Try this": for any random sequence shown twice, the first copy's loss is above a uniform guess,
    the repeat's is near 0, and one head scores near 1 — the head the text names."""
    import math

    at = open_app("gpt", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    named = translate("view.layer_head", LANG, layer=3, head=3)
    box = next(x.value for x in at.markdown if translate("view.try.title", LANG) in x.value)
    assert named in box  # the try box names the head the view will show
    at.button_group(key="gpt_view").set_value("icl")
    rerun(at, LANG)
    uniform = math.log(2048)
    for length, seed in ((30, 0), (30, 7), (10, 3), (60, 1)):
        at.slider(key="gpt_icl_length").set_value(length)
        at.number_input(key="gpt_icl_seed").set_value(seed)
        rerun(at, LANG)
        assert not at.exception
        first, second = float(m("gpt.icl.m.first")), float(m("gpt.icl.m.second"))
        assert first > uniform, (length, seed, first)
        assert second < 0.1, (length, seed, second)  # "close to 0": under 1% of the first copy's loss
        assert m("gpt.icl.m.head") == named
        assert float(m("gpt.icl.m.score")) > 0.9


@pytest.mark.parametrize(
    ("text", "key", "fields"),
    [
        ("   ", "gpt.error.empty", {}),
        ("你好" * 100, "gpt.error.too_long_tokens", {"n": 601, "max": 160}),
    ],
)
def test_bad_input_gets_a_translated_message(text, key, fields):
    at = open_app("gpt", lang=LANG)
    at.text_area(key="gpt_text").set_value(text)
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate(key, LANG, **fields)]


def test_too_many_characters_is_refused():
    from app.gpt import service as svc

    with pytest.raises(InputError) as e:
        svc.tokenize("the " * 151)  # 604 characters in 152 tokens, within the 160 tokens: the characters bind
    assert e.value.key == "gpt.error.too_long_chars"


def test_onnx_backend_gives_the_same_prediction():
    at = open_app("gpt", lang=LANG)
    top, p = metric(at, "Most likely next token"), metric(at, "Its probability")
    at.session_state["backend"] = "onnx"  # the sidebar's selectbox (AppTest does not list it after switch_page)
    rerun(at, LANG)
    assert not at.exception
    at.button(key="gpt_generate").click()
    rerun(at, LANG)
    assert not at.exception
    assert (metric(at, "Most likely next token"), metric(at, "Its probability")) == (top, p)
    assert metric(at, "Decoding") == translate("gpt.kv_cache", "en")  # decode.onnx takes and returns the cache


def test_the_cache_switch_keeps_the_tokens_and_compares_the_speeds():
    """Off, the same compiled step re-reads the sequence: same continuation; after this reader generated both ways,
    the tokens/s metric says how many times faster the other way was — measured, never assumed."""
    at = open_app("gpt", lang=LANG)
    generate(at)
    continuation = texts(at)
    assert len(continuation) == 2  # the prompt and the continuation
    tps = next(m for m in at.metric if m.label == "Tokens per second")
    assert not tps.delta  # nothing to compare with yet

    at.toggle(key="gpt_cache").set_value(False)
    rerun(at, LANG)
    assert not at.exception
    generate(at)
    assert metric(at, "Decoding") == translate("gpt.no_cache", "en")
    assert texts(at) == continuation
    tps = next(m for m in at.metric if m.label == "Tokens per second")
    measured = at.session_state["gpt_measured"]
    ratio = measured["torch:False"] / measured["torch:True"]
    assert tps.delta == translate("gpt.m.tps.vs", LANG, ratio=ratio, other=translate("gpt.kv_cache", LANG))


def test_knocking_out_the_induction_head_raises_the_loss_on_the_repeat():
    """The knock-out view opens on the page's induction head (block 3 head 3): zeroed, the repeat's loss jumps from
    near 0 to ~10 nats (measured 0.006 -> 10.03); another head of the same block leaves it near 0."""
    at = open_app("gpt", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    at.button_group(key="gpt_view").set_value("knockout")
    rerun(at, LANG)
    assert not at.exception
    best = translate("view.layer_head", LANG, layer=3, head=3)
    before, after = map(float, m("gpt.ko.m.repeat", what=best).split("→"))
    assert before < 0.1 and after - before > 5
    at.button_group(key="gpt_ko_head").set_value(0)
    rerun(at, LANG)
    other = translate("view.layer_head", LANG, layer=3, head=0)
    before0, after0 = map(float, m("gpt.ko.m.repeat", what=other).split("→"))
    assert before0 == before and after0 - before0 < 0.5
    at.button_group(key="gpt_ko_part").set_value("mlp")
    at.button_group(key="gpt_ko_mode").set_value("mean")
    rerun(at, LANG)
    assert not at.exception
    assert "→" in m("gpt.ko.m.repeat", what=translate("view.ko.what.blocks.mlp", LANG, layer=3))


def test_activation_patching_names_the_answers_and_refuses_unequal_lengths():
    at = open_app("gpt", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    at.button_group(key="gpt_view").set_value("patching")
    rerun(at, LANG)
    assert not at.exception
    assert (m("gpt.patch.m.answer"), m("gpt.patch.m.wrong")) == ("·son", "·maid")
    clean, corrupted = map(float, m("gpt.patch.m.ld").split("/"))
    assert clean > corrupted
    at.text_area(key="gpt_patch_corrupt").set_value("A short one.")
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("gpt.error.patch_lengths", LANG, clean=17, corrupted=5)]


# ---- the real SmolLM2-135M-Instruct, picked at the top of the page ---------------------------------------------------

REAL = "smollm2-135m"


def open_real(lang: str = LANG):
    """The page on the real model; fails (never skips) where it is missing: the README's setup fetches it."""
    from app.shared import services

    if not services.checkpoint(REAL).available:
        pytest.fail("SmolLM2-135M-Instruct is not on this machine: run `python -m models.data.pretrained`")
    at = open_app("gpt", lang=lang, timeout=300, gpt_model=REAL)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_real_model_knows_paris_and_shows_every_view():
    import re

    at = open_real()
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    at.text_area(key="gpt_text").set_value("The capital of France is")
    rerun(at, LANG)
    assert not at.exception
    assert m("gpt.m.tokens") == "5"  # no start token in front of a real model's text
    assert m("gpt.m.top") == "·Paris"
    assert float(m("gpt.m.top_p").rstrip("%")) > 50  # 77% measured

    at.button_group(key="gpt_view").set_value("attention")
    rerun(at, LANG)
    assert not at.exception
    at.slider(key="gpt_layer").set_value(17)
    at.button_group(key="gpt_head").set_value(8)
    rerun(at, LANG)
    assert not at.exception and m("gpt.att.m.last_looks")

    at.button_group(key="gpt_view").set_value("lens")
    rerun(at, LANG)
    assert not at.exception
    assert m("gpt.lens.m.first") == translate("gpt.lens.after", LANG, layer=29)  # only the last block finds Paris
    note = " ".join(x.value for x in at.info)
    assert "“·Paris”" in note and "“·”" in note  # the honest note: inner layers read the space token
    compared = [t.value for t in at.table if translate("gpt.compare.final", LANG) in t.value.columns]
    assert compared and list(compared[0][translate("gpt.compare.model", LANG)]) == ["gpt", "SmolLM2-135M-Instruct"]

    at.button_group(key="gpt_view").set_value("icl")
    rerun(at, LANG)
    assert not at.exception
    layer, head = map(int, re.findall(r"\d+", m("gpt.icl.m.head")))
    assert 15 <= layer <= 24 and 0 <= head < 9
    assert float(m("gpt.icl.m.score")) > 0.5
    assert float(m("gpt.icl.m.second")) < float(m("gpt.icl.m.first"))
    heads = [t.value for t in at.table if translate("gpt.compare.heads", LANG) in t.value.columns]
    assert heads and len(heads[0]) == 2  # ours beside the real one


def test_the_real_model_generates_with_a_cap_and_refuses_long_prompts():
    at = open_real()
    at.slider(key="gpt_n").set_value(4)
    rerun_whole(at)
    generate(at)
    assert not at.exception
    assert int(metric(at, translate("gpt.m.generated", LANG))) == 4
    assert metric(at, translate("gpt.m.decoding", LANG)) == translate("gpt.kv_cache", LANG)
    at.text_area(key="gpt_text").set_value("word " * 80)
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [
        translate("gpt.error.too_long_tokens_real", LANG, n=81, max=64)
    ]  # the trailing space is a token


def test_the_real_model_in_chinese():
    at = open_real("zh")
    assert any("SmolLM2-135M-Instruct" in x.value for x in at.markdown)
    assert metric(at, translate("gpt.m.top", "zh"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_real_model_knocks_out_and_patches_in_both_languages(lang):
    """Knock-out and patching on SmolLM2 (30 layers: a layer slider), English and Chinese (the patching map is
    computed once per process and input: the second language reads it from the cache)."""
    at = open_real(lang)
    m = lambda key, **f: metric(at, translate(key, lang, **f))  # noqa: E731
    at.button_group(key="gpt_view").set_value("knockout")
    rerun(at, lang)
    assert not at.exception, [e.value for e in at.exception]
    assert any("→" in x.value for x in at.metric)
    at.button_group(key="gpt_view").set_value("patching")
    rerun(at, lang)
    assert not at.exception, [e.value for e in at.exception]
    assert (m("gpt.patch.m.answer"), m("gpt.patch.m.wrong")) == ("·son", "·maid")


def _ko_reading(at, lang: str) -> str:
    """The caption under the knock-out figure: how to read it, then what knocking out the page's head measured."""
    start = translate("gpt.ko.read", lang)
    return next(x.value for x in at.caption if x.value.startswith(start))


@pytest.mark.parametrize("real", [False, True])
def test_the_knock_out_reading_is_measured_on_the_picked_model(real):
    """The sentence under the knock-out is computed from the picked model's own run of its induction head (ours:
    the repeat becomes about as hard as the first copy; SmolLM2, whose other heads also copy, keeps most of it), and
    agrees with the metric above it."""
    at = open_real() if real else open_app("gpt", lang=LANG)
    at.button_group(key="gpt_view").set_value("knockout")
    rerun(at, LANG)
    assert not at.exception
    head = next(m for m in at.metric if m.label.startswith(translate("gpt.ko.m.repeat", LANG, what="")[:12]))
    before, after = (f"{float(v):.2f}" for v in head.value.split("→"))
    reading = _ko_reading(at, LANG)
    assert f"from {before} to {after} nats" in reading
    assert translate("gpt.ko.read.many" if real else "gpt.ko.read.one", LANG) in reading
    assert "nearly as hard as the first copy" not in reading


def test_the_real_models_attention_sink_note_is_measured_not_compared():
    at = open_real()
    at.button_group(key="gpt_view").set_value("attention")
    rerun(at, LANG)
    notes = [x.value for x in at.caption if "attention sink" in x.value]
    assert len(notes) == 1 and "our small model" not in notes[0]
    assert "over all 270 heads of the model" in notes[0]  # 30 layers × 9 heads, measured on this text


def test_the_real_model_stops_at_its_end_of_turn_and_offers_its_chat_template():
    """SmolLM2 is instruction-tuned: greedy on "The capital of France is" it answers " Paris." and ends its turn
    with <|im_end|> (measured: 29 tokens later without a stop, it went on into a new turn). Generation stops there
    and says so; the chat template is a switch that sends the prompt as a user's turn (ours has none)."""
    from app.gpt import service as svc

    at = open_real()
    at.text_area(key="gpt_text").set_value("The capital of France is")
    at.slider(key="gpt_temperature").set_value(0.0)
    at.slider(key="gpt_n").set_value(32)
    rerun_whole(at)
    generate(at)
    assert not at.exception
    n = int(metric(at, translate("gpt.m.generated", LANG)))
    assert n < 32
    assert any(x.value == translate("gpt.stopped", LANG, token="<|im_end|>", n=n) for x in at.caption)
    assert not any("<|im_" in x for x in texts(at))
    assert at.toggle(key="gpt_chat").value is False

    chat = svc.tokenize("What is the capital of France?", REAL, chat=True)
    plain = svc.tokenize("What is the capital of France?", REAL)
    tok = svc.handle(REAL).tokenizer
    decoded = tok.decode(list(chat.ids), skip_special_tokens=False)
    assert decoded.startswith("<|im_start|>system\n") and decoded.endswith("<|im_end|>\n<|im_start|>assistant\n")
    assert "<|im_start|>user\nWhat is the capital of France?<|im_end|>" in decoded and len(plain.ids) < len(chat.ids)

    at.toggle(key="gpt_chat").set_value(True)
    rerun_whole(at)
    generate(at)
    assert not at.exception
    made = [x.value for x in at.caption if translate("gpt.chat", LANG) in x.value]
    assert made  # the continuation says it was made inside the template
    assert int(metric(at, translate("gpt.m.generated", LANG))) <= 32


def test_our_model_has_no_chat_switch_and_writes_on():
    at = open_app("gpt", lang=LANG)
    assert not [t for t in at.toggle if t.key == "gpt_chat"]
