"""The feature microscope (issue 63): the features it lists per token, a feature's card and an edit inside the model,
each equal to the dictionary and the model run directly, in both languages."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.numpy import load_file

from app.shared.i18n import translate
from models import metrics, sae, zoo
from models.probe import intervene
from tests.app.conftest import figures, metric, open_app, rerun, spec

TEXT = "First Citizen.\nBefore we proceed any further, hear me speak."


@pytest.fixture(scope="module")
def direct():
    """The dictionary, the model it reads, the shipped index and the tokenizer, loaded here without the app."""
    d, model = zoo.load("gpt-sae").eval(), zoo.load("gpt").eval()
    index = load_file(str(zoo.checkpoint_dir("gpt-sae") / "index.safetensors"))
    return d, model, index, metrics.tokenizer(zoo.checkpoint_dir("gpt"))


def z_of(direct, text: str) -> torch.Tensor:
    d, model, _, tok = direct
    ids = torch.tensor([[0, *tok.encode(text).ids]])
    with torch.inference_mode():
        return d.encode(sae.activations(model, ids, d.config.hook))[0, 1:]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_with_the_dictionarys_card_numbers(lang):
    at = open_app("features", lang=lang, timeout=120, features_text=TEXT)
    assert not at.exception and not at.error
    card = json.loads((zoo.checkpoint_dir("gpt-sae") / "card.json").read_text())
    intro = at.markdown[0].value
    assert "4,096" in intro and "2406.04093" in intro
    assert f"{card['metrics']['fve']:.1%}" in intro and f"{card['metrics']['delta_nats']:+.3f}" in intro


def test_each_tokens_features_are_the_dictionarys_strongest_that_are_not_dense(direct):
    from app.features import service as svc

    r = svc.read("gpt", TEXT)
    z = z_of(direct, TEXT)
    index = direct[2]
    dense = index["fired"] / len(index["tokens"]) > svc.DENSE
    assert (r.active == (z > 0).sum(-1).numpy()).all() and (r.active <= 32).all()
    for j in range(len(r.pieces)):
        row = z[j].numpy().copy()
        row[dense] = 0
        want = np.argsort(-row, kind="stable")[: svc.SHOWN]
        got = r.features[j][r.features[j] >= 0]
        assert set(got.tolist()) == {int(i) for i in want if row[i] > 0}, j
        assert not dense[got].any()
        np.testing.assert_allclose(r.values[j][: len(got)], row[got], rtol=1e-5)
    assert set(r.dense) == {int(i) for i in np.nonzero(((z > 0).numpy() & dense).any(0))[0]}


def test_a_features_card_reads_the_index_and_its_decoder_direction(direct):
    from app.features import service as svc

    d, model, index, tok = direct
    i = int(np.argmax(index["fired"] * (index["fired"] < 0.01 * len(index["tokens"]))))  # a sparse, live feature
    f = svc.feature("gpt", i)
    assert f.fired == int(index["fired"][i]) and f.frequency == pytest.approx(index["fired"][i] / len(index["tokens"]))
    first = int(index["top_position"][i][0])
    pieces, at, act = f.contexts[0]
    assert pieces[at] == tok.decode([int(index["tokens"][first])])
    assert act == pytest.approx(float(index["top_activation"][i][0]))
    with torch.inference_mode():
        w = model.embed.weight @ (model.ln_f.weight * d.W_dec[:, i] / d.config.scale)
    top = int(torch.argmax(w))
    assert f.promoted[0][0] == tok.decode([top]) and f.promoted[0][1] == pytest.approx(float(w[top]), rel=1e-5)
    assert f.promoted[0][1] > 0 > f.suppressed[0][1]


def test_scale_one_is_exactly_the_model_and_scale_zero_is_the_splice_with_the_feature_off(direct):
    from app.features import service as svc

    d, model, _, tok = direct
    z = z_of(direct, TEXT)
    i = int(torch.argmax(z[-1]))  # the last token's strongest feature
    same = svc.edit("gpt", TEXT, i, 1.0)
    assert same.max_change == 0.0 and np.array_equal(same.clean, same.edited)
    off = svc.edit("gpt", TEXT, i, 0.0)
    assert off.activation == pytest.approx(float(z[-1, i]), rel=1e-5)

    def without(zz):
        zz = zz.clone()
        zz[..., i] = 0
        return zz

    ids = torch.tensor([[0, *tok.encode(TEXT).ids]])
    with torch.inference_mode():
        top = torch.argsort(-torch.softmax(model(ids)[0, -1], -1), stable=True)[:10]
        with intervene(d.splice(without, keep_error=True)):
            p = torch.softmax(model(ids)[0, -1], -1)
    np.testing.assert_allclose(off.edited, p[top].numpy(), rtol=1e-5, atol=1e-7)
    assert off.max_change > 0


def test_picking_a_token_opens_its_strongest_feature_and_the_link_keeps_a_feature():
    from app.features import service as svc

    at = open_app("features", timeout=120, features_text=TEXT)
    assert at.number_input(key="features_id").value == int(svc.read("gpt", TEXT).features[0][0])
    at.selectbox(key="features_token").set_value(3)
    rerun(at, "en")
    assert not at.exception
    assert at.number_input(key="features_id").value == int(svc.read("gpt", TEXT).features[3][0])
    kept = open_app("features", timeout=120, features_text=TEXT, features_id="17")
    assert not kept.exception and kept.number_input(key="features_id").value == 17
    assert spec(kept, "features_weights")["data"]


def test_bad_input_is_a_translated_message():
    at = open_app("features", lang="zh", timeout=120, features_text="   ")
    assert not at.exception
    assert [e.value for e in at.error] == [translate("features.error.empty", "zh")]
    long = open_app("features", timeout=120, features_text="x, " * 130)  # 390 characters, over 96 tokens
    assert not long.exception and long.error


def test_the_label_is_the_token_most_of_its_strongest_contexts_fire_on():
    from app.features import service as svc

    f = svc.feature("gpt", 3790)  # fires on "Enter" of the plays' stage directions
    firing = [pieces[at] for pieces, at, _ in f.contexts]
    assert f.label == max(firing, key=firing.count) and f.label_count == firing.count(f.label)
    assert f.label.strip() == "Enter" and f.label_count >= 6


# ---- 4 · steering --------------------------------------------------------------------------------------------------

STEER_PROMPT = "First Citizen.\nBefore we proceed"  # the section's default prompt
ENTER = 3790  # the feature of "Enter" in stage directions (above)


def continuations(at) -> tuple[str, str]:
    plain, steered = (c.value for c in at.code)
    return plain, steered


def steer_directly(direct, feature: int, alpha: float, n: int = 24) -> tuple[str, str]:
    from models import steering

    d, model, _, tok = direct
    ids = [0, *tok.encode(STEER_PROMPT).ids]
    s = steering.generate(model, ids, n, 1, steering.feature_direction(d, feature), alpha)  # gpt-sae: blocks.1.resid
    return tok.decode(list(s.plain)), tok.decode(list(s.steered))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_steering_with_alpha_zero_shows_the_plain_continuation_twice(direct, lang):
    at = open_app("features", lang=lang, timeout=120, features_text=TEXT, features_id=str(ENTER))
    assert not at.exception and not at.error
    assert translate("features.s4", lang) in [h.value for h in at.subheader]
    plain, steered = continuations(at)
    assert plain == steered == steer_directly(direct, ENTER, 0.0)[0] and plain.strip()
    assert translate("features.steer.same", lang) in [c.value for c in at.caption]
    assert metric(at, translate("features.steer.m.kl", lang)) == "0.000"
    assert "features_steer_shift" not in figures(at)  # nothing moved: no bars


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_steering_by_the_enter_feature_writes_a_stage_direction(direct, lang):
    at = open_app("features", lang=lang, timeout=120, features_text=TEXT, features_id=str(ENTER))
    at.slider(key="features_steer_alpha").set_value(0.2)
    rerun(at, lang)
    assert not at.exception and not at.error
    plain, steered = continuations(at)
    assert (plain, steered) == steer_directly(direct, ENTER, 0.2)
    assert "Enter" in steered and "Enter" not in plain  # the feature fires on "Enter"; steering by it writes one
    assert float(metric(at, translate("features.steer.m.kl", lang))) > 0.05
    assert translate("features.steer.same", lang) not in [c.value for c in at.caption]
    assert spec(at, "features_steer_shift")["data"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_prompt_list_or_a_long_prompt_is_a_translated_message(lang):
    at = open_app("features", lang=lang, timeout=120, features_text=TEXT)
    at.radio(key="features_steer_source").set_value("prompts")
    rerun(at, lang)
    assert not at.exception and not at.error
    at.text_area(key="features_steer_b").set_value(" \n  \n")
    rerun(at, lang)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("features.error.steer_list_empty", lang, which="B")]
    at.text_area(key="features_steer_b").set_value("I hate thee")
    at.text_area(key="features_steer_prompt").set_value("x" * 301)
    rerun(at, lang)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("features.error.steer_prompt_long", lang, chars=300)]


def test_the_difference_of_two_lists_steers_our_gpt_at_the_chosen_block():
    from app.features import sections
    from app.features import service as svc
    from models import steering

    at = open_app("features", timeout=120, features_text=TEXT)
    at.radio(key="features_steer_source").set_value("prompts")
    rerun(at, "en")
    at.slider(key="features_steer_layer").set_value(2)
    at.slider(key="features_steer_alpha").set_value(0.5)
    rerun(at, "en")
    assert not at.exception and not at.error
    plain, steered = continuations(at)
    ck = svc.model("gpt")
    model = ck.model
    ids = lambda s: [0, *ck.tokenizer.encode(s).ids]  # noqa: E731
    u = steering.difference_of_means(
        model, [ids(s) for s in sections.STEER_A.splitlines()], [ids(s) for s in sections.STEER_B.splitlines()], 2
    )
    s = steering.generate(model, ids(STEER_PROMPT), 24, 2, u, 0.5)
    assert (plain, steered) == (ck.tokenizer.decode(list(s.plain)), ck.tokenizer.decode(list(s.steered)))
    assert plain != steered


# ---- SmolLM2 picked: its own dictionary, smollm2-sae, on every section -----------------------------------------------

SMOL = "smollm2-135m"
CARD_GPT = json.loads((zoo.checkpoint_dir("gpt") / "card.json").read_text())["params"] / 1e6


@pytest.fixture(scope="module")
def smol():
    """smollm2-sae, SmolLM2 and its tokenizer, loaded here without the app (the README's command fetches SmolLM2)."""
    from app.shared import services

    if not services.checkpoint(SMOL).available:
        pytest.fail("SmolLM2-135M-Instruct is not on this machine: run `python -m models.data.pretrained`")
    return zoo.load("smollm2-sae").eval(), zoo.load(SMOL).eval(), metrics.tokenizer(zoo.checkpoint_dir(SMOL))


def test_smollm2s_tokens_are_read_by_its_own_dictionary_after_the_massive_first_state(smol):
    """The text is read after <|endoftext|>, as the dictionary's documents were: that first state is the massive
    one (about 150 times the others' length, as the intro says), passed through unread; every token of the text
    fires features, the strongest listed equal to the dictionary run directly."""
    from app.features import service as svc

    d, model, tok = smol
    ids = torch.tensor([[0, *tok.encode(TEXT).ids]])
    with torch.inference_mode():
        x = sae.activations(model, ids, d.config.hook)[0]
        z = d.encode(x)
    norms = x.norm(dim=-1)
    assert 100 <= float(norms[0] / norms[1:].median()) <= 200 and norms[0] > d.config.passthrough_norm
    assert not z[0].any() and (z[1:] > 0).sum(-1).eq(d.config.k).all()
    r = svc.read(SMOL, TEXT)
    assert r.pieces == tuple(tok.decode([int(i)]) for i in ids[0, 1:]) and (r.active == d.config.k).all()
    index = load_file(str(zoo.checkpoint_dir("smollm2-sae") / "index.safetensors"))
    dense = index["fired"] / len(index["tokens"]) > svc.DENSE
    for j in range(len(r.pieces)):
        row = z[j + 1].numpy().copy()
        row[dense] = 0
        got = r.features[j][r.features[j] >= 0]
        assert set(got.tolist()) == {int(i) for i in np.argsort(-row, kind="stable")[: svc.SHOWN] if row[i] > 0}
        np.testing.assert_allclose(r.values[j][: len(got)], row[got], rtol=1e-5)


def test_a_smollm2_features_logit_weights_go_through_its_rmsnorm_and_tied_embedding(smol):
    from app.features import service as svc

    d, model, tok = smol
    f = svc.feature(SMOL, 3733)  # fires on "Officers" in the plays' stage directions
    assert f.label.strip() == "Officers" and f.label_count >= 4
    with torch.inference_mode():
        w = model.embed.weight @ (model.norm.weight * d.W_dec[:, 3733].float() / d.config.scale)
    top, bottom = int(torch.argmax(w)), int(torch.argmin(w))
    assert f.promoted[0] == (tok.decode([top]), pytest.approx(float(w[top]), rel=1e-4))
    assert f.suppressed[0] == (tok.decode([bottom]), pytest.approx(float(w[bottom]), rel=1e-4))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_with_smollm2_picked_every_section_speaks_of_smollm2_and_its_dictionary(smol, lang):
    from app.features import service as svc

    at = open_app("features", lang=lang, timeout=300, features_text=TEXT, features_model=SMOL, features_id="3733")
    assert not at.exception and not at.error, [e.value for e in at.error]
    card = json.loads((zoo.checkpoint_dir("smollm2-sae") / "card.json").read_text())
    intro = at.markdown[0].value
    assert "4,608" in intro and "SmolLM2-135M-Instruct" in intro and "2402.17762" in intro and "14" in intro
    assert f"{card['metrics']['fve']:.1%}" in intro and f"{card['metrics']['delta_nats']:+.3f}" in intro
    words = " ".join(m.value for m in (*at.markdown, *at.caption))
    assert "our GPT" not in words and "我们的 GPT" not in words and "4,096" not in words
    effect = translate("features.effect.caption", lang, layer=14, norm="RMSNorm", next=15, last=29)
    assert effect in [c.value for c in at.caption]
    h = svc.histogram(SMOL, 3733)
    assert sum(spec(at, "features_hist")["data"][0]["y"]) == h.fired == int(h.counts.sum()) > 0
    assert spec(at, "features_weights")["data"] and spec(at, "features_edit")["data"]
    none = translate("features.s5.none", lang, minutes=card["wall_time_s"] / 60)
    assert svc.sweep(SMOL) is None and none in [x.value for x in at.info]
    plain, steered = continuations(at)  # α = 0: the plain continuation twice
    assert plain == steered and plain.strip()


def test_smollm2_steered_by_a_feature_is_the_direct_generation(smol):
    """Steering by feature 3733 ("Officers") at α = 0.5 on SmolLM2 after block 14 is models.steering run directly,
    and it moves the first new token's distribution."""
    from app.shared import services
    from models import steering

    d, model, tok = smol
    at = open_app("features", timeout=300, features_text=TEXT, features_model=SMOL, features_id="3733")
    at.text_area(key="features_steer_prompt").set_value("The soldiers marched into the hall and")
    at.slider(key="features_steer_alpha").set_value(0.5)
    at.slider(key="features_steer_n").set_value(12)
    rerun(at, "en")
    assert not at.exception and not at.error, [e.value for e in at.error]
    plain, steered = continuations(at)
    ids = tok.encode("The soldiers marched into the hall and").ids
    s = steering.generate(model, ids, 12, 14, steering.feature_direction(d, 3733), 0.5)
    ends = set(services.checkpoint(SMOL).stops)  # <|im_end|>, <|endoftext|>: a real model's end of turn ends it

    def cut(new: tuple[int, ...]) -> str:
        return tok.decode(list(new[: next((j for j, i in enumerate(new) if i in ends), len(new))]), False)

    assert (plain, steered) == (cut(s.plain), cut(s.steered)) and plain != steered
    assert float(metric(at, translate("features.steer.m.kl", "en"))) > 0.05


def test_smollm2_is_steered_by_two_lists():
    at = open_app("features", timeout=300, features_text=TEXT, features_model=SMOL)
    assert not at.exception and not at.error, [e.value for e in at.error]
    at.radio(key="features_steer_source").set_value("prompts")
    at.text_area(key="features_steer_prompt").set_value("I think that my neighbour is")
    at.slider(key="features_steer_alpha").set_value(0.5)
    rerun(at, "en")
    assert not at.exception and not at.error
    assert at.slider(key="features_steer_layer").value == 6  # a fifth of the way up, not the dictionary's block
    plain, steered = continuations(at)
    assert plain != steered and float(metric(at, translate("features.steer.m.kl", "en"))) > 0.05


def test_switching_the_model_opens_the_new_dictionarys_feature_not_the_old_number(smol):
    """Feature 17 and token 3 of ours, then SmolLM2 picked: the number and the token named ours' dictionary and
    tokens, so the page opens SmolLM2's first token's strongest feature, and back again ours'."""
    from app.features import service as svc

    at = open_app("features", timeout=300, features_text=TEXT, features_id="17")
    at.selectbox(key="features_token").set_value(3)
    rerun(at, "en")  # a token picked opens its strongest feature; then another number typed
    at.number_input(key="features_id").set_value(17)
    rerun(at, "en")
    assert at.number_input(key="features_id").value == 17
    at.selectbox(key="features_model").set_value(SMOL)
    rerun(at, "en")
    assert not at.exception and not at.error
    assert at.selectbox(key="features_token").value == 0
    assert at.number_input(key="features_id").value == int(svc.read(SMOL, TEXT).features[0][0])
    at.selectbox(key="features_model").set_value("gpt")
    rerun(at, "en")
    assert at.number_input(key="features_id").value == int(svc.read("gpt", TEXT).features[0][0])


def test_smollm2_not_on_this_machine_leaves_ours_and_names_its_command(tmp_path, monkeypatch):
    from models import pretrained
    from models.data import pretrained as fetched

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    monkeypatch.setattr(fetched, "gguf_source", lambda key: None)  # and no wheel to convert it from
    at = open_app("features", lang="zh", timeout=120, features_text=TEXT, features_model=SMOL)
    assert not at.exception and not at.error
    assert at.selectbox(key="features_model").options == [translate("picker.ours", "zh", name="gpt", params=CARD_GPT)]
    assert any("4,096" in m.value and "2406.04093" in m.value for m in at.markdown)  # ours' intro
    assert any(pretrained.how_to_get(SMOL) in m.value for m in at.markdown)  # the picker's expander


def test_a_model_without_a_dictionary_is_refused_in_the_readers_language():
    from app.features import service as svc
    from app.shared.i18n import InputError

    with pytest.raises(InputError) as refused:
        svc.read("tinyllama-1.1b", TEXT)
    assert refused.value.key == "features.error.model"


# ---- the activation histogram, the price of interpretability, the exercise ------------------------------------------

CARD = json.loads((zoo.checkpoint_dir("gpt-sae") / "card.json").read_text())


def test_the_histogram_is_the_indexs_count_of_every_firing():
    """The card's histogram is the index's (``models.sae.feature_index`` counted it over every held-out token when
    the dictionary was trained): bars from 0 to the feature's strongest activation, summing to its firing count, the
    median's bar where half the firings are reached; a dead feature has none."""
    from app.features import service as svc

    index = load_file(str(zoo.checkpoint_dir("gpt-sae") / "index.safetensors"))
    fired = index["fired"]
    live = np.nonzero(fired)[0]
    for i in (int(live[0]), int(np.argmax(fired)), int(np.argmax(fired * (fired < 200)))):
        h = svc.histogram("gpt", i)
        assert np.array_equal(h.counts, index["histogram"][i])
        assert h.counts.sum() == h.fired == fired[i] and h.tokens == len(index["tokens"])
        assert h.edges[0] == 0 and h.edges[-1] == pytest.approx(float(index["top_activation"][i][0]), rel=1e-6)
        below = h.counts[h.edges[1:] <= h.median[0]].sum()  # firings in the bars before the median's
        assert below < h.fired / 2 <= below + h.counts[np.searchsorted(h.edges, h.median[0])]
    dead = int(np.nonzero(fired == 0)[0][0])
    assert svc.histogram("gpt", dead).fired == 0 and svc.histogram("gpt", dead).counts.sum() == 0


def _legend(fig: dict) -> dict[str, dict]:
    return {t["name"]: t for t in fig["data"] if t.get("showlegend", True)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_card_shows_the_histogram_and_the_sweep_with_the_shipped_dictionary(lang):
    from app.features import service as svc

    at = open_app("features", lang=lang, timeout=180, features_text=TEXT, features_id="17")
    assert not at.exception and not at.error
    h = svc.histogram("gpt", 17)
    hist = spec(at, "features_hist")
    assert (
        sum(hist["data"][0]["y"])
        == h.fired
        == int(load_file(str(zoo.checkpoint_dir("gpt-sae") / "index.safetensors"))["fired"][17])
    )
    assert hist["layout"]["yaxis"]["type"] == "log"
    captions = " ".join(c.value for c in at.caption)
    assert f"{h.fired:,}" in captions and f"{h.frequency:.3%}" in captions
    sweep = spec(at, "features_sweep")
    lines = [t for t in sweep["data"] if t["mode"] == "lines+markers"]
    runs = CARD["sweep"]["runs"]
    sizes = sorted({r["n_features"] for r in runs})
    assert len(lines) == 2 * len(sizes) and len(_legend(sweep)) == len(sizes) + 1  # a line per size in each panel
    for n in sizes:
        mine = sorted((r for r in runs if r["n_features"] == n), key=lambda r: r["k"])
        name = translate("features.sweep.size", lang, n=n)
        fve, delta = (t for t in lines if t["name"] == name)
        assert fve["x"] == [r["l0"] for r in mine] and fve["y"] == [r["fve"] for r in mine]
        assert delta["y"] == [r["delta_nats"] for r in mine] and delta["yaxis"] == "y2"
    stars = [t for t in sweep["data"] if t["mode"] == "markers"]
    m = CARD["metrics"]
    assert [(s["x"], s["y"]) for s in stars] == [([m["l0"]], [m["fve"]]), ([m["l0"]], [m["delta_nats"]])]
    assert all(s["marker"]["symbol"] == "star" for s in stars)
    assert f"{m['delta_nats']:+.3f}" in captions and "2407.14435" in " ".join(x.value for x in at.markdown)
    assert any(s.value == translate("features.s5", lang) for s in at.subheader)


def _speaker_tokens(index, tok) -> np.ndarray:
    """Written here apart from the service: a token is on a speaker's name when it has a letter and its line (the
    text between newlines around it) is an upper-case name ending in a full stop, not an "ACT" heading."""
    import re

    pieces = [tok.decode([int(t)]) for t in index["tokens"]]
    text = "".join(pieces)
    starts = np.cumsum([0] + [len(p) for p in pieces])
    out = np.zeros(len(pieces), dtype=bool)
    for j, p in enumerate(pieces):
        if not re.search(r"[A-Za-z]", p):
            continue
        c = starts[j] + next(k for k, ch in enumerate(p) if ch.isalpha())  # the token's first letter
        line = text[text.rfind("\n", 0, c) + 1 : (text.find("\n", c) + 1 or len(text) + 1) - 1].strip()
        out[j] = bool(re.fullmatch(r"[A-Z][A-Z' .\-]*\.", line)) and not line.startswith("ACT ")
    return out


@pytest.fixture(scope="module")
def speakers(direct):
    d, model, index, tok = direct
    on = _speaker_tokens(index, tok)
    top = index["top_position"]
    hits = np.where(top >= 0, on[np.maximum(top, 0)], False).sum(1)
    return hits, (top >= 0).sum(1)


def test_the_names_exercise_passes_a_feature_on_speakers_names_and_fails_others(speakers, direct):
    from app.features import service as svc

    hits, shown = speakers
    fired = direct[2]["fired"]
    good = int(np.argmax(np.where((shown == 8) & (hits == 8), fired, -1)))  # all 8 on names, the most frequent
    bad = int(np.argmax(np.where((shown == 8) & (hits == 0), fired, -1)))  # none on names
    edge = int(np.nonzero((shown == 8) & (hits == 5))[0][0])  # 5 of 8: under three quarters
    six = int(np.nonzero((shown == 8) & (hits == 6))[0][0])  # 6 of 8: three quarters
    for i, ok in ((good, True), (bad, False), (edge, False), (six, True)):
        r = svc.on_names("gpt", i)
        assert (r.on_names, r.shown, r.ok) == (int(hits[i]), 8, ok), i
    want = {int(i) for i in np.nonzero((shown >= svc.SPEAKER_MIN) & (hits >= 0.75 * shown))[0]}
    assert set(svc.name_features("gpt")) == want and len(want) > 10
    for lang in ("en", "zh"):
        for i, ok in ((good, True), (bad, False)):
            at = open_app("features", lang=lang, timeout=180, features_text=TEXT, features_id=str(i))
            at.button(key="lessons_features_check").click()
            at = rerun(at, lang)
            assert not at.exception
            if ok:
                assert at.success and str(i) in at.success[-1].value and not at.warning
            else:
                assert at.warning and f"{int(hits[i])}" in at.warning[-1].value and not at.success
                assert at.warning[-1].value == translate(
                    "lessons.ex.features.hint", lang, i=i, on=int(hits[i]), n=8, need=svc.SPEAKER_MIN
                )


def test_the_scale_reruns_section_3_alone():
    """Section 3 is a fragment: moving its scale reruns the edit, not the page's table, card, steering and sweep (in
    the browser; AppTest reruns the whole script, so this reads the decorator; bench.moves features-scale times it)."""
    from app.features import sections

    assert getattr(sections.edit, "__wrapped__", None) is not None  # st.fragment's wrapper
    assert sections.edit.__wrapped__.__name__ == "edit"
