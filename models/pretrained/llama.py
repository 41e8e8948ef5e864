"""Llama-family checkpoints (SmolLM2, Qwen2.5, TinyLlama) into models/llama.py.

Hugging Face's ``LlamaForCausalLM`` / ``Qwen2ForCausalLM`` rotate each head's (i, i + D/2) pairs ("rotate_half");
ours rotates (2i, 2i + 1), as RoFormer (2104.09864) and Meta's original LLaMA code write it. The two are the same
model once the rows of W_q and W_k (and their biases) are reordered within each head:

    ours[2i + j] = theirs[j · D/2 + i]      i < D/2, j ∈ {0, 1}

q·k is unchanged by reordering both q and k the same way, so attention patterns, outputs and logits are equal.
Names: embed_tokens → embed, input_layernorm → attn_norm, post_attention_layernorm → ffn_norm, q/k/v/o_proj →
attn.wq/wk/wv/wo, gate/up/down_proj → mlp.w1/w3/w2, norm → norm, lm_head → head (untied only).
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

ARCH = "llama"
HF_ARCHITECTURES = ("LlamaForCausalLM", "Qwen2ForCausalLM")


def rope_theta(hf_config: dict) -> float:
    """RoPE's base from a HF config (``rope_parameters`` in transformers 5, ``rope_theta`` before); a scaled RoPE
    (Llama 3's, YaRN, ...) is refused: our forward does its own scaling, on request only."""
    params = hf_config.get("rope_parameters") or {}
    scaling = hf_config.get("rope_scaling") or {}
    kind = params.get("rope_type") or scaling.get("rope_type") or scaling.get("type") or "default"
    if kind != "default":
        raise ValueError(f"RoPE scaling {kind!r} is not one our LLaMA reads from a checkpoint")
    return float(params.get("rope_theta", hf_config.get("rope_theta", 10000.0)))


def config_from_hf(hf_config: dict) -> dict:
    dim, heads = hf_config["hidden_size"], hf_config["num_attention_heads"]
    head_dim = hf_config.get("head_dim") or dim // heads
    if head_dim * heads != dim:
        raise ValueError(f"head width {head_dim} × {heads} heads ≠ width {dim}: our attention splits the width")
    if hf_config.get("hidden_act", "silu") != "silu":
        raise ValueError(f"activation {hf_config['hidden_act']!r}: LLaMA's SwiGLU gates with SiLU")
    if hf_config.get("use_sliding_window"):
        raise ValueError("a sliding window: models/mistral.py is that architecture")
    if hf_config.get("attention_bias") or hf_config.get("mlp_bias"):
        raise ValueError("biases on every projection: our LLaMA has them on q, k and v only (Qwen2.5)")
    return {
        "vocab": hf_config["vocab_size"],
        "dim": dim,
        "n_heads": heads,
        "n_kv_heads": hf_config.get("num_key_value_heads") or heads,
        "n_layers": hf_config["num_hidden_layers"],
        "hidden": hf_config["intermediate_size"],
        "max_len": hf_config.get("max_position_embeddings", 2048),
        "rope_base": rope_theta(hf_config),
        "norm_eps": float(hf_config.get("rms_norm_eps", 1e-6)),
        "tied": bool(hf_config.get("tie_word_embeddings", False)),
        "qkv_bias": hf_config.get("model_type") == "qwen2"
        or "Qwen2ForCausalLM" in (hf_config.get("architectures") or ()),
    }


def halves_to_pairs(w: torch.Tensor, n_heads: int) -> torch.Tensor:
    """Rows of a q or k projection (or its bias), head by head, from rotate-half order to adjacent pairs."""
    rows = w.shape[0]
    D = rows // n_heads
    return w.reshape(n_heads, 2, D // 2, *w.shape[1:]).transpose(1, 2).reshape(rows, *w.shape[1:])


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    config = config_from_hf(hf_config)
    t = {name.removeprefix("model."): value for name, value in tensors.items()}
    H, G = config["n_heads"], config["n_kv_heads"]
    state = {"embed.weight": t["embed_tokens.weight"], "norm.weight": t["norm.weight"]}
    if not config["tied"]:
        state["head.weight"] = t.get("lm_head.weight", t["embed_tokens.weight"])
    for i in range(config["n_layers"]):
        p, o = f"layers.{i}.", f"blocks.{i}."
        state[o + "attn_norm.weight"] = t[p + "input_layernorm.weight"]
        state[o + "ffn_norm.weight"] = t[p + "post_attention_layernorm.weight"]
        for ours, theirs, heads in (
            ("wq", "q_proj", H),
            ("wk", "k_proj", G),
            ("wv", "v_proj", None),
            ("wo", "o_proj", None),
        ):
            for kind in ("weight", "bias") if config["qkv_bias"] and ours != "wo" else ("weight",):
                w = t[f"{p}self_attn.{theirs}.{kind}"]
                state[f"{o}attn.{ours}.{kind}"] = halves_to_pairs(w, heads) if heads else w
        for ours, theirs in (("w1", "gate_proj"), ("w3", "up_proj"), ("w2", "down_proj")):
            state[f"{o}mlp.{ours}.weight"] = t[f"{p}mlp.{theirs}.weight"]
    return config, state
