"""Gemma 3 text checkpoints (Gemma 3 270M) into models/gemma.py.

As models/pretrained/llama.py: Hugging Face rotates each head's (i, i + D/2) pairs, ours (2i, 2i + 1), so the rows
of W_q and W_k are reordered within each head; QK-norm's weights (width D, applied before the rotation) are reordered
alike, which leaves the norm itself unchanged (a mean over the same numbers). Gemma's RMSNorm scales by (1 + g):
ours stores 1 + g. Names: embed_tokens → embed; input_layernorm → attn_norm, post_attention_layernorm →
attn_post_norm, pre_feedforward_layernorm → ffn_norm, post_feedforward_layernorm → ffn_post_norm; q/k/v/o_proj →
attn.wq/wk/wv/wo, q_norm/k_norm → attn.q_norm/k_norm; gate/up/down_proj → mlp.w1/w3/w2; norm → norm.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from models.pretrained.llama import halves_to_pairs

ARCH = "gemma"
HF_ARCHITECTURES = ("Gemma3ForCausalLM",)
LOCAL, GLOBAL = "sliding_attention", "full_attention"


def _rope_base(hf_config: dict, kind: str, old_key: str, default: float) -> float:
    params = (hf_config.get("rope_parameters") or {}).get(kind) or {}
    if params.get("rope_type", "default") != "default" or (kind == GLOBAL and hf_config.get("rope_scaling")):
        raise ValueError(f"scaled RoPE on the {kind} layers: ours rotates by plain RoPE")
    return float(params.get("rope_theta", hf_config.get(old_key, default)))


def config_from_hf(hf_config: dict) -> dict:
    for cap in ("final_logit_softcapping", "attn_logit_softcapping"):
        if hf_config.get(cap) is not None:
            raise ValueError(f"{cap} = {hf_config[cap]}: Gemma 2's soft-capping, which models/gemma.py leaves out")
    if hf_config.get("hidden_activation", "gelu_pytorch_tanh") != "gelu_pytorch_tanh":
        raise ValueError(f"activation {hf_config['hidden_activation']!r}: Gemma's GeGLU gates with tanh-GELU")
    if hf_config.get("attention_bias") or hf_config.get("use_bidirectional_attention"):
        raise ValueError("attention biases or bidirectional attention: not Gemma 3's decoder")
    if not hf_config.get("tie_word_embeddings", True):
        raise ValueError("an output matrix of its own: Gemma ties it to the embedding")
    layers = hf_config["num_hidden_layers"]
    types = hf_config.get("layer_types") or [
        LOCAL if (i + 1) % hf_config.get("sliding_window_pattern", 6) else GLOBAL for i in range(layers)
    ]
    if set(types) - {LOCAL, GLOBAL}:
        raise ValueError(f"layer types {sorted(set(types) - {LOCAL, GLOBAL})}: ours are local or global")
    heads = hf_config["num_attention_heads"]
    return {
        "vocab": hf_config["vocab_size"],
        "dim": hf_config["hidden_size"],
        "n_heads": heads,
        "n_kv_heads": hf_config.get("num_key_value_heads") or heads,
        "head_dim": hf_config.get("head_dim") or hf_config["hidden_size"] // heads,
        "n_layers": layers,
        "hidden": hf_config["intermediate_size"],
        "max_len": hf_config.get("max_position_embeddings", 32768),
        "window": hf_config["sliding_window"],
        "local": [kind == LOCAL for kind in types],
        "rope_base": _rope_base(hf_config, GLOBAL, "rope_theta", 1_000_000.0),
        "rope_local_base": _rope_base(hf_config, LOCAL, "rope_local_base_freq", 10_000.0),
        "query_scale": float(hf_config.get("query_pre_attn_scalar", 256)),
        "norm_eps": float(hf_config.get("rms_norm_eps", 1e-6)),
    }


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    config = config_from_hf(hf_config)
    t = {name.removeprefix("model.").removeprefix("language_model."): value for name, value in tensors.items()}
    H, G = config["n_heads"], config["n_kv_heads"]

    def gemma_norm(name: str) -> torch.Tensor:  # (1 + g): ours multiplies by the stored weight
        return 1.0 + t[name].float()

    state = {"embed.weight": t["embed_tokens.weight"], "norm.weight": gemma_norm("norm.weight")}
    for i in range(config["n_layers"]):
        p, o = f"layers.{i}.", f"blocks.{i}."
        for ours, theirs in (
            ("attn_norm", "input_layernorm"),
            ("attn_post_norm", "post_attention_layernorm"),
            ("ffn_norm", "pre_feedforward_layernorm"),
            ("ffn_post_norm", "post_feedforward_layernorm"),
        ):
            state[f"{o}{ours}.weight"] = gemma_norm(f"{p}{theirs}.weight")
        for ours, theirs, heads in (("wq", "q_proj", H), ("wk", "k_proj", G), ("wv", "v_proj", 0), ("wo", "o_proj", 0)):
            w = t[f"{p}self_attn.{theirs}.weight"]
            state[f"{o}attn.{ours}.weight"] = halves_to_pairs(w, heads) if heads else w
        for which in ("q_norm", "k_norm"):
            state[f"{o}attn.{which}.weight"] = halves_to_pairs(gemma_norm(f"{p}self_attn.{which}.weight"), 1)
        for ours, theirs in (("w1", "gate_proj"), ("w3", "up_proj"), ("w2", "down_proj")):
            state[f"{o}mlp.{ours}.weight"] = t[f"{p}mlp.{theirs}.weight"]
    return config, state
