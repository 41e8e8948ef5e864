"""Section 3 of the LLaMA page, on the probed model itself (ours or a real one): its query heads grouped by the
key/value head each reads (GQA), what each head of a chosen layer attends to, and how alike the heads that share
keys are. On SmolLM2 (9 query heads, 3 key/value heads) a sentence typed twice brings out induction heads: in layer
17 the three that copy read one key/value head.

The layer and head controls rerun the part that shows them, not the forward pass or the rest of the page."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.llama import service as svc
from app.llama import views
from app.shared import ui
from app.shared.heatmaps import attention_heatmap
from app.shared.i18n import t
from app.shared.tokens import visible

PART = "llama_part_heads"
CHOICE = "_llama_heads_choice"
CONTROLS = ("llama_layer", "llama_head")


def _repeat() -> None:
    """``on_click`` of the "one sentence twice" button: that text in the box (the page then runs on it)."""
    st.session_state["llama_text"] = svc.REPEATED_TEXT


def _score(x: float) -> str:
    return "–" if np.isnan(x) else f"{x:.2f}"


def shared_keys(a: svc.Analysis, text: str) -> None:
    """The model's query heads by key/value head, then one layer's heads: scores, overlap, one head's pattern."""
    s = svc.shape(a.name)
    h = svc.heads(text, a.name)
    per = s.n_heads // s.n_kv_heads
    st.markdown(f"**{t('llama.heads.title', name=svc.title(a.name))}**")
    st.caption(t("llama.heads.caption", H=s.n_heads, G=s.n_kv_heads, per=per, L=s.n_layers))
    kv_names = [f"KV{g}" for g in range(s.n_kv_heads)]
    head_names = [f"Q{q}→KV{g}" for q, g in enumerate(h.kv)]

    @st.fragment(key="llama_part_heads_controls")
    def controls_part() -> None:
        c_layer, c_head = st.columns([2, 3])
        ui.slider(
            c_layer, t("llama.heads.layer"), 0, s.n_layers - 1, svc.copying(a.name).layer,
            help=t("llama.heads.layer.help"), **ui.drives("llama_layer", CHOICE, [PART]),
        )  # fmt: skip
        ui.slider(
            c_head, t("llama.heads.head"), 0, s.n_heads - 1, 0, format="Q%d", help=t("llama.heads.head.help"),
            **ui.drives("llama_head", CHOICE, [PART]),
        )  # fmt: skip
        st.button(
            t("llama.heads.repeat"), key="llama_repeat", on_click=_repeat, icon=":material/repeat:",
            help=t("llama.heads.repeat.help"),
        )  # fmt: skip
        ui.note_controls(CHOICE, CONTROLS)

    controls_part()

    @st.fragment(key=PART)
    def heads_part() -> None:
        noted = st.session_state[CHOICE]
        layer = min(noted["llama_layer"], s.n_layers - 1)
        head = min(noted["llama_head"], s.n_heads - 1)
        g = int(h.kv[head])
        sharing = ", ".join(f"Q{q}" for q in range(s.n_heads) if h.kv[q] == g)
        row = ui.row()
        row.metric(t("llama.m.reads"), f"Q{head} → KV{g}", help=t("llama.m.reads.help", heads=sharing, per=per))
        row.metric(t("llama.m.previous"), _score(h.previous[layer, head]), help=t("llama.m.previous.help"))
        row.metric(t("llama.m.induction"), _score(h.induction[layer, head]), help=t("llama.m.induction.help"))
        row.metric(
            t("llama.m.overlap"),
            f"{_score(h.within[layer])} / {_score(h.across[layer])}",
            help=t("llama.m.overlap.help"),
        )
        if h.repeats == 0:
            st.caption(t("llama.heads.no_repeats"))
        left, right = st.columns(2)
        scores = {t("llama.heads.previous"): h.previous[layer], t("llama.heads.induction"): h.induction[layer]}
        with left:
            st.caption(t("llama.heads.scores", layer=layer))
            ui.figure(
                views.head_scores(
                    scores, h.kv, head, head_names=head_names, kv_names=kv_names, y_title=t("llama.heads.weight")
                ),
                {"head": head_names, **{k: v.tolist() for k, v in scores.items()}},
                f"llama-heads-l{layer}",
                key="llama_head_scores",
            )
        with right:
            st.caption(t("llama.heads.pattern", layer=layer, head=head, kv=g))
            labels = [visible(p) for p in a.pieces]
            ui.figure(
                attention_heatmap(
                    a.pattern[layer, head],
                    labels,
                    labels,
                    query_title=t("view.query"),
                    key_title=t("view.key"),
                    value_title=t("view.weight"),
                ),
                a.pattern[layer, head],
                f"llama-pattern-l{layer}-h{head}",
                key="llama_pattern",
                row_labels=labels,
                col_labels=labels,
            )

    heads_part()
