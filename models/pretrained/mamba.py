"""Mamba from a Hugging Face checkpoint (``MambaForCausalLM``, e.g. ``state-spaces/mamba-130m-hf``) into
models.mamba.

HF's mixer has our names (in_proj, conv1d, x_proj, dt_proj, A_log, D, out_proj) and our maths: the same gated
block, a causal depthwise convolution with bias, softplus(dt_proj(·)) for Δ, A = −exp(A_log). Its RMSNorms use
ε = 1e-5 (``norm_eps``), and the output projection is tied to the embedding as ours. Without ``use_conv_bias`` the
convolution's bias is zeros. HF keeps the residual stream in float32 (``residual_in_fp32``): in float32, as
converted, that changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors

ARCH = "mamba"
HF_ARCHITECTURES = ("MambaForCausalLM",)

# The mixer's tensors, the same names in HF's MambaMixer and ours (conv1d.bias apart: optional there).
_MIXER = (
    "in_proj.weight",
    "conv1d.weight",
    "x_proj.weight",
    "dt_proj.weight",
    "dt_proj.bias",
    "A_log",
    "D",
    "out_proj.weight",
)


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    """A Mamba config.json and its tensors -> (models.mamba Config fields, models.mamba state dict)."""
    if hf_config.get("hidden_act", "silu") != "silu":
        raise ValueError(f"mamba: activation {hf_config['hidden_act']!r} is not supported (only silu)")
    if hf_config.get("use_bias"):
        raise ValueError("mamba: biases on in_proj and out_proj (use_bias) are not supported")
    d, L = hf_config["hidden_size"], hf_config["num_hidden_layers"]
    d_in = hf_config.get("intermediate_size") or hf_config.get("expand", 2) * d
    if d_in % d:
        raise ValueError(f"mamba: intermediate_size {d_in} must be a multiple of hidden_size {d}")
    rank = hf_config.get("time_step_rank", "auto")
    t = Tensors(tensors, "backbone.", ARCH)
    config = {
        "vocab": t("embeddings.weight").shape[0],
        "d_model": d,
        "n_layers": L,
        "d_state": hf_config.get("state_size", 16),
        "expand": d_in // d,
        "d_conv": hf_config.get("conv_kernel", 4),
        "dt_rank": math.ceil(d / 16) if rank == "auto" else rank,
        "norm_eps": hf_config.get("layer_norm_epsilon", 1e-5),
    }
    state = {"embed.weight": t("embeddings.weight"), "norm_f.weight": t("norm_f.weight")}
    for i in range(L):
        state[f"layers.{i}.norm.weight"] = t(f"layers.{i}.norm.weight")
        for name in _MIXER:
            state[f"layers.{i}.mixer.{name}"] = t(f"layers.{i}.mixer.{name}")
        bias = t.get(f"layers.{i}.mixer.conv1d.bias")
        state[f"layers.{i}.mixer.conv1d.bias"] = bias if bias is not None else state["embed.weight"].new_zeros(d_in)
    t.check_tied("lm_head.weight", state["embed.weight"])
    t.check_all_read()
    return config, state
