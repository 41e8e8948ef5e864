"""GPT-2 from a Hugging Face checkpoint (``GPT2LMHeadModel``, e.g. ``gpt2``) into models.gpt.

HF's GPT-2 stores its linear layers as ``Conv1D``: weights (in, out), y = x W + b, the transpose of ``nn.Linear``'s,
with q, k and v fused in one ``c_attn`` of width 3C. Its GELU is the tanh approximation (``gelu_new``), hence
``activation="gelu_tanh"``. Scores are q·kᵀ/√D as ours; the options ``scale_attn_weights=False`` (no 1/√D) and
``scale_attn_by_inverse_layer_idx`` (a further 1/(i+1) in layer i) are folded into W_q and b_q, so that ours,
(c·q)·kᵀ/√D, computes the same scores.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors, activation, fresh

ARCH = "gpt"
HF_ARCHITECTURES = ("GPT2LMHeadModel",)


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    """A GPT-2 config.json and its tensors -> (models.gpt Config fields, models.gpt state dict)."""
    if hf_config.get("add_cross_attention"):
        raise ValueError("gpt: cross-attention (GPT-2 as a decoder of an encoder-decoder) is not supported")
    if hf_config.get("tie_word_embeddings", True) is False:
        raise ValueError("gpt: an output projection untied from the token embedding is not supported")
    C, H, L = hf_config["n_embd"], hf_config["n_head"], hf_config["n_layer"]
    hidden = hf_config.get("n_inner") or 4 * C
    if C % H or hidden % C:
        raise ValueError(f"gpt: n_embd {C} must divide into n_head {H}, and n_inner {hidden} into multiples of it")
    t = Tensors(tensors, "transformer.", ARCH)
    config = {
        "vocab": t("wte.weight").shape[0],
        "dim": C,
        "n_heads": H,
        "n_layers": L,
        "max_len": t("wpe.weight").shape[0],
        "mlp_ratio": hidden // C,
        "activation": activation(hf_config.get("activation_function", "gelu_new"), ARCH),
        "norm_eps": hf_config.get("layer_norm_epsilon", 1e-5),
    }
    state = {"embed.weight": t("wte.weight"), "pos.weight": t("wpe.weight")}
    for i in range(L):
        h, ours = f"h.{i}.", f"blocks.{i}."
        # Ours divides the scores by √D; fold whatever HF does instead into the query's weight and bias.
        q_scale = 1.0 if hf_config.get("scale_attn_weights", True) else math.sqrt(C // H)
        if hf_config.get("scale_attn_by_inverse_layer_idx"):
            q_scale /= i + 1
        w = t(h + "attn.c_attn.weight").T  # Conv1D (C, 3C) -> Linear (3C, C): rows q, then k, then v
        b = t(h + "attn.c_attn.bias")
        for j, (name, scale) in enumerate((("wq", q_scale), ("wk", 1.0), ("wv", 1.0))):
            rows = slice(j * C, (j + 1) * C)
            state[ours + f"attn.{name}.weight"] = fresh(w[rows] * scale)  # × 1.0 is exact
            state[ours + f"attn.{name}.bias"] = fresh(b[rows] * scale)
        for hf, our in (("attn.c_proj", "attn.wo"), ("mlp.c_fc", "mlp.fc1"), ("mlp.c_proj", "mlp.fc2")):
            state[ours + our + ".weight"] = fresh(t(h + hf + ".weight").T)
            state[ours + our + ".bias"] = t(h + hf + ".bias")
        for hf, our in (("ln_1", "ln1"), ("ln_2", "ln2")):
            state[ours + our + ".weight"] = t(h + hf + ".weight")
            state[ours + our + ".bias"] = t(h + hf + ".bias")
    state["ln_f.weight"], state["ln_f.bias"] = t("ln_f.weight"), t("ln_f.bias")
    t.check_tied("lm_head.weight", state["embed.weight"])
    # Older checkpoints also hold each layer's causal mask as a buffer (attn.bias, attn.masked_bias): not weights.
    t.check_all_read(ignored=r"h\.\d+\.attn\.(bias|masked_bias)")
    return config, state
