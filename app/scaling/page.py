"""Scaling laws (2001.08361, 2203.15556) fitted on our own sweep of small GPTs, the compute-optimal size for a budget
by our fit and by the published ones, and two ways of spreading training over devices, each backed by a real run
over gloo: Megatron-LM's tensor parallelism (1909.08053) and ZeRO's sharding (1910.02054)."""

import streamlit as st

from app.scaling import laws, parallelism
from app.scaling import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("scaling")
try:
    sweep, sweep_error = svc.sweep(), None
except InputError as e:
    sweep, sweep_error = None, e

runs = t("scaling.intro.runs", n=len(sweep.runs)) if sweep else t("scaling.intro.no_runs")
st.markdown(t("scaling.intro", runs=runs))
kaplan24, chin24 = svc.optimum("kaplan", 1e24), svc.optimum("chinchilla", 1e24)
ui.try_this(
    t("scaling.try.do"),
    t(
        "scaling.try.see",
        ratio=kaplan24.n / chin24.n,
        kaplan=kaplan24.tokens_per_param,
        chin=chin24.tokens_per_param,
        a=svc.PUBLISHED_A,
    ),
    t("scaling.try.why"),
)

# The laws: how loss falls with N and D, and what that says about spending a compute budget.
laws.runs(sweep, sweep_error)  # 1 · our sweep, Kaplan's and Chinchilla's fits, their exponents
laws.training()  # 1b · every run's training curve over compute and their envelope (Approach 1), a compute slider
laws.isoflops(sweep, sweep_error)  # 2 · IsoFLOP profiles (Chinchilla's Approach 2)
laws.budget(sweep)  # 3 · the compute-optimal size for a budget, by each law

# Spreading one model's training over devices.
parallelism.megatron()  # 4 · Megatron-LM: one layer split over t devices, checked by a gloo run
parallelism.zero()  # 5 · ZeRO: the bytes each device holds at each stage, checked by a gloo run
