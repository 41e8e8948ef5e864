"""AppTest of the Alignment page: it runs in English; an example fills the prompt; the reward model and DPO read the
two typed replies (a kind one scores above a harsh one, and swapping them flips DPO's implicit rewards); bad input
gets a message in the user's language; the samples slider sets the rows per model."""

from __future__ import annotations

import pytest

from app.alignment import service as svc
from app.shared.i18n import translate
from tests.app.conftest import metric, open_app, rerun

LANG = "en"
ALL = (svc.SFT, svc.REWARD, svc.PPO, svc.DPO)
needs_all = pytest.mark.skipif(not all(svc.available(n) for n in ALL), reason="alignment checkpoints not installed")
KIND, HARSH = "O sweet gentle love, my good friend.", "Thou villain, thy death and blood!"


def m(at, key: str) -> str:
    return metric(at, translate(key, LANG))


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def test_page_runs_in_english():
    at = open_app("alignment", lang=LANG)
    assert not at.exception
    assert at.text_input(key="alignment_line").value == svc.examples()[0][1]
    for name in ALL:
        if not svc.available(name):
            assert any(name in e for e in errors(at))


def test_an_example_fills_the_prompt():
    at = open_app("alignment", lang=LANG)
    at.selectbox(key="alignment_example").set_value(3)
    rerun(at, LANG)
    prev, line, speaker = svc.examples()[3]
    assert at.text_input(key="alignment_line").value == line
    assert at.text_input(key="alignment_speaker").value == speaker
    assert at.text_input(key="alignment_previous").value == prev
    assert line in at.code[0].value and f"Reply as {speaker}" in at.code[0].value


@needs_all
def test_the_reward_model_and_dpo_read_the_typed_replies():
    at = open_app("alignment", lang=LANG)
    at.text_input(key="alignment_a").set_value(KIND)
    at.text_input(key="alignment_b").set_value(HARSH)
    rerun(at, LANG)
    assert not at.exception
    ra, rb = float(m(at, "alignment.rm.ra")), float(m(at, "alignment.rm.rb"))
    assert ra > rb and float(m(at, "alignment.rm.p").rstrip("%")) > 50
    assert translate("alignment.rm.rule_a", LANG) in " ".join(md.value for md in at.markdown)
    rw, rl_ = float(m(at, "alignment.dpo.rw")), float(m(at, "alignment.dpo.rl"))
    loss = float(m(at, "alignment.dpo.loss"))
    at.text_input(key="alignment_a").set_value(HARSH)
    at.text_input(key="alignment_b").set_value(KIND)
    rerun(at, LANG)
    assert float(m(at, "alignment.dpo.rw")) == pytest.approx(rl_, abs=2e-3)
    assert float(m(at, "alignment.dpo.rl")) == pytest.approx(rw, abs=2e-3)
    assert float(m(at, "alignment.dpo.loss")) != pytest.approx(loss, abs=1e-3)


@needs_all
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ppo_and_dpo_score_alike_because_the_reward_model_saturates_and_the_page_says_so(lang):
    """On the first example PPO and DPO both score +5.54 (two decimals). Not a copy: their replies differ. The reward
    model saturates: kind, well-formed replies that say different things, with one kind word or five, one repeated
    or not, score within a narrow band, and both policies' replies sit in it; a reply without a kind word scores far
    below. The page says so next to the scores."""
    example = svc.examples()[0]
    by_name = {r.name: r for r in svc.replies(*example).replies}
    ppo, dpo = by_name[svc.PPO], by_name[svc.DPO]
    assert ppo.text != dpo.text and ppo.well_formed and dpo.well_formed
    kind = [svc.pair(*example, probe, "Thou art a villain.") for probe in svc.KIND_PROBES]
    assert all(p.a.well_formed and p.a.kind and not p.a.harsh for p in kind)
    lo, hi = min(p.a.reward for p in kind), max(p.a.reward for p in kind)
    assert hi - lo < 0.3  # a ceiling: one kind word or five, repeated or not
    assert abs(ppo.reward - dpo.reward) < svc.SAME
    assert lo - 0.1 < min(ppo.reward, dpo.reward) and max(ppo.reward, dpo.reward) < hi + 0.1
    plain = svc.pair(*example, "I am sorry for thee.", "Thou art a villain.")
    assert plain.a.reward < lo - 2 and plain.b.reward < plain.a.reward  # the step is the kind word
    c = svc.ceiling(*example)
    assert (c.lo, c.hi) == pytest.approx((lo, hi), abs=1e-4)
    at = open_app("alignment", lang=lang)
    assert not at.exception
    said = translate(
        "alignment.steps.same",
        lang,
        ppo=f"{ppo.reward:+.3f}",
        dpo=f"{dpo.reward:+.3f}",
        lo=f"{lo:+.2f}",
        hi=f"{hi:+.2f}",
        probes=", ".join(f"“{p}”" for p in svc.KIND_PROBES),
    )
    assert said in [md.value for md in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bad_input_gets_a_message_in_the_users_language(lang):
    at = open_app("alignment", lang=lang)
    at.text_input(key="alignment_speaker").set_value("R2-D2 <script>")
    rerun(at, lang)
    assert not at.exception
    assert translate("alignment.error.speaker", lang, name="R2-D2 <script>", max=svc.MAX_SPEAKER) in errors(at)
    at.text_input(key="alignment_speaker").set_value("HAMLET")
    at.text_input(key="alignment_line").set_value("   ")
    rerun(at, lang)
    assert translate("alignment.error.empty_line", lang) in errors(at)


EXPANSIONS = {
    "en": {
        "SFT": "supervised fine-tuning",
        "RLHF": "reinforcement learning from human feedback",
        "PPO": "proximal policy optimization",
        "DPO": "direct preference optimization",
    },
    "zh": {"SFT": "监督微调", "RLHF": "基于人类反馈的强化学习", "PPO": "近端策略优化", "DPO": "直接偏好优化"},
}
LLAMA2 = {
    "en": ("2307.09288", "helpfulness", "safety", "RLHF-V1", "V5", "rejection sampling", "PPO", "Ghost Attention"),
    "zh": ("2307.09288", "有用性", "安全性", "RLHF-V1", "V5", "拒绝采样", "PPO", "GAtt"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_acronyms_are_spelled_out_at_first_use_and_llama_2_chat_is_taught(lang):
    at = open_app("alignment", lang=lang)
    texts = [md.value for md in at.markdown]
    for acronym, words in EXPANSIONS[lang].items():
        first = next(x for x in texts if acronym in x)
        assert words in first, (acronym, first)
    llama2 = next(x for x in texts if "Llama 2-Chat" in x)
    assert all(fact in llama2 for fact in LLAMA2[lang]), llama2


@needs_all
def test_the_samples_slider_sets_the_rows_per_model():
    at = open_app("alignment", lang=LANG)
    column = translate("alignment.samples.reply", LANG)
    table = next(df.value for df in at.dataframe if column in df.value.columns)
    assert len(table) == 3 * len(svc.POLICIES)
    at.slider(key="alignment_n").set_value(5)
    rerun(at, LANG)
    table = next(df.value for df in at.dataframe if column in df.value.columns)
    assert len(table) == 5 * len(svc.POLICIES)


# ---- PPO and DPO watched step by step (app/alignment/watch.py): the ppo-run and dpo-run cards -----------------------

needs_runs = pytest.mark.skipif(svc.runs() != list(svc.RUNS), reason="no ppo-run / dpo-run cards")


def watched_table(at):
    column = translate("alignment.watch.col.reply", LANG)
    return next(tb.value for tb in at.table if column in tb.value.columns)


def recorded(name: str, step: int) -> list[dict]:
    return next(r["replies"] for r in svc.card(name)["replies"] if r["step"] == step)


@needs_runs
@pytest.mark.parametrize("name", svc.RUNS)
def test_the_step_slider_shows_the_runs_replies_at_that_step_and_keeps_it_in_the_link(name):
    at = open_app("alignment", lang=LANG, alignment_run=name)
    assert not at.exception
    steps = [r["step"] for r in svc.card(name)["replies"]]
    reply = translate("alignment.watch.col.reply", LANG)
    assert at.select_slider(key="alignment_step").value == steps[-1]
    assert list(watched_table(at)[reply]) == [x["reply"] for x in recorded(name, steps[-1])]
    step = steps[len(steps) // 2]
    at.select_slider(key="alignment_step").set_value(step)
    rerun(at, LANG)
    assert not at.exception
    table = watched_table(at)
    assert list(table[reply]) == [x["reply"] for x in recorded(name, step)]
    assert list(table[translate("alignment.watch.col.rule", LANG)]) == [
        f"{x['rule_score']:+.0f}" for x in recorded(name, step)
    ]
    assert at.query_params["alignment_step"] in (str(step), [str(step)])
    again = open_app("alignment", lang=LANG, alignment_run=name, alignment_step=str(step))
    assert list(watched_table(again)[reply]) == [x["reply"] for x in recorded(name, step)]
    h = svc.card(name)["history"]
    if name == "ppo-run":
        assert m(at, "alignment.watch.m.score") == f"{h['score'][step - 1]:+.2f}"
        want = [f"{x['reward']:+.2f}" for x in recorded(name, step)]
        assert list(table[translate("alignment.watch.col.reward", LANG)]) == want
    else:
        assert m(at, "alignment.watch.m.chosen") == f"{h['chosen_reward'][step - 1]:+.3f}"


@needs_runs
def test_the_figure_marks_the_step_and_draws_the_cards_history():
    from tests.app.conftest import spec, values

    at = open_app("alignment", lang=LANG, alignment_run="dpo-run", alignment_step="10")
    fig = spec(at, "alignment_watch_curves")
    marks = [s for s in fig["layout"]["shapes"] if s.get("type") == "line" and s.get("x0") == s.get("x1")]
    assert [s["x0"] for s in marks] == [10, 10]
    h = svc.card("dpo-run")["history"]
    chosen = next(tr for tr in fig["data"] if tr["name"] == translate("alignment.watch.chosen", LANG))
    assert values(chosen["y"]).tolist() == h["chosen_reward"]


@needs_runs
def test_the_text_states_each_runs_numbers_read_from_its_card():
    import numpy as np

    n = svc.ENDS
    at = open_app("alignment", lang=LANG, alignment_run="ppo-run")
    h = {k: np.array(v) for k, v in svc.card("ppo-run")["history"].items()}
    here = next(md.value for md in at.markdown if md.value.startswith("**Here.**"))
    for number in (f"{h['score'][:n].mean():+.2f}", f"{h['score'][-n:].mean():+.2f}", f"{h['kl'][-n:].mean():.2f}"):
        assert number in here, number
    assert f"(β = {svc.card('ppo-run')['settings']['kl_coef']:g})" in here
    assert any("per-token KL penalty" in md.value for md in at.markdown)
    at = open_app("alignment", lang=LANG, alignment_run="dpo-run")
    h = {k: np.array(v) for k, v in svc.card("dpo-run")["history"].items()}
    here = next(md.value for md in at.markdown if md.value.startswith("**Here.**"))
    dchosen = (h["logp_chosen"] - h["ref_chosen"])[-n:].mean()
    drejected = (h["logp_rejected"] - h["ref_rejected"])[-n:].mean()
    for number in (f"{h['chosen_reward'][-n:].mean():+.3f}", f"{h['rejected_reward'][-n:].mean():+.3f}"):
        assert number in here, number
    assert f"{dchosen:+.1f}" in here and f"{drejected:+.1f}" in here
    assert ("Both fell" in here) == (dchosen < 0 and drejected < 0)
    assert ("not both fell" in here) == (dchosen >= 0)
