"""Alignment: InstructGPT's three steps (2203.02155) — supervised fine-tuning, a reward model trained on preference
pairs, PPO against it with a KL penalty — and DPO (2305.18290), which trains on the same pairs without a reward
model or sampling. All on our own Shakespeare GPT, with a preference rule standing in for the labellers."""

import streamlit as st

from app.alignment import sections, watch
from app.alignment import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("alignment")
st.markdown(t("alignment.intro"))
ui.try_this(t("alignment.try.do"), t("alignment.try.see"), t("alignment.try.why"))
sections.rule()  # the preference rule that stands in for the labellers

asked = sections.prompt()  # the shared input: previous speaker, line, speaker
try:
    res = svc.replies(*asked, st.session_state.get("backend", "torch"))
except InputError as e:
    ui.input_error(e)
    st.stop()
st.code(res.prompt, language=None)

sections.three_steps(res, asked)  # 1 · base, SFT, PPO and DPO reply to the prompt
chosen, rejected = sections.reward_model(asked)  # 2 · the reward model on two typed replies
sections.dpo(asked, chosen, rejected)  # 3 · DPO's implicit rewards on the same pair
sections.ppo_record()  # 4 · PPO's recorded curves: the learned reward against the rule
watch.section()  # 5 · PPO and DPO recorded step by step: a run, a step slider, the replies at that step
sections.samples(asked)  # 6 · samples of every policy side by side
sections.llama2_chat()  # the same steps at scale, in rounds (2307.09288)
sections.paper_vs_here()
ui.explain(t("alignment.explain"))
