"""AppTest of the Reasoning page: it runs in English; typing a problem moves the answers' metrics to that problem's;
the difficulty slider and "another problem" draw held-out problems with that many operations; malformed problems get
a message in the user's language (English and Chinese); the group size sets the number of sampled rows and the policy
picker switches the group to the other checkpoint's; the try-this box quotes the accuracies the page shows."""

from __future__ import annotations

import numpy as np
import pytest

from app.reasoning import service as svc
from app.reasoning.strings import STRINGS
from app.shared.i18n import translate
from models import rl
from models.data import chains
from tests.app.conftest import metric, open_app, rerun

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

needs_answers = pytest.mark.skipif(
    not (svc.available(svc.DIRECT) and svc.available(svc.COT)), reason="no direct / cot checkpoints"
)
needs_curve = pytest.mark.skipif("accuracy_by_steps" not in svc.card(svc.COT).get("metrics", {}), reason="no cot card")
needs_start = pytest.mark.skipif(not svc.available(svc.START), reason="no grpo-start checkpoint")
needs_grpo = pytest.mark.skipif(
    not (svc.available(svc.START) and svc.available(svc.GRPO)), reason="no grpo-start / grpo checkpoints"
)


def m(at, key: str, lang: str = LANG, **fields) -> str:
    return metric(at, translate(key, lang, **fields))


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def group_table(at, lang: str = LANG):
    """The table of the sampled group (one row per completion)."""
    column = translate("reasoning.col.completion", lang)
    return next(tb.value for tb in at.table if column in tb.value.columns)


def test_page_runs_in_english():
    at = open_app("reasoning", lang=LANG)
    assert not at.exception
    assert at.text_input(key="reasoning_problem").value == svc.default_problem()
    for name in (svc.DIRECT, svc.COT, svc.START):
        if not svc.available(name):
            assert translate("error.model_missing", LANG, name=name) in errors(at)


def test_the_slider_and_another_problem_draw_held_out_problems_of_that_length():
    at = open_app("reasoning", lang=LANG)
    at.slider(key="reasoning_k").set_value(6)
    rerun(at, LANG)
    assert not at.exception
    drawn = at.text_input(key="reasoning_problem").value
    assert drawn == svc.drawn(6, 0) and svc.problem(drawn).k == 6
    at.button(key="reasoning_another").click()
    rerun(at, LANG)
    again = at.text_input(key="reasoning_problem").value
    assert again == svc.drawn(6, 1) != drawn and svc.problem(again).k == 6
    assert at.number_input(key="reasoning_index").value == 1
    at.slider(key="reasoning_k").set_value(svc.MAX_STEPS)
    rerun(at, LANG)
    assert svc.problem(at.text_input(key="reasoning_problem").value).k == svc.MAX_STEPS
    problem_errors = {translate(k, LANG) for k in ("reasoning.error.form", "reasoning.error.start")}
    assert not problem_errors & set(errors(at))  # a drawn problem is never malformed


@needs_answers
def test_typing_a_problem_changes_the_metrics():
    at = open_app("reasoning", lang=LANG)
    first = svc.answers(svc.default_problem())
    assert m(at, "reasoning.m.truth") == str(first.answer)
    other = next(p for p in svc.held_out(5) if svc.problem(p).answer != first.answer)
    at.text_input(key="reasoning_problem").set_value(other)
    rerun(at, LANG)
    assert not at.exception
    b = svc.answers(other)
    assert m(at, "reasoning.m.truth") == str(b.answer) != str(first.answer)
    for key, ans in (("reasoning.m.direct", b.direct), ("reasoning.m.cot", b.cot)):
        assert m(at, key) == ("—" if ans.answer is None else str(ans.answer))
    right = sum(w == v for w, v in zip(b.cot.steps, b.values))
    assert m(at, "reasoning.m.steps") == f"{right} / 5"
    # spaces, × and − are read as the task's signs
    at.text_input(key="reasoning_problem").set_value(other.replace("*", " × ").replace("-", "−"))
    rerun(at, LANG)
    assert m(at, "reasoning.m.truth") == str(b.answer)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_malformed_problem_shows_its_message_in_the_users_language(lang):
    at = open_app("reasoning", lang=lang)
    cases = [
        ("", "reasoning.error.empty", {}),
        ("3+4a", "reasoning.error.character", {"char": "a"}),
        ("+4*3", "reasoning.error.start", {}),
        ("7", "reasoning.error.no_ops", {}),
        ("3+12", "reasoning.error.form", {}),
        ("3*4-1", "reasoning.error.operand", {"op": "*4"}),
        ("3" + "+1" * (svc.MAX_STEPS + 1), "reasoning.error.too_many", {"n": svc.MAX_STEPS + 1, "max": svc.MAX_STEPS}),
    ]
    for text, key, fields in cases:
        at.text_input(key="reasoning_problem").set_value(text)
        rerun(at, lang)
        assert not at.exception, text
        assert translate(key, lang, **fields) in errors(at), (text, errors(at))
    if lang == "zh":  # the Chinese message, not chains.parse's English one
        assert not any("operation" in e for e in errors(at))


@needs_start
def test_group_size_sets_the_rows_and_the_advantages_are_grpos():
    at = open_app("reasoning", lang=LANG)
    table = group_table(at)
    assert len(table) == svc.GROUP
    at.slider(key="reasoning_group").set_value(12)
    rerun(at, LANG)
    assert not at.exception
    table = group_table(at)
    assert len(table) == 12
    g = svc.group(svc.default_problem(), svc.START, 12, 0)
    assert list(table[translate("reasoning.col.completion", LANG)]) == [c or "∅" for c in g.completions]
    assert m(at, "reasoning.m.correct") == f"{int(g.correct.sum())} / 12"
    want = rl.group_advantages(g.rewards[None])[0]
    assert np.allclose(g.advantages, want)
    if np.ptp(g.rewards) > 0:  # normalised: mean 0, population std σ / (σ + ε)
        sigma = g.rewards.std()
        assert abs(g.advantages.mean()) < 1e-9
        assert g.advantages.std() == pytest.approx(sigma / (sigma + rl.EPS), rel=1e-9)
    assert np.allclose(g.weights, want / np.maximum(g.lengths, 1) / 12)
    shown = [float(x) for x in table[translate("reasoning.col.advantage", LANG)]]
    assert np.allclose(shown, g.advantages, atol=5.1e-3)  # shown to 2 decimals


@needs_grpo
def test_the_policy_picker_switches_the_group():
    at = open_app("reasoning", lang=LANG)
    column = translate("reasoning.col.completion", LANG)
    start = svc.group(svc.default_problem(), svc.START, svc.GROUP, 0)
    assert list(group_table(at)[column]) == [c or "∅" for c in start.completions]
    at.button_group(key="reasoning_policy").set_value(svc.GRPO)
    rerun(at, LANG)
    assert not at.exception
    after = svc.group(svc.default_problem(), svc.GRPO, svc.GROUP, 0)
    assert list(group_table(at)[column]) == [c or "∅" for c in after.completions]
    assert m(at, "reasoning.m.mean_reward") == f"{after.rewards.mean():.3f}"
    at.number_input(key="reasoning_seed").set_value(5)
    rerun(at, LANG)
    again = svc.group(svc.default_problem(), svc.GRPO, svc.GROUP, 5)
    assert list(group_table(at)[column]) == [c or "∅" for c in again.completions]


@needs_curve
def test_the_try_this_box_quotes_the_accuracies_the_page_shows():
    at = open_app("reasoning", lang=LANG)
    c = svc.accuracy_curves()
    box = next(md.value for md in at.markdown if translate("view.try.title", LANG) in md.value)
    direct = m(at, "reasoning.m.direct_at_bar", k=c.bar_steps)
    cot = m(at, "reasoning.m.cot_at_bar", k=c.bar_steps)
    assert direct == f"{c.direct_at_bar:.0%}" and cot == f"{c.cot_at_bar:.0%}"
    assert f"`direct` right {direct}" in box and f"`cot` {cot}" in box
    assert f"k = {c.bar_steps}" in box
    metrics = svc.card(svc.COT)["metrics"]
    assert c.cot_at_bar == metrics["accuracy_by_steps"][str(svc.BAR_STEPS)]


@needs_grpo
def test_the_training_section_shows_what_rl_changed_from_the_card():
    at = open_app("reasoning", lang=LANG)
    metrics = svc.card(svc.GRPO)["metrics"]
    sharp = svc.sharpening(metrics)
    assert sharp is not None and sharp.steps == (metrics["start_writes_steps"], metrics["writes_steps"])
    k, K = svc.BAR_STEPS, svc.PASS_K
    assert m(at, "reasoning.m.writes_steps", k=k) == f"{metrics['writes_steps']:.1%}"
    assert m(at, "reasoning.m.pass", K=K, k=k) == f"{metrics[f'pass_at_{K}']:.1%}"
    assert m(at, "reasoning.m.maj", K=K, k=k) == f"{metrics[f'maj_at_{K}']:.1%}"
    # the reading follows the numbers: pass@K rose less than half as much as the greedy answer
    gains = {key: metrics[key] - metrics[f"start_{key}"] for key in ("exact_match", f"pass_at_{K}")}
    assert sharp.mostly_reranking == (gains[f"pass_at_{K}"] < 0.5 * gains["exact_match"])
    readings = {True: "Most of the gain is in the first answer", False: "did more than re-rank"}
    note = next(md.value for md in at.markdown if "Pass@K" in md.value)
    assert readings[sharp.mostly_reranking] in note and readings[not sharp.mostly_reranking] not in note
    assert f"pass@{K} {sharp.passed[0]:.1%} → {sharp.passed[1]:.1%}" in note


def test_the_longest_complete_answer_is_the_one_the_page_states():
    """A right, fully worked answer as the data writes it (``3,7,1,6=6.``): the start, then a comma and a value per
    operation, then ``=``, the answer and ``.``, 1 + 2k + 3 = 2k + 4 characters, 20 at k = 8; the page said 2k + 2
    (18) and counted a comma after the last value."""
    example = chains.parse("3+4*3-5").completion("cot")
    assert example == "3,7,1,6=6." and len(example) == 1 + 2 * 3 + 3
    rng = np.random.default_rng(0)
    k = svc.MAX_STEPS
    longest = max(len(p.completion("cot")) for p in chains.problems(rng, k, 200, split="train"))
    assert longest == 2 * k + 4 == svc.worked_length(k) == 20
    assert chains.PROMPT_LENGTH + longest == chains.CONTEXT  # nothing longer fits the models' context
    at = open_app("reasoning", lang=LANG)
    text = " ".join(md.value for md in at.markdown)
    assert f"at most {longest} characters" in text
    for trend in ("up", "down", "flat"):  # every reading of the length curve gives the count that adds up
        en, zh = STRINGS[f"reasoning.length.{trend}"]
        assert "2k + 4" in en and example in en and example in zh
    if svc.available(svc.GRPO):
        assert example in text


def test_no_visible_text_speaks_of_the_issue():
    assert not [key for key, (en, zh) in STRINGS.items() if "issue" in en.lower()]


def test_a_card_without_curves_gets_its_message_and_the_problem_still_moves(monkeypatch):
    """Without the accuracy curves (a card written before they were measured) the curve section says so; the
    problem's controls, which rerun the curve's part by its key, still work."""

    def no_curves():
        raise svc.InputError("reasoning.error.no_curve")

    monkeypatch.setattr(svc, "accuracy_curves", no_curves)
    at = open_app("reasoning", lang=LANG)
    assert not at.exception
    assert translate("reasoning.error.no_curve", LANG) in errors(at)
    at.slider(key="reasoning_k").set_value(5)
    at.session_state["lang"] = LANG
    at.run()  # the parts' run alone (conftest.rerun would draw the page again after it)
    assert not at.exception
    rerun(at, LANG)
    assert not at.exception
    assert svc.problem(at.text_input(key="reasoning_problem").value).k == 5


@needs_start
@needs_answers
def test_the_shared_results_cannot_be_changed_by_a_reader():
    """The answers and the group are shared by every reader of the process as they are (not copied per call):
    every array in them, nested ones too, is read-only."""
    text = svc.default_problem()
    a, g = svc.answers(text), svc.group(text, svc.START, 4, 0)
    assert svc.answers(text) is a and svc.group(text, svc.START, 4, 0) is g
    for array in (a.cot.probs, a.direct.probs, g.rewards, g.advantages, g.token_probs[0]):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


# ---- GRPO watched step by step (app/reasoning/watch.py): the grpo-run card -------------------------------------------

needs_run = pytest.mark.skipif(not svc.watched_available(), reason="no grpo-run checkpoint")


def run_card() -> dict:
    return svc.card(svc.RUN)


def recorded(step: int) -> dict:
    return next(r for r in run_card()["recorded"]["steps"] if r["step"] == step)


def watched_table(at, lang: str = LANG):
    column = translate("reasoning.watch.col.completion", lang)
    return next(tb.value for tb in at.table if column in tb.value.columns)


@needs_run
def test_the_training_step_slider_shows_the_cards_group_for_that_step_and_keeps_it_in_the_link():
    at = open_app("reasoning", lang=LANG)
    assert not at.exception
    steps = [r["step"] for r in run_card()["recorded"]["steps"]]
    assert at.select_slider(key="reasoning_watch_step").value == steps[-1]
    column = translate("reasoning.watch.col.completion", LANG)
    assert list(watched_table(at)[column]) == [c or "∅" for c in recorded(steps[-1])["group"]["completions"]]
    for step in (3, 10):
        at.select_slider(key="reasoning_watch_step").set_value(step)
        rerun(at, LANG)
        assert not at.exception
        g = recorded(step)["group"]
        table = watched_table(at)
        assert list(table[column]) == [c or "∅" for c in g["completions"]]
        assert [float(x) for x in table[translate("reasoning.col.advantage", LANG)]] == pytest.approx(
            g["advantages"], abs=5.1e-3
        )
        assert [float(x) for x in table[translate("reasoning.col.reward", LANG)]] == pytest.approx(g["rewards"])
        k6 = recorded(step)["accuracy_by_steps"][str(svc.BAR_STEPS)]
        assert m(at, "reasoning.watch.m.bar", k=svc.BAR_STEPS) == f"{k6:.0%}"
        assert at.query_params["reasoning_watch_step"] in (str(step), [str(step)])
        caption = translate("reasoning.watch.group", LANG, step=step)
        assert any(caption in md.value for md in at.markdown)
    # the link alone opens the page at that step
    again = open_app("reasoning", lang=LANG, reasoning_watch_step="5")
    assert again.select_slider(key="reasoning_watch_step").value == 5
    assert list(watched_table(again)[column]) == [c or "∅" for c in recorded(5)["group"]["completions"]]


@needs_run
def test_the_figures_mark_the_picked_step_and_draw_the_cards_numbers():
    from tests.app.conftest import spec, values

    at = open_app("reasoning", lang=LANG, reasoning_watch_step="4")
    by_k = spec(at, "reasoning_watch_by_k")
    mark = [s for s in by_k["layout"]["shapes"] if s.get("type") == "line"]
    assert mark and mark[0]["x0"] == 4 + 1  # steps drawn at s + 1 on the log axis
    k6 = next(tr for tr in by_k["data"] if tr["name"] == f"k = {svc.BAR_STEPS}")
    card = run_card()
    assert values(k6["y"]).tolist() == [r["accuracy_by_steps"][str(svc.BAR_STEPS)] for r in card["recorded"]["steps"]]
    per_step = spec(at, "reasoning_watch_per_step")
    length = next(tr for tr in per_step["data"] if tr["name"] == translate("reasoning.curve.length", LANG))
    assert values(length["y"]).tolist() == card["history"]["length"]
    assert sum(s.get("type") == "line" and s["x0"] == 5 for s in per_step["layout"]["shapes"]) == 2


@needs_run
def test_the_text_states_the_runs_numbers_read_from_its_card():
    at = open_app("reasoning", lang=LANG)
    card = run_card()
    steps = card["recorded"]["steps"]
    k = str(svc.BAR_STEPS)
    length = np.array(card["history"]["length"])
    writes = np.array(card["history"]["writes_steps"])
    n = svc.LENGTH_WINDOW
    here = next(md.value for md in at.markdown if md.value.startswith("**Here.**"))
    for number in (
        f"{steps[0]['accuracy_by_steps'][k]:.0%}",
        f"{steps[-1]['accuracy_by_steps'][k]:.0%}",
        f"{length[0]:.1f}",
        f"{length[-n:].mean():.1f}",
        f"{writes[0]:.0%}",
        f"{writes[-n:].mean():.0%}",
    ):
        assert number in here, number
    reached = next(r["step"] for r in steps if r["accuracy_by_steps"][k] >= svc.REACHED)
    assert f"at step {reached}" in here
    paper = next(md.value for md in at.markdown if md.value.startswith("**In the paper.**"))
    assert "15.6%" in paper and "71.0%" in paper


@needs_run
def test_the_group_samples_from_a_kept_step_of_the_watched_run():
    at = open_app("reasoning", lang=LANG)
    at.button_group(key="reasoning_policy").set_value(svc.RUN)
    rerun(at, LANG)
    assert not at.exception
    kept = [r["step"] for r in sorted(run_card()["snapshots"], key=lambda r: r["step"])]
    slider = at.select_slider(key="reasoning_run_step")
    assert list(slider.options) == [f"{s:,}" for s in kept] and slider.value == kept[-1]
    slider.set_value(kept[1])
    rerun(at, LANG)
    assert not at.exception
    g = svc.group(svc.default_problem(), f"{svc.RUN}@{kept[1]}", svc.GROUP, 0)
    assert list(group_table(at)[translate("reasoning.col.completion", LANG)]) == [c or "∅" for c in g.completions]
    assert at.query_params["reasoning_run_step"] in (str(kept[1]), [str(kept[1])])
    start = svc.group(svc.default_problem(), svc.START, svc.GROUP, 0)
    first = svc.group(svc.default_problem(), f"{svc.RUN}@0", svc.GROUP, 0)
    assert first.completions == start.completions  # step 0 is the start's weights (in float16)
