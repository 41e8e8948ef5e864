"""Two interventions on the trained MLA decoder, on held-out text: knock out a head, or a block's attention or MLP;
and keep only r of the d_c latent dimensions each layer caches (each of the rest set to its mean at the latent
probe), the bits per character against the bytes the cache then holds per token."""

from __future__ import annotations

import streamlit as st

from app.mla import service as svc
from app.shared import interventions, ui
from app.shared.formats import binary_size
from app.shared.i18n import InputError, t


@st.fragment
def knock_out(backend: str) -> None:
    st.subheader(t("mla.ko.title"))
    if not svc.available():
        ui.input_error(svc.MODEL.missing())
        return
    s = svc.shape()
    st.caption(t("mla.ko.caption", T=s.max_len))
    run = lambda k: svc.knock_out(k.layer, k.part, k.mode, k.head)  # noqa: E731
    interventions.held_out_knock_out("mla", s.n_layers, s.n_heads, run, backend, t("mla.ko.read"))


@st.fragment
def fewer_latents(backend: str) -> None:
    st.subheader(t("mla.fewer.title"))
    if not svc.available():
        ui.input_error(svc.MODEL.missing())
        return
    s = svc.shape()
    st.caption(t("mla.fewer.caption", K=s.kv_latent, R=s.rope_dim, T=s.max_len))
    options = svc.latent_options()
    kept = ui.choice(
        st.segmented_control,
        t("mla.fewer.kept"),
        options,
        key="mla_fewer_kept",
        default=s.kv_latent // 4,
        labels={r: str(r) for r in options},
        required=True,
        help=t("mla.fewer.kept.help", K=s.kv_latent),
    )
    try:
        f = svc.fewer_latents(int(kept))
    except InputError as e:
        ui.input_error(e)
        return
    full, now = svc.latent_bytes(s.kv_latent), svc.latent_bytes(f.kept)
    st.metric(
        t("mla.fewer.m.bytes"),
        binary_size(now),
        t("mla.fewer.m.saved", saved=binary_size(full - now), full=binary_size(full)),
        delta_color="off",
        delta_arrow="off",
        help=t("mla.fewer.m.bytes.help", L=s.n_layers, R=s.rope_dim),
    )
    label = t("mla.fewer.at", r=f.kept)
    interventions.held_out(f.held, label, f"mla-latent-{f.kept}", key="mla_fewer_loss")
    ui.figure(
        interventions.sweep_line(
            f.cache_bytes,
            f.bpc,
            f.options.index(f.kept),
            0,
            x_title=t("mla.fewer.x"),
            y_title=t("mla.fewer.y"),
            chosen_name=label,
            trained_name=t("mla.fewer.trained", K=s.kv_latent),
        ),
        {"kept": list(f.options), "cache_bytes_per_token": list(f.cache_bytes), "bpc": list(f.bpc)},
        "mla-latent-sweep",
        key="mla_fewer_sweep",
    )
    st.caption(t("mla.fewer.read", K=s.kv_latent))
    interventions.torch_only(backend)
    ui.readout(f.held)
