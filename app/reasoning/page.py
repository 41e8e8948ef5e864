"""Reasoning: chain of thought (2201.11903) against answering directly on a task whose difficulty is the number of
steps; GRPO (DeepSeekMath, 2402.03300) sampling a group, scoring it with a rule and turning the rewards into
advantages without a value network; and DeepSeek-R1's (2501.12948) pipeline. All on small models trained here."""

import streamlit as st

from app.reasoning import sections, watch
from app.reasoning import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("reasoning")
st.markdown(t("reasoning.intro"))

try:
    curves, curves_error = svc.accuracy_curves(), None
except InputError as e:
    curves, curves_error = None, e

if curves is not None:
    ui.try_this(
        t("reasoning.try.do", k=curves.bar_steps),
        t(
            "reasoning.try.see",
            k=curves.bar_steps,
            direct=f"{curves.direct_at_bar:.0%}",
            cot=f"{curves.cot_at_bar:.0%}",
            chance=f"{svc.CHANCE:.0%}",
        ),
        t("reasoning.try.why", k=curves.bar_steps),
    )
else:
    ui.try_this(
        t("reasoning.try.do", k=svc.BAR_STEPS), t("reasoning.try.see_missing"), t("reasoning.try.why", k=svc.BAR_STEPS)
    )

# 1 · chain of thought, live: a problem, two models' answers to it, accuracy by number of operations
sections.cot_heading()
sections.problem_box()  # the shared input: the problem
sections.pickers()  # examples, a held-out problem's difficulty and number, another one
sections.chain_of_thought()  # `direct` against `cot` on the problem in the box
sections.accuracy_curve(curves, curves_error)  # held-out exact match by number of operations, the problem marked

# 2 · GRPO, live: a group sampled for the problem, its rewards and advantages, what training changed, and the run
# watched step by step (a step slider over grpo-run's record)
sections.grpo_heading()
sections.group_controls()  # the policy, the group's size, the seed
sections.group()
sections.training()
watch.section()  # the run recorded step by step: accuracy by k, length, a group at each step

# 3 · no value network, verifiable rewards, R1's pipeline
sections.why()
sections.paper_vs_here()
ui.explain(t("reasoning.explain", k=svc.BAR_STEPS))
