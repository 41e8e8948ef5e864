"""AppTest of the T5 page: it runs in English; noise density changes the corrupted input; span corruption keeps every
token exactly once across input and target; each task prefix gets an answer of its task's form; bad input gets a
translated message, never an exception; the ONNX backend answers as torch does.

Tests marked ``needs_trained`` ask for what only the shipped checkpoint can do (they skip while the installed ``t5``
misses the bars on its card, e.g. a throwaway checkpoint trained for a few steps)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import tests.app.conftest as app_conftest
from app.shared.i18n import translate
from app.t5 import service as svc
from models import zoo
from models.data import text2text as tt
from tests.app.conftest import metric, open_app, rerun

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both
ROOT = Path(__file__).resolve().parents[2]


def _meets_its_bars() -> bool:
    if not svc.available():
        return False
    card = zoo.read_card(svc.NAME)
    got = card.get("metrics", {})
    for name, bar in card.get("bars", {}).items():
        if name not in got or ("min" in bar and got[name] < bar["min"]) or ("max" in bar and got[name] > bar["max"]):
            return False
    return bool(card.get("bars"))


needs_t5 = pytest.mark.skipif(not svc.available(), reason="no t5 checkpoint (python -m models.train t5)")
needs_trained = pytest.mark.skipif(
    not _meets_its_bars(), reason="the installed t5 misses its card's bars: its answers mean nothing yet"
)


@pytest.fixture(autouse=True)
def _absolute_entry(monkeypatch):
    # AppTest resolves a relative script path against the calling file (tests/app/), not the working directory.
    monkeypatch.setattr(app_conftest, "ENTRY", str(ROOT / app_conftest.ENTRY))


def m(at, key: str, **fields) -> str:
    return metric(at, translate(key, LANG, **fields))


def answer_shown(at) -> str:
    """The model's answer as the page shows it (the first code block; the right answer is the second; ∅ when the
    model wrote nothing)."""
    value = at.code[0].value
    return "" if value == "∅" else value


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def test_page_runs_in_english():
    at = open_app("t5", lang=LANG)
    assert not at.exception
    if not svc.available():
        assert errors(at) == [translate("error.model_missing", LANG, name=svc.NAME)]
        return
    assert not errors(at)
    assert at.radio(key="t5_task").value == "reverse_words"
    assert answer_shown(at) == svc.answer(svc.NAME, "reverse_words", svc.EXAMPLES["reverse_words"][0]).answer


@needs_t5
def test_noise_density_changes_the_corrupted_input():
    at = open_app("t5", lang=LANG)
    lengths = m(at, "t5.span.m.lengths")
    c = svc.corruption(svc.NAME, svc.DEFAULT_SPAN_TEXT, 0.15, 3.0, 0)
    assert lengths == f"{len(c.input)} / {len(c.target)}"
    assert m(at, "t5.span.m.reassembled") == translate("t5.yes", LANG)

    at.slider(key="t5_density").set_value(0.4)
    rerun(at, LANG)
    assert not at.exception
    c4 = svc.corruption(svc.NAME, svc.DEFAULT_SPAN_TEXT, 0.4, 3.0, 0)
    assert c4.input != c.input
    assert m(at, "t5.span.m.lengths") == f"{len(c4.input)} / {len(c4.target)}" != lengths
    assert m(at, "t5.span.m.dropped") == f"{int(c4.dropped.sum())} ({c4.dropped.mean():.0%})"
    assert m(at, "t5.span.m.reassembled") == translate("t5.yes", LANG)

    at.slider(key="t5_mean_span").set_value(1.0)  # one sentinel per dropped token: the longest target
    rerun(at, LANG)
    assert not at.exception
    c1 = svc.corruption(svc.NAME, svc.DEFAULT_SPAN_TEXT, 0.4, 1.0, 0)
    assert c1.n_spans == int(c1.dropped.sum()) > c4.n_spans
    assert m(at, "t5.span.m.spans") == str(c1.n_spans)


@needs_t5
def test_span_corruption_keeps_every_token_exactly_once():
    ids = svc.encode(svc.NAME, svc.DEFAULT_SPAN_TEXT, sentinels=False)
    for density in (0.05, 0.15, 0.5):
        for mean_span in (1.0, 3.0, 8.0):
            for seed in range(4):
                mask = tt.noise_mask(len(ids), density, mean_span, np.random.default_rng(seed))
                inp, tgt = tt.corrupt(ids, mask)
                kept = [i for i in inp if not tt.is_sentinel(i) and i != tt.EOS]
                dropped = [i for span in tt.spans_of(tgt) for i in span]
                assert Counter(kept) + Counter(dropped) == Counter(ids)
                assert len(kept) + len(dropped) == len(ids)
                assert svc.reassemble(inp, tgt) == ids
    c = svc.corruption(svc.NAME, svc.DEFAULT_SPAN_TEXT, 0.3, 2.0, 7)
    assert c.reassembled and len(c.tokens) == len(ids)
    assert c.lengths["bert_style"] == (len(ids) + 1, len(ids) + 1)
    assert c.lengths["spans"] == (len(c.input), len(c.target))
    assert c.lengths["spans"][1] < c.lengths["iid"][1] < c.lengths["bert_style"][1]


@needs_t5
@needs_trained
def test_each_task_prefix_gives_an_answer_of_its_form():
    """The same model answers every prefix in that task's form (run on the shipped checkpoint)."""
    at = open_app("t5", lang=LANG)
    forms = {
        "which_play": lambda a, text: a in svc.LABELS,
        "count_words": lambda a, text: a.isdigit(),
        "reverse_words": lambda a, text: a and "<extra_id" not in a,  # words; right for short common ones only
        "fill": lambda a, text: a.startswith("<extra_id_0>"),
    }
    for task in svc.TASKS:
        text = svc.EXAMPLES[task][0]
        at.radio(key="t5_task").set_value(task)
        at.text_area(key="t5_text").set_value(text)
        rerun(at, LANG)
        assert not at.exception
        assert forms[task](answer_shown(at), text), (task, answer_shown(at))


@needs_t5
@needs_trained
def test_answers_of_the_shipped_model():
    """REAL-MODEL CHECK: exact answers the shipped checkpoint is expected to give."""
    assert svc.answer(svc.NAME, "reverse_words", "to be or not").answer == "not or be to"
    for text in svc.EXAMPLES["count_words"]:
        got = svc.answer(svc.NAME, "count_words", text).answer
        assert got.isdigit() and abs(int(got) - len(text.split())) <= 1, (text, got)


@needs_t5
def test_bad_input_gets_a_translated_message_and_no_exception():
    at = open_app("t5", lang=LANG)
    cases = [
        ("t5_text", "   ", translate("t5.error.empty", LANG)),
        ("t5_text", "你好 world", translate("t5.error.unknown", LANG, chars="'你好'")),
        ("t5_text", "to be <extra_id_0> be", translate("t5.error.sentinel", LANG)),
        ("t5_span_text", "", translate("t5.error.empty", LANG)),
        ("t5_span_text", "to", translate("t5.error.span_short", LANG, n=1, min=svc.SPAN_MIN_TOKENS)),
    ]
    for key, value, message in cases:
        at.text_area(key=key).set_value(value)
        rerun(at, LANG)
        assert not at.exception, (key, value)
        assert message in errors(at), (key, value, errors(at))
        at.text_area(key=key).set_value(svc.EXAMPLES["reverse_words"][0] if key == "t5_text" else svc.DEFAULT_SPAN_TEXT)
    with pytest.raises(svc.InputError) as e:
        svc.answer(svc.NAME, "fill", "to be <extra_id_64> be")
    assert e.value.key == "t5.error.sentinel_range"
    with pytest.raises(svc.InputError) as e:
        svc.answer(svc.NAME, "which_play", "word " * 100)
    assert e.value.key == "t5.error.too_long"
    with pytest.raises(svc.InputError) as e:
        svc.corruption(svc.NAME, "to be or not " * 40, 0.15, 3.0, 0)
    assert e.value.key == "t5.error.span_tokens"


@needs_t5
@pytest.mark.skipif(
    not (zoo.checkpoint_dir(svc.NAME) / "model.onnx").exists(), reason="no model.onnx (python -m models.export t5)"
)
def test_onnx_backend_gives_the_same_answer():
    at = open_app("t5", lang=LANG, backend="onnx")
    assert not at.exception
    torch_answer = svc.answer(svc.NAME, "reverse_words", svc.EXAMPLES["reverse_words"][0], "torch")
    onnx_answer = svc.answer(svc.NAME, "reverse_words", svc.EXAMPLES["reverse_words"][0], "onnx")
    assert answer_shown(at) == torch_answer.answer == onnx_answer.answer
    assert any("onnx" in c.value for c in at.caption)
    scale = float(np.abs(torch_answer.cross).max())
    assert np.abs(onnx_answer.cross - torch_answer.cross).max() <= 1e-4 * scale


def test_the_three_masks():
    n_in, n_out = 5, 3
    masks = svc.architecture_masks(n_in, n_out)
    ed, lm, prefix = (masks[k] > 0 for k in svc.ARCHITECTURES)
    causal = np.tril(np.ones((n_in + n_out,) * 2, dtype=bool))
    assert (lm == causal).all()
    assert ed[:n_in, :n_in].all() and not ed[:n_in, n_in:].any()  # the encoder never sees the target
    assert ed[n_in:, :n_in].all() and (ed[n_in:, n_in:] == causal[:n_out, :n_out]).all()
    assert (masks["encoder_decoder"][n_in:, :n_in] == svc.CROSS).all()
    assert prefix[:n_in, :n_in].all() and (prefix[n_in:] == causal[n_in:]).all() and not prefix[:n_in, n_in:].any()
    assert svc.visible_to_input(masks["prefix_lm"], n_in) == n_in
    assert svc.visible_to_input(masks["language_model"], n_in) == (n_in + 1) / 2


def test_buckets_of_the_figure():
    b = svc.buckets(32, 128)
    at = dict(zip(b.offsets.tolist(), zip(b.bidirectional.tolist(), b.causal.tolist())))
    assert at[0] == (0, 0)
    assert at[-3] == (3, 3) and at[3] == (16 + 3, 0)  # exact region; the decoder puts the future in bucket 0
    assert b.exact_bidirectional == 8 and b.exact_causal == 16
    assert at[-200] == at[-128] == (15, 31) and at[200][0] == at[128][0] == 31  # one bucket past max_distance
    # The causal side uses all 32; the bidirectional one 31: bucket 16 would be distance 0 after the query, but
    # offset 0 counts as "before" (bucket 0).
    assert set(b.causal.tolist()) == set(range(32))
    assert set(b.bidirectional.tolist()) == set(range(32)) - {16}


@needs_t5
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_paper_vs_here_names_the_missing_output_rescale_and_the_card_column_its_bars(lang):
    """The departures list the output projection's missing d_model^-0.5 (T5's released code rescales the tied
    output; models/t5.py does not), and the card's last column is named for what it holds: the bar each measure
    must reach (≥ …), not where the bar came from."""
    at = open_app("t5", lang=lang)
    assert not at.exception
    shown = "\n".join(md.value for md in at.markdown)
    tied = translate("t5.pvh.dep.tied", lang)
    assert f"- {tied}" in shown and "d_model^−0.5" in tied and "√d_model" in tied
    headers = [list(tb.value.columns) for tb in at.table]
    card = next(h for h in headers if translate("t5.card.metric", lang) in h)
    assert card[-1] == translate("t5.card.target", lang) == {"en": "bar to pass", "zh": "及格线"}[lang]
    column = next(tb.value[card[-1]].tolist() for tb in at.table if card[-1] in tb.value.columns)
    assert any(cell.startswith("≥ ") for cell in column)


def test_no_text_of_the_page_names_an_issue():
    """Readers do not know the project's issues: no English string of the page says "issue", no Chinese one 需求."""
    from app.t5.strings import STRINGS

    assert [k for k, (en, zh) in STRINGS.items() if "issue" in en.lower() or "需求" in zh] == []


# ---- 5 · knock-outs (app/t5/knockout.py) ----------------------------------------------------------------------------


@needs_trained
def test_knocking_out_the_first_cross_attention_breaks_the_answer_and_the_second_does_not():
    """The default task (reverse the words of "Now is the winter": 6 answer tokens with </s>); the section opens on
    decoder layer 0's whole cross-attention, zeroed: 6/6 answer tokens ranked first -> 0/6 (measured), the loss from
    ~0.01 to ~8.5 nats. Layer 1's zeroed: 6/6, still the right answer (measured). The page's caption says both."""
    at = open_app("t5", lang=LANG)
    assert not at.exception and not errors(at)
    what = translate("view.ko.what.decoder.cross", LANG, layer=0)
    n = len(
        svc.knock_out(svc.NAME, "reverse_words", svc.EXAMPLES["reverse_words"][0], "decoder", 0, "cross", "zero").output
    )
    assert m(at, "t5.ko.m.kept").startswith(f"{n}/{n} → ")
    assert int(m(at, "t5.ko.m.kept").split("→")[1].split("/")[0]) <= 1
    before, after = map(float, m(at, "t5.ko.m.loss", what=what).split("→"))
    assert before < 0.1 and after > 3
    assert m(at, "t5.ko.m.answer").endswith(translate("t5.no", LANG))
    assert any(c.value == translate("t5.ko.read.default", LANG, n=n) for c in at.caption)

    at.button_group(key="t5_ko_layer").set_value(1)
    rerun(at, LANG)
    assert not at.exception
    assert m(at, "t5.ko.m.kept") == f"{n}/{n} → {n}/{n}"
    assert m(at, "t5.ko.m.answer").endswith(translate("t5.yes", LANG))

    at.button_group(key="t5_ko_stack").set_value("encoder")
    at.button_group(key="t5_ko_mode").set_value("mean")
    rerun(at, LANG)  # the encoder has no cross-attention: its first part, one head, instead
    assert not at.exception and not errors(at)
    assert "→" in m(at, "t5.ko.m.loss", what=translate("view.ko.what.encoder.head", LANG, lh="L1 · H0"))


# ---- a real checkpoint: t5-small, here a tiny random stand-in in a fake Hugging Face cache -------------------------

REAL = "t5-small"


@pytest.fixture(scope="module")
def real_hub(tmp_path_factory):
    """HF_HUB_CACHE holding a tiny t5-small (tests/real_models.py), TE_PRETRAINED an empty folder; the model and
    every cached result are dropped afterwards (they are cached by name per process)."""
    pytest.importorskip("transformers")
    import streamlit as st

    from tests.real_models import fake_hub

    root = tmp_path_factory.mktemp("real-t5")
    made = fake_hub(root / "hub", REAL)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_CACHE", str(root / "hub"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TE_PRETRAINED", str(root / "converted"))
        yield made[REAL]
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_section_works_on_a_real_checkpoint(real_hub, lang):
    model, tok = real_hub
    L, H = model.config.num_decoder_layers, model.config.num_heads
    at = open_app("t5", lang=lang, t5_model=REAL)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="t5_model").value == REAL
    assert at.radio(key="t5_task").options == [translate(f"t5.task.{k}", lang) for k in svc.REAL_TASKS]
    assert [int(o) for o in at.button_group(key="t5_layer").options] == list(range(L))
    assert [int(o) for o in at.button_group(key="t5_head").options] == list(range(H))
    assert [int(o) for o in at.button_group(key="t5_bias_head").options] == list(range(H))
    assert metric(at, translate("t5.span.m.reassembled", lang)) == translate("t5.yes", lang)
    assert metric(at, translate("t5.m.correct", lang)) == "–"  # no known answer for a real model's task
    for task in svc.REAL_TASKS:
        at.radio(key="t5_task").set_value(task)
        # the examples of the real vocabulary would split into characters in the tiny one: a text of its words
        text = svc.REAL_EXAMPLES[task][0] if task == "sentinels" else "The dog walks in the park."
        at.text_area(key="t5_text").set_value(text)
        rerun(at, lang)
        assert not at.exception and not at.error, (task, [e.value for e in at.error])
    source = svc.answer(REAL, "sentinels", svc.REAL_EXAMPLES["sentinels"][0]).source
    assert "⟨0⟩" in source and "⟨1⟩" in source and source[-1] == "</s>"
    at.button_group(key="t5_layer").set_value(L - 1)
    at.button_group(key="t5_head").set_value(H - 1)
    rerun(at, lang)
    assert not at.exception
    # the knock-out on the real checkpoint: the decoder's last cross-attention zeroed changes the answer's loss
    at.button_group(key="t5_ko_layer").set_value(L - 1)
    rerun(at, lang)
    assert not at.exception and not at.error
    what = translate("view.ko.what.decoder.cross", lang, layer=L - 1)
    before, after = map(float, metric(at, translate("t5.ko.m.loss", lang, what=what)).split("→"))
    assert before != after


def test_a_real_checkpoint_reads_its_own_sentinels(real_hub):
    """t5-small numbers its sentinels down from the end of the vocabulary: the corruption uses its ids, and every
    token comes back once across input and target."""
    from app.shared import services

    _, tok = real_hub
    services.checkpoint(REAL).load()  # converted (the page's picker does this before any service call)
    v = svc.vocab(REAL)
    assert v.sentinels[0] == tok.token_to_id("<extra_id_0>") > v.sentinels[1] and not v.ours
    c = svc.corruption(REAL, svc.DEFAULT_SPAN_TEXT, 0.15, 2.0, 7)
    assert c.reassembled and c.input[-1] == "</s>" and "⟨0⟩" in c.input and c.target[0] == "⟨0⟩"
    with pytest.raises(svc.InputError) as e:
        svc.answer(REAL, "sentinels", f"to be <extra_id_{len(v.sentinels)}> be")
    assert e.value.key == "t5.error.sentinel_range"
    with pytest.raises(svc.InputError) as e:  # more spans than the tiny vocabulary's 10 sentinels
        svc.corruption(REAL, svc.DEFAULT_SPAN_TEXT, 0.5, 1.0, 0)
    assert e.value.key == "t5.error.span_sentinels"


def test_without_the_real_checkpoint_the_picker_names_it_and_the_command(tmp_path, monkeypatch):
    from models import pretrained

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    at = open_app("t5", lang=LANG)
    assert not at.exception
    lines = [m.value for m in at.markdown]  # the picker's expander: one line per absent model, with its command
    assert any(REAL in c and pretrained.how_to_get(REAL) in c for c in lines), lines


def test_a_real_checkpoint_runs_on_torch_when_onnx_is_asked_for(real_hub):
    """A converted checkpoint has no model.onnx: with the ONNX backend chosen, the page runs it on torch and says so."""
    at = open_app("t5", lang=LANG, t5_model=REAL, backend="onnx")
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("torch" in c.value for c in at.caption)
