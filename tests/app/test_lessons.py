"""Lessons: the paths and their stops (banner, prepared state, links on), exercises answered right and wrong against
the live model (each right answer worked out here from the page's service, not from the exercise), the progress the
browser keeps, and the worksheets."""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest

from app.catalog import PAPERS, START_HERE, TOOLS
from app.lessons import exercises, progress, worksheet
from app.lessons.paths import PATHS
from app.shared.i18n import translate
from tests.app.conftest import open_app, rerun

PAGES = {p.page for p in PAPERS}
TOOL_STOPS = {"features": "gpt"}  # a tool on a path, and the page whose model it reads (the stop it follows)


def _solve(at, page: str, answer, lang: str = "en"):
    """Pick ``answer`` in the page's answer box (None: the page's controls are the answer) and press check."""
    slug = exercises.slug(page)
    if answer is not None:
        at.selectbox(key=f"lessons_{slug}_answer").set_value(answer)
    at.button(key=f"lessons_{slug}_check").click()
    return rerun(at, lang)


def _verdict(at) -> tuple[bool, str]:
    """(right, text) of the verdict drawn under the page."""
    if at.success:
        return True, at.success[-1].value
    assert at.warning, "no verdict drawn"
    return False, at.warning[-1].value


# ---- the paths -------------------------------------------------------------------------------------------------------


def test_paths_follow_the_reading_order_and_name_real_pages_and_strings():
    order = {p.page: START_HERE.index(p.key) for p in PAPERS}
    assert set(PATHS) == {"scratch", "efficient", "reasoning"}
    for key, stops in PATHS.items():
        assert 5 <= len(stops) <= 8, key
        assert [s.number for s in stops] == list(range(1, len(stops) + 1))
        assert all(s.page in PAGES | set(TOOL_STOPS) for s in stops), key
        for s in stops:  # a tool comes right after the page whose model it reads
            if s.page in TOOL_STOPS:
                assert s.number > 1 and stops[s.number - 2].page == TOOL_STOPS[s.page], key
        positions = [order[s.page] for s in stops if s.page in PAGES]
        assert positions == sorted(positions), f"{key} is not in the catalog's reading order"
        for s in stops:  # every text in both languages (translate raises on a missing key)
            for lang in ("en", "zh"):
                assert translate(f"lessons.task.{key}.{s.task}", lang)
    assert [s.page for s in PATHS["scratch"]][:6] == ["attention", "forward-pass", "gpt", "features", "bert", "t5"]
    assert {"rope", "llama", "mistral", "flash-attention", "mla", "mamba"} <= {s.page for s in PATHS["efficient"]}
    assert {"scaling", "alignment", "reasoning"} <= {s.page for s in PATHS["reasoning"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lessons_page_lists_every_path_and_its_worksheets(lang):
    at = open_app("lessons", lang=lang)
    assert not at.exception
    assert at.title[0].value == translate("tool.lessons.title", lang)
    assert [h.value for h in at.subheader] == [translate(f"lessons.path.{p}.title", lang) for p in PATHS]
    links = [link for link in at.get("page_link") if "lesson=" in link.proto.query_string]
    assert len(links) == sum(len(s) for s in PATHS.values())
    assert len(at.get("download_button")) == 4 * len(PATHS)  # Markdown and HTML, in both languages
    assert not [b for b in at.button if b.key == "lessons_reset"]  # nothing to reset yet


def test_a_stop_opens_its_page_prepared_with_the_task_and_links_on():
    at = open_app("attention", lang="en", lesson="scratch", stop="1", attention_step="2")
    assert not at.exception
    assert any(
        "Attention from scratch" in m.value and f"stop 1 of {len(PATHS['scratch'])}" in m.value for m in at.markdown
    )
    assert any(m.value == translate("lessons.task.scratch.attention", "en") for m in at.markdown)
    assert at.slider(key="attention_step").value == 2  # the prepared state
    nxt = [link.proto for link in at.get("page_link") if link.proto.label == "Next stop →"]
    assert len(nxt) == 1 and nxt[0].page == "forward-pass"
    assert "lesson=scratch" in nxt[0].query_string and "stop=2" in nxt[0].query_string
    assert at.session_state[progress.STATE]["seen"] == {"scratch": [1]}


def test_the_last_stop_links_back_to_the_lessons_and_the_previous_stop_carries_its_state():
    at = open_app("reasoning", lang="zh", lesson="reasoning", stop="6")  # gpt, gpt-induction, mla, ...
    assert not at.exception
    labels = {link.proto.label: link.proto for link in at.get("page_link")}
    assert translate("lessons.done", "zh") in labels
    prev = labels[translate("lessons.previous", "zh")]
    assert prev.page == "alignment" and "stop=5" in prev.query_string and "lang=zh" in prev.query_string


@pytest.mark.parametrize("stop", [s for stops in PATHS.values() for s in stops], ids=lambda s: f"{s.path}-{s.number}")
def test_every_stop_opens_its_page_in_its_prepared_state(stop):
    at = open_app(stop.page, lang="en", timeout=180, **stop.query("en"))  # the feature card reads the plays once
    assert not at.exception
    assert any(f"stop {stop.number} of {len(PATHS[stop.path])}" in m.value for m in at.markdown)
    for key, value in stop.params:  # each prepared control is one the page draws, at the prepared value
        held = at.session_state[key]
        assert str(held) == value or float(held) == pytest.approx(float(value)), key
    assert at.session_state[progress.STATE]["seen"] == {stop.path: [stop.number]}


@pytest.mark.parametrize(
    "query", [{"lesson": "scratch", "stop": "9"}, {"lesson": "nope", "stop": "1"}, {"lesson": "efficient", "stop": "1"}]
)
def test_a_wrong_or_foreign_stop_shows_no_banner(query):
    at = open_app("gpt", lang="en", **query)  # stop 1 of "efficient" is the RoPE page, not this one
    assert not at.exception
    assert not any("stop " in m.value and " of " in m.value for m in at.markdown)


def test_presenter_mode_shows_the_task_large():
    at = open_app("mla", lang="en", lesson="efficient", stop="6", present="true")
    assert not at.exception
    big = [h.proto.body for h in at.get("html") if "font-size:1.6rem" in h.proto.body]
    assert len(big) == 1 and "latent" in big[0]


# ---- exercises: right and wrong, each right answer worked out here from the page's service ---------------------------


def _gpt_right():
    from app.gpt import service as svc

    ind = svc.induction(*svc.ICL_DEFAULT, "torch")
    best = np.unravel_index(int(ind.scores.argmax()), ind.scores.shape)
    assert ind.scores.max() > 0.5  # the head copies: most of its attention goes to the token after the first copy
    return tuple(int(i) for i in best), (0, 0) if tuple(best) != (0, 0) else (0, 1)


def _mla_right():
    from app.mla import service as svc

    caches = {c.kind: c.bytes_measured for c in svc.trained_caches() if c.bytes_measured}
    best = min(caches, key=caches.get)
    assert best == "MLA" and caches["MLA"] < caches["MQA"] < caches["GQA"] < caches["MHA"]
    return best, "MHA"


def _reasoning_right():
    from app.reasoning import service as svc

    c = svc.accuracy_curves()
    i = int(np.argmax(c.cot <= c.direct))
    assert c.cot[i] <= c.direct[i] and (c.cot[:i] > c.direct[:i]).all()
    k6 = list(c.ks).index(6)
    assert c.cot[k6] > c.direct[k6] + 0.5  # at k = 6 writing the steps helps by a wide margin
    return int(c.ks[i]), 6


def _flash_right():
    from app.flash_attention import service as svc

    io = svc.io(1024, 65536)
    ratio = io.standard / io.flash
    assert 2 < ratio < 16
    right = next(b for b in exercises.FLASH_BANDS if b[0] <= ratio < b[1])
    return right, exercises.FLASH_BANDS[0] if right != exercises.FLASH_BANDS[0] else exercises.FLASH_BANDS[-1]


def _attention_right():
    from app.attention import service as svc

    d = svc.decode(svc.EXAMPLES[0])
    row = d.patterns["cross"][-1, :, 0, :].mean(0)
    best = int(row.argmax())
    # reversing: the first output reads the last symbol (the source ends with <eos>)
    assert best == len(d.source) - 2
    return best, 0


def _forward_right():
    from app.forward_pass import service as svc

    view = svc.analyse(svc.DEFAULT_TEXT, 10**6, 0, 0, 1.0, svc.NAME)
    sums: dict = {}
    for (kind, layer, _), v in zip(view.dla_parts, view.dla):
        key = ("attn" if kind in ("head", "bias") else kind, layer)
        sums[key] = sums.get(key, 0.0) + float(v)
    scale = np.abs(view.logits).max()
    assert abs(sum(sums.values()) + view.dla_bias - view.logits[view.predicted]) < 1e-3 * scale
    best = max(sums, key=sums.get)
    return best, min(sums, key=sums.get)


def _vit_right():
    from app.vit import service as svc

    held = svc.held_out(2)
    res = svc.analyse(svc.image_key(held.image))
    m = svc.cls_attention(res, res.patterns.shape[0] - 1, None)
    best = tuple(int(i) for i in np.unravel_index(int(m.argmax()), m.shape))
    worst = tuple(int(i) for i in np.unravel_index(int(m.argmin()), m.shape))
    return best, worst


def _alignment_right():
    from app.alignment import service as svc

    res = svc.replies(*svc.examples()[0])
    scored = {r.name: r.reward for r in res.replies if r.reward is not None}
    if not scored:
        pytest.skip("no reward model installed")
    return max(scored, key=scored.get), min(scored, key=scored.get)


def _txl_right():
    from app.transformer_xl import service as svc

    a = svc.analyse(svc.DEFAULT_TEXT, "torch")
    _, memory, cleared = a.by_place()
    gain = cleared - memory
    first, last = gain[: svc.FIRST].mean(), gain[-svc.FIRST :].mean()
    assert first > last + 0.5  # nats: without the memory a segment's first tokens have almost no context
    return "first", "last"


def _mistral_right():
    from app.mistral import service as svc

    ids = svc.encode(svc.DEFAULT_TEXT)
    s = svc.shape()
    r = svc.reach(svc.DEFAULT_TEXT, len(ids) - 1)
    assert len(ids) - 1 > s.n_layers * (s.window - 1)  # the text is longer than the reach
    assert r.farthest[-1] == s.n_layers * (s.window - 1) and (r.beyond == 0).all()
    return int(r.farthest[-1]), s.window - 1


def _scaling_right():
    from app.scaling import service as svc

    s = svc.sweep()
    optima = svc.optima(svc.budget(svc.DEFAULT_BUDGET), s if s is not None and s.fitted else None)
    ranked = sorted(optima, key=lambda o: o.tokens_per_param)
    return ranked[-1].law, ranked[0].law


def _llama_right():
    from app.llama import service as svc

    h = svc.heads(svc.DEFAULT_TEXT)
    assert (h.within >= h.across - 0.01).all()  # sharing a key/value head never makes two heads less alike here
    diff = h.within - h.across
    return int(np.argmax(diff)), int(np.argmin(diff))


def _rope_right():
    from app.rope import service as svc

    rel = svc.relative(48, 10_000, 0)
    assert rel.rope_deviation < 1e-4 * np.abs(rel.rope).max()
    assert rel.absolute_deviation > 0.1 * np.abs(rel.absolute).max()
    return "rope", "both"


def _t5_right():
    from app.t5 import service as svc

    tb = svc.trained_bias(svc.NAME)
    peak = int(tb.offsets[int(tb.encoder[0].argmax())])
    assert abs(peak) <= exercises.T5_NEAR  # encoder head 0 favours a key next to the query
    return peak, exercises.T5_NEAR if peak != exercises.T5_NEAR else -exercises.T5_NEAR


def _mamba_right():
    from app.mamba import service as svc

    share, where = svc.share_near_letters(svc.analyse("copy", 0, 0, ""), 0)
    assert share > 0.9 and where < 0.6  # Δ moves on the letters, far beyond their share of the positions
    return next(b for b in exercises.MAMBA_BANDS if b[0] <= 100 * share < b[1]), exercises.MAMBA_BANDS[0]


CHOICES = {
    "transformer-xl": _txl_right,
    "mistral": _mistral_right,
    "scaling": _scaling_right,
    "llama": _llama_right,
    "rope": _rope_right,
    "t5": _t5_right,
    "mamba": _mamba_right,
    "gpt": _gpt_right,
    "mla": _mla_right,
    "reasoning": _reasoning_right,
    "flash-attention": _flash_right,
    "attention": _attention_right,
    "forward-pass": _forward_right,
    "vit": _vit_right,
    "alignment": _alignment_right,
}


@pytest.mark.parametrize("page", list(CHOICES))
def test_an_answer_box_exercise_tells_right_from_wrong(page):
    """Every model page has an exercise; each answered in its box is checked against the live model."""
    right, wrong = CHOICES[page]()
    assert right != wrong
    at = open_app(page, lang="en")
    assert not at.exception
    at = _solve(at, page, wrong)
    ok, text = _verdict(at)
    assert not ok and text
    assert page not in at.session_state[progress.STATE]["solved"]
    at = _solve(at, page, right)
    ok, text = _verdict(at)
    assert ok, text
    assert page in at.session_state[progress.STATE]["solved"]


def test_a_wrong_answer_gets_its_hint_in_chinese():
    right, wrong = _mla_right()
    at = open_app("mla", lang="zh")
    at = _solve(at, "mla", wrong, "zh")
    ok, text = _verdict(at)
    assert not ok and "缓存表" in text and "KiB" in text


def test_checking_without_an_answer_asks_for_one():
    at = open_app("reasoning", lang="en")
    at = _solve(at, "reasoning", None)
    assert _verdict(at) == (False, translate("lessons.pick", "en"))


def _moe_smallest_safe() -> float:
    """Walked up the slider's grid with the page's own service: the first factor that drops nothing (0 is the
    slider's "no limit")."""
    from app.moe import service as svc

    text = svc.SAMPLES["mixed"]
    for step in range(1, 61):
        if not svc.analyse(text, 1, round(step * 0.05, 2), "torch").dropped.any():
            return round(step * 0.05, 2)
    raise AssertionError("every factor up to 3 drops tokens")


def test_moe_is_answered_with_the_pages_own_slider():
    safe = _moe_smallest_safe()
    assert 1.25 < safe < 3  # the default 1.25 drops tokens of the mixed sample, so the exercise has work to do
    at = open_app("moe", lang="en")
    at = _solve(at, "moe", None)  # the default: tokens dropped
    ok, text = _verdict(at)
    assert not ok and "Raise the factor" in text
    at.slider(key="moe_capacity").set_value(0.0)
    at = _solve(at, "moe", None)
    ok, text = _verdict(at)
    assert not ok and "no limit" not in text and "lifts the limit" in text
    at.slider(key="moe_capacity").set_value(3.0)
    at = _solve(at, "moe", None)
    ok, text = _verdict(at)
    assert not ok and "go lower" in text
    at.slider(key="moe_capacity").set_value(safe)
    at = _solve(at, "moe", None)
    assert _verdict(at)[0]
    assert exercises.moe_smallest_safe(exercises._svc("moe").SAMPLES["mixed"], 1) == pytest.approx(safe)


@pytest.mark.parametrize(("masks", "hits"), [("3,4", [True, False]), ("2,9", [False, False]), ("3,6", [True, True])])
def test_bert_is_answered_with_the_pages_masks(masks, hits):
    """Masked together on the default pair, our BERT restores "," (position 3) but not "or" (4); neither "be" (2)
    nor the word at 9; both "," and the second "be" (6). Only one right and one wrong answers the exercise."""
    from app.bert import service as svc

    picked = tuple(int(m) for m in masks.split(","))
    tokens = svc.tokenize(svc.NAME, svc.DEFAULT_A, svc.DEFAULT_B)
    res = svc.analyse(svc.NAME, svc.DEFAULT_A, svc.DEFAULT_B, picked, 1)
    assert [bool(res.top_ids[i, 0] == tokens.ids[m]) for i, m in enumerate(res.masked)] == hits
    at = open_app("bert", lang="en", bert_masks=masks)
    assert not at.exception
    at = _solve(at, "bert", None)
    ok, text = _verdict(at)
    assert ok == (any(hits) and not all(hits)), text


def test_every_model_page_has_an_exercise_in_both_languages():
    assert set(exercises.EXERCISES) == PAGES | set(TOOL_STOPS)
    assert set(CHOICES) | {"moe", "bert"} == PAGES
    for page in PAGES | set(TOOL_STOPS):
        for lang in ("en", "zh"):
            assert translate(f"lessons.ex.{exercises.slug(page)}.q", lang)


# ---- progress --------------------------------------------------------------------------------------------------------


def test_progress_shows_on_home_and_in_its_path_and_resets():
    at = open_app("gpt", lang="en", lesson="scratch", stop="3")
    right, _ = _gpt_right()
    at = _solve(at, "gpt", right)
    assert at.session_state[progress.STATE] == {"seen": {"scratch": [3]}, "solved": ["gpt"]}
    scripts = [h.proto.body for h in at.get("html") if "te_lessons=" in h.proto.body]
    assert scripts and progress.encode(at.session_state[progress.STATE]) in scripts[-1]
    at.switch_page("home/page.py").run()
    assert not at.exception
    total = len([s for s in PATHS["scratch"] if s.page in exercises.EXERCISES])
    line = translate("lessons.progress.line", "en", seen=1, stops=len(PATHS["scratch"]), solved=1, total=total)
    assert any(line in m.value for m in at.markdown)
    at.switch_page("lessons/page.py").run()
    assert any(line == c.value for c in at.caption)
    at.button(key="lessons_reset").click().run()
    assert at.session_state[progress.STATE] == {"seen": {}, "solved": []}
    assert any("max-age=0" in h.proto.body for h in at.get("html"))  # the cookie is deleted
    at.switch_page("home/page.py").run()
    assert not any(translate("lessons.progress.title", "en") in m.value for m in at.markdown)


def test_home_shows_no_progress_before_any():
    at = open_app(None, lang="en")
    assert not at.exception
    assert not any(translate("lessons.progress.title", "en") in m.value for m in at.markdown)


def test_the_cookie_round_trips_and_bad_cookies_read_as_nothing():
    state = {"seen": {"scratch": [1, 3]}, "solved": ["gpt", "mla"]}
    assert progress.parse(progress.encode(state)) == state
    for bad in (None, "", "{", "%7B%22seen%22%3A5%7D", '{"seen": {"x": ["a"]}}', "[1]"):
        assert progress.parse(bad) == {"seen": {}, "solved": []}
    value = progress.encode({"seen": {}, "solved": ['"</script><b>']})
    assert not set(value) & set("<>\"'; ")


# ---- worksheets ------------------------------------------------------------------------------------------------------


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.links = [], []

    def handle_data(self, data):
        self.text.append(data)

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs)["href"])


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", list(PATHS))
def test_a_worksheet_has_every_stop_its_link_and_an_answer_key(path, lang):
    base = "https://explorer.example"
    md = worksheet.markdown(path, lang, base)
    page = worksheet.printable(path, lang, base)
    parsed = _Text()
    parsed.feed(page)
    text = "".join(parsed.text)
    assert md.startswith(f"# {translate(f'lessons.path.{path}.title', lang)}")
    for stop in PATHS[path]:
        url = worksheet.stop_url(stop, base, lang)
        assert f"lesson={path}&stop={stop.number}" in url and (("lang=zh" in url) == (lang == "zh"))
        assert url in md and url in parsed.links
        task = translate(f"lessons.task.{path}.{stop.task}", lang)
        assert task in md and task in text
    key = translate("lessons.ws.key", lang)
    assert f"## {key}" in md and key in text
    with_exercise = [s for s in PATHS[path] if s.page in exercises.EXERCISES]
    assert md.split(f"## {key}")[1].count("\n- **") == len(with_exercise)
    assert f'lang="{"zh-Hans" if lang == "zh" else "en"}"' in page


def test_the_answer_key_follows_the_stops_prepared_state():
    """The attention stop opens at step 2: the key names what cross-attention reads there, not at step 0; the
    FlashAttention stop opens at N = 1,024 and M = 65,536."""
    assert "step 2:" in worksheet.markdown("scratch", "en", "")
    assert "At N = 1,024, M = 65,536:" in worksheet.markdown("efficient", "en", "")


def test_an_exercise_whose_model_is_missing_says_so_instead_of_a_traceback(monkeypatch):
    """Checked against a page whose numbers cannot be computed here: a translated verdict, no exception."""

    def missing(_answer):
        raise FileNotFoundError("models/checkpoints/mla/config.json")

    monkeypatch.setitem(exercises.EXERCISES, "mla", exercises.Exercise("mla", missing, str, lambda: ("MLA",)))
    at = open_app("mla", lang="zh")
    at = _solve(at, "mla", "MLA", "zh")
    assert not at.exception
    assert _verdict(at) == (False, translate("lessons.unavailable", "zh"))


# ---- exercises on the model the page shows (a real one picked at the top) ----------------------------------------

REAL = "smollm2-135m"  # the real model setup ships


def _open_real(page: str, **query):
    """``page`` with SmolLM2 picked; fails (never skips) where it is missing: the README's setup fetches it."""
    from app.shared import services

    if not services.checkpoint(REAL).available:
        pytest.fail("SmolLM2-135M-Instruct is not on this machine: run `python -m models.data.pretrained`")
    at = open_app(page, lang="en", timeout=300, **{f"{exercises.slug(page)}_model": REAL}, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_gpt_exercise_asks_about_the_real_model_the_page_shows():
    """SmolLM2 has 30 layers of 9 heads: the answer box offers them all, and the head the page names in its intro
    (its best induction head on the default sequence) is the right answer."""
    from app.gpt import service as svc

    ind = svc.induction(*svc.ICL_DEFAULT, "torch", REAL)
    assert ind.scores.shape == (30, 9)
    best = ind.best_head
    label = translate("view.layer_head", "en", layer=best[0], head=best[1])
    at = _open_real("gpt")
    assert any(label in m.value for m in at.markdown)  # the page names it
    box = at.selectbox(key="lessons_gpt_answer")
    assert box.options[0] == "L0 · H0" and box.options[-1] == "L29 · H8" and len(box.options) == 270
    worst = tuple(int(i) for i in np.unravel_index(int(ind.scores.argmin()), ind.scores.shape))
    at = _solve(at, "gpt", worst)
    assert not _verdict(at)[0]
    at = _solve(at, "gpt", best)
    ok, text = _verdict(at)
    assert ok and f"{ind.scores.max():.2f}" in text, text


def _real_attribution(text: str) -> dict:
    """Direct logit attribution on SmolLM2 at the last token, worked out here from the page's forward pass: a
    layer's attention W_O · context, its MLP the rest of what the block adds, each projected on the predicted token's
    unembedding through the final RMSNorm at its scale."""
    from app.forward_pass import service as svc

    f = svc.forward_llama(text, REAL)
    w, c = svc.weights(REAL), svc.config(REAL)
    t = len(f.ids) - 1
    resid = f.probes["resid"][:, t].astype(np.float64)  # (L, C)
    before = np.vstack([w["embed.weight"][f.ids[t]][None].astype(np.float64), resid[:-1]])
    attn = np.stack([w[f"blocks.{i}.attn.wo.weight"] @ f.probes["attn.context"][i, :, t].reshape(-1)
                     for i in range(c["n_layers"])]).astype(np.float64)  # fmt: skip
    mlp = resid - before - attn
    rms = np.sqrt((resid[-1] ** 2).mean() + c["norm_eps"])
    predicted = int(f.logits[t].argmax())
    e = w["embed.weight"][predicted].astype(np.float64) * w["norm.weight"] / rms  # SmolLM2 ties its unembedding
    parts = {("token", -1): float(before[0] @ e)}
    for i in range(c["n_layers"]):
        parts["attn", i], parts["mlp", i] = float(attn[i] @ e), float(mlp[i] @ e)
    assert sum(parts.values()) == pytest.approx(float(f.logits[t, predicted]), rel=1e-3)
    return parts


def test_the_forward_pass_exercise_asks_about_the_real_model_the_page_shows():
    """On SmolLM2 the options are its embedding and its 30 layers' attention and MLP (no position embedding: RoPE),
    and the right answer is the part that adds most to SmolLM2's own prediction."""
    from app.forward_pass import service as svc

    parts = _real_attribution(svc.DEFAULT_TEXT)
    best, worst = max(parts, key=parts.get), min(parts, key=parts.get)
    at = _open_real("forward-pass")
    box = at.selectbox(key="lessons_forward_pass_answer")
    assert len(box.options) == 1 + 2 * 30
    assert box.options[0] == "the token embedding" and box.options[-1] == "MLP of layer 29"
    at = _solve(at, "forward-pass", worst)
    ok, text = _verdict(at)
    assert not ok and "add up a layer's heads" in text  # the answer sums a layer's heads: so does the hint
    at = _solve(at, "forward-pass", best)
    ok, text = _verdict(at)
    assert ok and f"{parts[best]:.2f}" in text, text


def _vit_exercise_alone():
    """The ViT page's exercise drawn on its own (a released ViT's page reads photos, not our held-out digits)."""
    import streamlit as st

    from app.lessons import exercises as ex
    from app.shared.i18n import remember_lang

    remember_lang(st.session_state["lang"])  # as the shell does each run (AppTest reuses its session id)
    ex.exercise("vit")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_vit_exercise_on_a_released_vit_says_it_is_about_ours_and_switches_the_page_back(lang):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_vit_exercise_alone, default_timeout=120)
    at.session_state["lang"] = lang
    at.session_state["vit_model"] = "vit-base-patch16-224"  # picked at the top of the page
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.selectbox  # no answers offered about a model the page does not show
    assert at.info[0].value == translate("lessons.ours_only", lang, name="vit")
    at.button(key="lessons_vit_ours").click().run()
    assert at.session_state["vit_model"] == "vit"
    box = at.selectbox(key="lessons_vit_answer")  # the question, on our ViT
    grid = exercises._svc("vit").MODEL.model.config.grid
    assert len(box.options) == grid * grid


def test_the_llama_exercise_asks_about_the_real_model_the_page_shows():
    """With SmolLM2 picked (30 layers, 9 query heads on 3 key/value heads) the layers offered are its own, and the
    right layer is where its heads sharing a key/value head overlap most beyond the others, on the page's text."""
    from app.llama import service as svc

    h = svc.heads(svc.DEFAULT_TEXT, REAL)
    assert h.within.shape == (30,)
    diff = h.within - h.across
    best, worst = int(np.argmax(diff)), int(np.argmin(diff))
    with exercises.prepared({"llama_model": REAL}):
        ex = exercises.EXERCISES["llama"]
        assert ex.options() == tuple(range(30))
        assert ex.check(best).ok and not ex.check(worst).ok
        assert ex.answer("en").startswith(translate("view.layer_n", "en", layer=best) + ".")


def test_the_t5_exercise_reads_the_bias_of_the_model_the_page_shows(monkeypatch):
    """A released T5 picked on the page (a stand-in for its bias tables here): the peak is read from its tables."""
    from app.t5 import service as svc

    asked = []
    offsets = np.arange(-8, 9)

    def trained_bias(name, backend="torch"):
        asked.append(name)
        peak = 3 if name == "t5-small" else -1  # the released model's head 0 peaks at +3
        table = -np.abs(offsets - peak)[None].astype(float)
        return svc.TrainedBias(offsets, table, table[:, :9], offsets[:9], backend, "cpu", 0.0)

    monkeypatch.setattr(svc, "trained_bias", trained_bias)
    with exercises.prepared({"t5_model": "t5-small"}):
        ex = exercises.EXERCISES["t5"]
        assert ex.check(3).ok and not ex.check(-1).ok
        assert "+3" in ex.answer("en")
    assert set(asked) == {"t5-small"}


def test_chinese_lessons_count_layers_rows_and_steps_from_0_as_the_app_does():
    """Layers, heads, grid cells and decoding steps are 0-based indices: "层 0", "行 0 · 列 0", "步 0" — never
    "第 0 层" ("the zeroth layer"). Only the stop number, counted from 1, is an ordinal."""
    import re

    from app.lessons.strings import STRINGS

    ordinals = {k: zh for k, (_en, zh) in STRINGS.items() if re.search(r"第\s*[{0-9a-z]", zh)}
    assert set(ordinals) == {"lessons.stop_of"}, ordinals
    assert exercises._vit_label((0, 3), "zh") == "行 0 · 列 3"
    assert exercises._forward_label(("mlp", 0), "zh") == "层 0 的 MLP"
    assert translate("lessons.ex.attention.key", "zh", text="ab", step=0, i=1, char="b", w="9%").startswith(
        "在 “ab” 上，步 0："
    )


def test_mistral_at_exactly_the_layers_reach_accepts_that_count_and_the_first_token():
    """At position L·(W − 1) the window reaches exactly back to the first token: "124 tokens back" and "back to the
    first token" are both true, and the exercise takes either; one window fewer is wrong."""
    from app.mistral import service as svc

    s = svc.shape()
    bound = s.n_layers * (s.window - 1)
    r = svc.reach(svc.DEFAULT_TEXT, bound)
    assert int(r.farthest[-1]) == bound  # the page's own numbers: the last layer reaches the first token
    at = open_app("mistral", lang="en", mistral_position=str(bound))
    assert not at.exception
    assert at.slider(key="mistral_position").value == bound
    at = _solve(at, "mistral", (s.n_layers - 1) * (s.window - 1))
    assert not _verdict(at)[0]
    for answer in (bound, 0):
        at = _solve(at, "mistral", answer)
        ok, text = _verdict(at)
        assert ok and f"{bound} tokens back from position {bound}" in text, (answer, text)


# ---- the paths' texts ------------------------------------------------------------------------------------------------


def test_every_exercise_is_on_some_path():
    on_paths = {s.page for stops in PATHS.values() for s in stops}
    assert set(exercises.EXERCISES) <= on_paths, set(exercises.EXERCISES) - on_paths
    assert PATHS["scratch"][-1].page == "vit"
    for lang in ("en", "zh"):
        assert "ViT" in translate("lessons.path.scratch.blurb", lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reasoning_paths_mla_stop_has_its_own_task_and_is_in_its_blurb(lang):
    """The efficient path asks which cache is smallest; the reasoning path's stop on the same page asks about the
    second head DeepSeek-V3 trains, and its blurb names the model."""
    task = translate("lessons.task.reasoning.mla", lang)
    assert "smallest" not in task and "最小" not in task
    assert ("token after next" if lang == "en" else "下下个词元") in task
    assert "DeepSeek-V3" in translate("lessons.path.reasoning.blurb", lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reasoning_exercise_says_it_reads_the_models_card(lang):
    card = "model's card" if lang == "en" else "模型卡"
    assert card in translate("lessons.ex.reasoning.q", lang)
    assert card in exercises.EXERCISES["reasoning"].answer(lang)


def test_bert_masks_clickable_words_not_pill_buttons():
    from app.lessons.strings import STRINGS

    assert not [k for k, (en, zh) in STRINGS.items() if "药丸" in zh or "pill" in en]
    for key in ("lessons.ex.bert.q", "lessons.task.scratch.bert"):
        zh, en = translate(key, "zh"), translate(key, "en")
        assert "药丸" not in zh and "可点选的词" in zh
        assert "pill" not in en and "click" in en.lower()


def test_transformer_xl_has_one_term_for_its_memory_and_the_task_a_verb():
    """The page's words: the memory (记忆) of the previous segment (片段); never "segment-level memory" / 段级记忆,
    nor 段 alone for a segment."""
    import re

    from app.lessons.strings import STRINGS

    keys = [k for k in STRINGS if "transformer_xl" in k or k.endswith(".txl") or k == "lessons.path.scratch.blurb"]
    assert len(keys) >= 7
    for key in keys:
        en, zh = STRINGS[key]
        assert "segment-level" not in en, key
        assert not re.search(r"(?<!片)段(?!落)", zh.replace("一段随机", "")), (key, zh)
        assert "memory" not in en or "记忆" in zh, key
    task = translate("lessons.task.scratch.txl", "en")
    assert "and find out why the memory needs relative positions" in task


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_worksheet_separates_answers_by_a_mark_none_contains_and_quotes_word_pieces(lang):
    """GPT's heads read "L0 · H0": one line of them must not be joined by " · " too. BERT's key lists word pieces,
    "," among them: each is quoted, so "to", "," and "to" do not read as "to, ,, to"."""
    md = worksheet.markdown("scratch", lang, "")
    gpt = next(s for s in PATHS["scratch"] if s.page == "gpt")
    with exercises.prepared(dict(gpt.params)):
        labels = [exercises._gpt_label(h, lang) for h in exercises._gpt_heads()]
    assert len(labels) > worksheet.INLINE and "·" in labels[0]
    line = next(row for row in md.splitlines() if row.startswith(labels[0]))
    sep = worksheet.separator(labels)
    assert "·" not in sep and line.split(sep) == labels
    bert = exercises.EXERCISES["bert"].answer(lang)
    assert "“,”" in bert and ", ,," not in bert
    assert bert in md


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_feature_microscope_stop_is_titled_as_a_tool_and_opens_prepared(lang):
    """A tool on a path: its link and worksheet use the tool's title (it has no paper), and the stop opens the page
    with its task in the banner and its exercise below, on a feature that is not yet an answer."""
    stop = next(s for s in PATHS["scratch"] if s.page == "features")
    assert stop.title_key == "tool.features.title" == next(f"tool.{x.key}.title" for x in TOOLS if x.page == "features")
    assert f"## {stop.number}. {translate('tool.features.title', lang)}" in worksheet.markdown("scratch", lang, "")
    lessons = open_app("lessons", lang=lang)
    assert not lessons.exception
    assert any(translate("tool.features.title", lang) in link.proto.label for link in lessons.get("page_link"))
    at = open_app("features", lang=lang, timeout=180, lesson="scratch", stop=str(stop.number), **dict(stop.params))
    assert not at.exception and not at.error
    assert any(m.value == translate("lessons.task.scratch.features", lang) for m in at.markdown)
    from app.features import service as svc

    opened = at.number_input(key="features_id").value  # the default text's first token's strongest feature
    assert not svc.on_names("gpt", opened).ok  # the stop does not open on an answer: the reader types a speaker's line
    assert any(translate("lessons.ex.features.q", lang) in m.value for m in at.markdown)
