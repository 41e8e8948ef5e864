"""Granite MoE checkpoints (IBM granite-3.0-1b-a400m, granite-3.0-3b-a800m) into models/granite.py.

As models/pretrained/llama.py: Hugging Face rotates each head's (i, i + D/2) pairs, ours (2i, 2i + 1), so the rows of
W_q and W_k are reordered within each head. The experts come as two stacked tensors per layer, split here into E
SwiGLU experts of ours:

    gate_up (E, 2F, C): rows 0..F−1 the gate W₁ₑ, rows F..2F−1 the up projection W₃ₑ ;  down (E, C, F): W₂ₑ

Tensor names, in either of two spellings: the Hub's files (and what ``save_pretrained`` of transformers 5 writes
back, through its conversion mapping) say ``block_sparse_moe.input_linear.weight`` (gate_up),
``block_sparse_moe.output_linear.weight`` (down) and ``block_sparse_moe.router.layer.weight``; a model's
``state_dict()`` in memory says ``block_sparse_moe.experts.gate_up_proj``, ``.experts.down_proj`` and
``.router.weight``. Others: embed_tokens → embed, input_layernorm → attn_norm, post_attention_layernorm → ffn_norm,
q/k/v/o_proj → attn.wq/wk/wv/wo, norm → norm, lm_head → head (untied only).

Refused by name: shared experts (``GraniteMoeSharedForCausalLM``), Granite 4's hybrid layers, biases, an activation
other than SiLU, scaled RoPE, a sliding window.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors, fresh
from models.pretrained.llama import halves_to_pairs, rope_theta

ARCH = "granite"
HF_ARCHITECTURES = ("GraniteMoeForCausalLM",)
# (Hub / saved name, in-memory name) of each layer's MoE tensors
GATE_UP = ("block_sparse_moe.input_linear.weight", "block_sparse_moe.experts.gate_up_proj")
DOWN = ("block_sparse_moe.output_linear.weight", "block_sparse_moe.experts.down_proj")
ROUTER = ("block_sparse_moe.router.layer.weight", "block_sparse_moe.router.weight")


def config_from_hf(hf_config: dict) -> dict:
    architectures = set(hf_config.get("architectures") or ())
    if hf_config.get("shared_intermediate_size") or "GraniteMoeSharedForCausalLM" in architectures:
        raise ValueError("shared experts (GraniteMoeShared): models/granite.py routes every token to experts only")
    if hf_config.get("model_type", "granitemoe") != "granitemoe" or architectures - set(HF_ARCHITECTURES):
        kind = ", ".join(sorted(architectures)) or hf_config.get("model_type")
        raise ValueError(f"{kind}: not the Granite MoE decoder (GraniteMoeForCausalLM)")
    if hf_config.get("layer_types") or hf_config.get("sliding_window"):
        raise ValueError("per-layer kinds or a sliding window: models/granite.py attends causally in every layer")
    if hf_config.get("attention_bias") or hf_config.get("mlp_bias"):
        raise ValueError("biases on the projections: Granite MoE has none")
    if hf_config.get("hidden_act", "silu") != "silu":
        raise ValueError(f"activation {hf_config['hidden_act']!r}: Granite's experts gate with SiLU")
    dim, heads = hf_config["hidden_size"], hf_config["num_attention_heads"]
    if (hf_config.get("head_dim") or dim // heads) * heads != dim:
        raise ValueError(f"head width × {heads} heads ≠ width {dim}: our attention splits the width")
    k, E = hf_config.get("num_experts_per_tok", 2), hf_config.get("num_local_experts", 8)
    if not 1 <= k <= E:
        raise ValueError(f"{k} experts per token of {E}")
    return {
        "vocab": hf_config["vocab_size"],
        "dim": dim,
        "n_heads": heads,
        "n_kv_heads": hf_config.get("num_key_value_heads") or heads,
        "n_layers": hf_config["num_hidden_layers"],
        "hidden": hf_config["intermediate_size"],
        "n_experts": E,
        "top_k": k,
        "max_len": hf_config.get("max_position_embeddings", 2048),
        "rope_base": rope_theta(hf_config),  # refuses a scaled RoPE
        "norm_eps": float(hf_config.get("rms_norm_eps", 1e-6)),
        "embedding_multiplier": float(hf_config.get("embedding_multiplier", 1.0)),
        "attention_multiplier": float(hf_config.get("attention_multiplier", 1.0)),
        "residual_multiplier": float(hf_config.get("residual_multiplier", 1.0)),
        "logits_scaling": float(hf_config.get("logits_scaling", 1.0)),
        "tied": bool(hf_config.get("tie_word_embeddings", False)),
    }


def _either(t: Tensors, prefix: str, names: tuple[str, str]) -> torch.Tensor:
    """The tensor under the Hub's name or the in-memory one."""
    for name in names:
        if prefix + name in t:
            return t(prefix + name)
    raise ValueError(f"granite: the checkpoint has neither {prefix + names[0]!r} nor {prefix + names[1]!r}")


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    config = config_from_hf(hf_config)
    t = Tensors(tensors, "model.", "granite")
    H, G, E, F, C = config["n_heads"], config["n_kv_heads"], config["n_experts"], config["hidden"], config["dim"]
    state = {"embed.weight": t("embed_tokens.weight"), "norm.weight": t("norm.weight")}
    if not config["tied"]:
        state["head.weight"] = t("lm_head.weight")
    for i in range(config["n_layers"]):
        p, o = f"layers.{i}.", f"blocks.{i}."
        state[o + "attn_norm.weight"] = t(p + "input_layernorm.weight")
        state[o + "ffn_norm.weight"] = t(p + "post_attention_layernorm.weight")
        for ours, theirs, heads in (("wq", "q_proj", H), ("wk", "k_proj", G), ("wv", "v_proj", 0), ("wo", "o_proj", 0)):
            w = t(f"{p}self_attn.{theirs}.weight")
            state[f"{o}attn.{ours}.weight"] = halves_to_pairs(w, heads) if heads else w
        gate_up, down, router = _either(t, p, GATE_UP), _either(t, p, DOWN), _either(t, p, ROUTER)
        for what, got, want in (
            ("gate_up", gate_up, (E, 2 * F, C)),
            ("down", down, (E, C, F)),
            ("router", router, (E, C)),
        ):
            if tuple(got.shape) != want:
                raise ValueError(f"granite: layer {i}'s {what} is {tuple(got.shape)}, the config implies {want}")
        state[o + "moe.router.weight"] = router
        for e in range(E):
            x = f"{o}moe.experts.{e}."
            state[x + "w1.weight"] = fresh(gate_up[e, :F])
            state[x + "w3.weight"] = fresh(gate_up[e, F:])
            state[x + "w2.weight"] = fresh(down[e])
    # a tied output matrix may be saved beside the embedding (a state_dict's copy): it must equal it
    t.check_all_read(r"lm_head\.weight" if config["tied"] else r"$^")
    if config["tied"] and "lm_head.weight" in t and t.tensors["lm_head.weight"].device.type != "meta":
        t.check_tied("lm_head.weight", state["embed.weight"])
    return config, state
