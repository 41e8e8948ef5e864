"""The GPT page on the dynamics model (gpt-induction): the training-step slider runs the page's views on that step's
weights (equal to a fresh load of the snapshot), keeps the step in the link, and the training section states what
the recorded run measured; ours without a recorded training offers the one that has it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from app.shared.i18n import translate
from models import metrics, zoo
from tests.app.conftest import metric, open_app, rerun, spec

LANG = "en"
NAME = "gpt-induction"
CARD = zoo.read_card(NAME) if (zoo.checkpoint_dir(NAME) / "card.json").exists() else {}
STEPS = [r["step"] for r in CARD.get("snapshots", [])]
pytestmark = pytest.mark.skipif(not STEPS, reason="gpt-induction is not trained")


def early_step() -> int:
    """The last kept step before the induction head formed."""
    return max(s for s in STEPS if s < CARD["formation_step"])


def record(step: int) -> dict:
    return next(r for r in CARD["snapshots"] if r["step"] == step)["metrics"]


def open_step(step: int | None, lang: str = LANG):
    query = {"gpt_model": NAME} | ({"gpt_step": str(step)} if step is not None else {})
    at = open_app("gpt", lang=lang, timeout=120, **query)
    assert not at.exception, at.exception
    return at


def fresh_top(step: int | None, text: str) -> tuple[str, float]:
    """The top next token and its probability from a fresh load of the snapshot (or the trained weights)."""
    model = zoo.load(zoo.snapshot_name(NAME, step))
    tok = metrics.tokenizer(zoo.checkpoint_dir(NAME))
    ids = torch.tensor([[0, *tok.encode(text).ids]])
    with torch.inference_mode():
        probs = torch.softmax(model(ids)[0, -1], -1)
    top = int(probs.argmax())
    return tok.decode([top]), float(probs[top])


def test_the_step_slider_runs_the_views_on_that_steps_weights():
    from app.gpt import service as svc

    text = svc.EXAMPLES[0]
    for step in (early_step(), None):
        at = open_step(step)
        piece, p = fresh_top(step, text)
        assert metric(at, translate("gpt.m.top_p", LANG)) == f"{p:.1%}", step
    # the early weights and the trained ones disagree: the slider changes what the page shows
    assert fresh_top(early_step(), text) != fresh_top(None, text)


def test_the_step_is_kept_in_the_link_and_moves_the_training_figures():
    at = open_step(None)
    assert "gpt_step" not in at.query_params  # the trained weights: nothing in the link
    at.select_slider(key="gpt_step").set_value(early_step())
    rerun(at, LANG)
    assert not at.exception
    assert at.query_params["gpt_step"] == [str(early_step())] or at.query_params["gpt_step"] == str(early_step())
    shown = metric(at, translate("gpt.train.m.induction", LANG))
    assert shown == f"{max(max(row) for row in record(early_step())['induction']):.2f}"


def test_the_training_section_states_the_recorded_run():
    at = open_step(early_step())
    assert metric(at, translate("gpt.train.m.formed", LANG)) == f"{CARD['formation_step']:,}"
    m = record(early_step())
    assert metric(at, translate("gpt.train.m.ratio", LANG)) == f"{m['loss_repeat'] / m['loss_first']:.0%}"
    # what the try-this promises before the formation step holds on these weights
    assert max(max(row) for row in m["induction"]) < 0.3
    assert m["loss_repeat"] / m["loss_first"] > 0.8
    final = record(STEPS[-1])
    assert max(max(row) for row in final["induction"]) > 0.4
    assert final["loss_repeat"] / final["loss_first"] < 0.6


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_number_of_the_shipped_gpt_shows_on_the_dynamics_model(lang):
    """Everything on the page follows the picked model: none of gpt's card numbers on gpt-induction's page."""
    at = open_step(early_step(), lang)
    gpt = zoo.read_card("gpt")["metrics"]
    shown = " ".join([x.value for x in at.markdown] + [x.value for x in at.caption] + [str(m.value) for m in at.metric])
    for key in ("val_bpc", "induction_loss_ratio", "bigram_val_bpc", "induction_head_score"):
        assert f"{gpt[key]:.2f}" not in shown or f"{gpt[key]:.3f}" not in shown, key
    assert "3.4 million" not in shown and "3.4 百万" not in shown


def test_ours_without_a_recorded_training_offers_the_model_that_has_one():
    at = open_app("gpt", lang=LANG)
    assert not at.exception
    assert "gpt_step" not in at.query_params
    button = next(b for b in at.button if b.label == translate("gpt.train.open", LANG))
    button.click()
    rerun(at, LANG)
    assert not at.exception
    assert at.session_state["gpt_model"] == NAME
    assert metric(at, translate("gpt.train.m.formed", LANG)) == f"{CARD['formation_step']:,}"


def test_a_step_the_run_did_not_keep_is_a_message_not_a_traceback():
    at = open_app("gpt", lang=LANG, gpt_model=NAME, gpt_step="7777777")
    assert not at.exception
    # an unknown step in the link falls back to the trained weights (the slider offers the kept steps only)
    assert metric(at, translate("gpt.train.m.formed", LANG)) == f"{CARD['formation_step']:,}"
    assert np.isfinite(float(metric(at, translate("gpt.train.m.induction", LANG))))


def _first_formed() -> int:
    return next(r["step"] for r in CARD["snapshots"] if max(max(row) for row in r["metrics"]["induction"]) >= 0.3)


def _verdict(at) -> tuple[bool, str]:
    if at.success:
        return True, at.success[-1].value
    assert at.warning, "no verdict drawn"
    return False, at.warning[-1].value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_exercise_asks_when_the_head_formed_and_checks_the_slider_against_the_card(lang):
    first = _first_formed()
    before = max(s for s in STEPS if s < first)
    at = open_step(before, lang)
    assert translate("lessons.ex.gpt.step.q", lang) in " ".join(m.value for m in at.markdown)
    at.button(key="lessons_gpt_check").click()
    rerun(at, lang)
    ok, text = _verdict(at)
    assert not ok and text.startswith(translate("lessons.ex.gpt.step.early", lang, step="", score="", formed="")[:6])
    at.select_slider(key="gpt_step").set_value(first)
    rerun(at, lang)
    at.button(key="lessons_gpt_check").click()
    rerun(at, lang)
    ok, text = _verdict(at)
    assert ok and f"{first:,}" in text


def test_the_in_context_view_on_a_step_equals_a_fresh_load_of_that_snapshot():
    """The in-context-learning view (random ids shown twice) at a kept step: its best head's score and the repeat's
    ratio are those of the snapshot loaded afresh, run on the same sequence."""
    from models.probe import trace

    step = _first_formed()
    at = open_app("gpt", lang=LANG, timeout=120, gpt_model=NAME, gpt_step=str(step), gpt_view="icl")
    assert not at.exception
    length = 30
    model = zoo.load(zoo.snapshot_name(NAME, step))
    ids = metrics.induction_batch(model.config.vocab, n=1, length=length, seed=0)
    with torch.inference_mode(), trace("blocks.*.attn.pattern") as t:
        logits = model(torch.from_numpy(ids))
    patterns = np.stack([t[f"blocks.{i}.attn.pattern"][0].numpy() for i in range(len(t))])
    scores = metrics.induction_scores(patterns, length)
    loss = torch.nn.functional.cross_entropy(logits[0, :-1], torch.from_numpy(ids[0, 1:]), reduction="none").numpy()
    first, second = metrics.copy_losses(loss, length)
    assert metric(at, translate("gpt.icl.m.score", LANG)) == f"{scores.max():.2f}"
    assert metric(at, translate("gpt.icl.m.ratio", LANG)) == f"{second / first:.2%}"


def test_the_live_run_opens_at_the_recorded_runs_learning_rate():
    at = open_step(None)
    assert at.select_slider(key="gpt_live_lr").value == CARD["settings"]["lr"]
    assert at.button(key="gpt_live_start")  # nothing runs for this session yet: Start, not Cancel


def test_the_figures_a_step_move_redraws_have_their_margins_set_by_the_builder():
    """The four figures a step move redraws (the next-token bars, the sampling bars and the two training figures)
    have margins set by their builders, not grown by Plotly's automargin (a second layout pass per figure and move),
    tick labels drawn without the overflow check, and room on the left for the longest token label."""
    at = open_step(1000, lang="zh")
    for key in ("gpt_next", "gpt_sampling", "gpt_train_heads", "gpt_train_losses"):
        layout = spec(at, key)["layout"]
        axes = [name for name in layout if name.startswith(("xaxis", "yaxis"))]
        assert len(axes) >= 2, key
        assert all(layout[name]["automargin"] is False for name in axes), key
        assert all(layout[name]["ticklabeloverflow"] == "allow" for name in axes), key
        assert min(layout["margin"][side] for side in "lrtb") >= 24, key
    bars = spec(at, "gpt_next")
    longest = max(len(label) for label in bars["data"][0]["y"])
    assert bars["layout"]["margin"]["l"] >= 7 * longest
