"""DeepSeek-V3's published sizes, and what each of its choices saved."""

import streamlit as st

from app.mla import service as svc
from app.shared import ui
from app.shared.i18n import t


def published_sizes() -> None:
    st.header(t("mla.sizes.title"))
    p = svc.PUBLISHED
    c, params = p["config"], p["params"]
    s1, s2, s3, s4 = st.columns(4)
    s1.metric(t("mla.m.total"), f"{params['total'] / 1e9:.0f}B")
    s2.metric(t("mla.m.active"), f"{params['active'] / 1e9:.0f}B", help=t("mla.m.active.help"))
    s3.metric(t("mla.m.layers"), f"{c['n_layers']}", help=t("mla.m.layers.help", dense=c["dense_layers"]))
    s4.metric(
        t("mla.m.experts"),
        f"{c['routed_experts']} + {c['shared_experts']}",
        help=t("mla.m.experts.help", k=c["active_experts"], nodes=c["max_nodes"]),
    )
    pub = {x.kind: x for x in svc.published_caches()}
    b = p["balance"]["ablation_pile_bpb"]
    rows = [
        ("mla.saved.mla", {"share": pub["MLA"].numbers / pub["MHA"].numbers, "v2": p["v2"]["kv_cache_reduction"]}),
        ("mla.saved.moe", {"share": params["active"] / params["total"], "k": c["active_experts"]}),
        (
            "mla.saved.balance",
            {
                "small_aux": b["small"]["aux_loss"],
                "small_free": b["small"]["aux_free"],
                "large_aux": b["large"]["aux_loss"],
                "large_free": b["large"]["aux_free"],
                "alpha": p["balance"]["sequence_alpha"],
            },
        ),
        (
            "mla.saved.mtp",
            {
                "low": p["mtp"]["acceptance_low"],
                "high": p["mtp"]["acceptance_high"],
                "tps": p["mtp"]["tps_speedup"],
                "extra": params["mtp_module"] / 1e9,
            },
        ),
    ]
    ui.table(
        {
            t("mla.col.part"): [t(f"{k}.part") for k, _ in rows],
            t("mla.col.what"): [t(f"{k}.what", **f) for k, f in rows],
            t("mla.col.saved"): [t(f"{k}.saved", **f) for k, f in rows],
        }
    )
    st.caption(t("mla.sizes.note", tokens=p["training"]["tokens"] / 1e12, hours=p["training"]["gpu_hours"] / 1e6))
