"""Sections 4 and 5 of the LLaMA page: the published configurations (LLaMA, Llama 2, Llama 3, Qwen2.5) with their
parameter counts and KV caches as ``models.llama`` counts them, a calculator seeded from any of them, and where
Qwen2.5 departs from LLaMA."""

from __future__ import annotations

import streamlit as st

from app.llama import service as svc
from app.shared import ui
from app.shared.formats import binary_size, kib, millions_or_billions
from app.shared.i18n import InputError, t

COLUMNS = ("model", "L", "C", "H", "G", "F", "F_ratio", "V", "ctx", "other", "params", "pub", "diff", "kv", "kv_ctx")
# The columns in three tabs of a few each, so that every table fits a phone's width (390 px) without being cut.
TABS = {
    "shape": ("model", "L", "C", "H", "G", "F", "F_ratio", "V"),
    "params": ("model", "other", "params", "pub", "diff"),
    "kv": ("model", "ctx", "kv", "kv_ctx"),
}
INTEGERS = (("L", "n_layers"), ("C", "dim"), ("H", "n_heads"), ("G", "n_kv_heads"), ("F", "hidden"))
FIELDS = ("n_layers", "dim", "n_heads", "n_kv_heads", "hidden", "vocab", "context")  # the calculator's numbers


def configurations() -> None:
    """4 · The real configurations: one row per published model, our count beside the published one."""
    st.subheader(t("llama.configs.title"))
    st.markdown(t("llama.configs.caption"))
    table: dict[str, list[str]] = {k: [] for k in COLUMNS}
    for r in svc.published():
        c = svc.calculate(**r.config)
        table["model"].append(r.name)
        for key, field in INTEGERS:
            table[key].append(f"{r.config[field]:,}")
        table["F_ratio"].append(f"{c.ffn_ratio:.2f}")
        table["V"].append(f"{r.config['vocab']:,}")
        table["ctx"].append(f"{r.config['context']:,}")
        table["other"].append(", ".join(t(f"llama.col.{k}") for k in ("tied", "qkv_bias") if r.config[k]))
        table["params"].append(millions_or_billions(c.params))
        note = (
            "" if not r.label else t("llama.label_is") if r.label == r.published_as else t("llama.label", label=r.label)
        )
        table["pub"].append(r.published_as + note)
        table["diff"].append(f"{c.params / r.published - 1:+.1%}")
        table["kv"].append(binary_size(c.kv_per_token))
        table["kv_ctx"].append(binary_size(c.kv_context))
    for tab, columns in zip(st.tabs([t(f"llama.configs.tab.{k}") for k in TABS]), TABS.values()):
        with tab:
            ui.table({t(f"llama.col.{k}"): table[k] for k in columns})
    st.caption(t("llama.configs.note"))


def _load_preset() -> None:
    """``on_change`` of the preset picker: copy its configuration into the calculator's inputs."""
    for field, value in svc.preset(st.session_state["llama_preset"]).config.items():
        st.session_state[f"llama_calc_{field}"] = value


def calculator() -> None:
    """Parameters and KV cache of any LLaMA-family configuration, starting from a published one."""
    st.markdown(f"**{t('llama.calc.title')}**")
    names = [r.name for r in svc.published()]
    preset = ui.choice(
        st.selectbox,
        t("llama.calc.preset"),
        names,
        key="llama_preset",
        labels={name: name for name in names},
        default=svc.DEFAULT_PRESET,
        on_change=_load_preset,
    )
    base = svc.preset(svc.DEFAULT_PRESET).config
    values = {}
    for col, field in zip(st.columns(len(FIELDS)), FIELDS):
        lo, hi = svc.LIMITS[field]
        values[field] = int(
            col.number_input(
                t(f"llama.calc.{field}"), lo, hi, base[field], step=1, key=f"llama_calc_{field}", bind="query-params"
            )
        )
    c_t, c_b, c_bytes = st.columns(3)
    values["tied"] = c_t.toggle(t("llama.calc.tied"), base["tied"], key="llama_calc_tied", bind="query-params")
    values["qkv_bias"] = c_b.toggle(
        t("llama.calc.qkv_bias"), base["qkv_bias"], key="llama_calc_qkv_bias", bind="query-params"
    )
    nbytes = ui.choice(
        c_bytes.segmented_control,
        t("llama.calc.bytes"),
        svc.BYTES,
        key="llama_calc_bytes",
        labels={1: t("llama.bytes.1"), 2: t("llama.bytes.2"), 4: t("llama.bytes.4")},
        default=2,
        required=True,
    )
    try:
        calc = svc.calculate(**values, bytes_per_value=nbytes)
    except InputError as e:
        ui.input_error(e)
        return
    row = svc.preset(preset)
    same = all(values[k] == v for k, v in row.config.items())
    metric_row = ui.row()
    metric_row.metric(
        t("llama.m.params"),
        millions_or_billions(calc.params),
        f"{calc.params / row.published - 1:+.1%} {t('llama.vs_published', published=row.published_as)}"
        if same
        else None,
        delta_color="off",
        delta_arrow="off",
        help=t("llama.m.params.help", embedding=millions_or_billions(calc.embedding)),
    )
    metric_row.metric(
        t("llama.m.kv_per_token"), kib(calc.kv_per_token), help=t("llama.m.kv_per_token.help", D=calc.head_dim)
    )
    metric_row.metric(t("llama.m.kv_context"), binary_size(calc.kv_context), help=t("llama.m.kv_context.help"))
    metric_row.metric(t("llama.m.ffn_ratio"), f"{calc.ffn_ratio:.2f}", help=t("llama.m.ffn_ratio.help"))
    if same:
        st.caption(t("llama.calc.source", source=row.source))
    else:
        st.caption(t("llama.calc.custom", name=row.name))


def qwen() -> None:
    """5 · Where Qwen2.5 departs: biases on q, k and v, YaRN, and the tied embedding's share of a small model."""
    st.subheader(t("llama.qwen.title"))
    c = svc.calculate(**svc.preset(svc.SMALL_QWEN).config)
    st.markdown(t("llama.qwen.bias", n=c.qkv_bias_per_layer))
    st.markdown(t("llama.qwen.yarn"))
    st.markdown(
        t(
            "llama.qwen.tied",
            emb=millions_or_billions(c.embedding),
            total=millions_or_billions(c.params),
            share=c.embedding / c.params,
        )
    )
