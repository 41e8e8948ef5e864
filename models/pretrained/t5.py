"""T5 from a Hugging Face checkpoint (``T5ForConditionalGeneration``, e.g. ``t5-small``; T5 v1.1 and Flan-T5 too)
into models.t5.

Two of T5's choices are folded into the weights, exactly: T5 does not divide q·k by √D (ours does), so W_q is
multiplied by √D; T5 v1.0 (``tie_word_embeddings``, ``scale_decoder_outputs``) multiplies the decoder's output by
C^-0.5 before the tied output matrix, so the final decoder norm's gain is multiplied by C^-0.5 (models/t5.py). The
position-bias tables are the first layer's of each stack (``relative_attention_bias``), shared by the others as
ours. T5 v1.1 and Flan-T5 map to ``gated``, ``activation="gelu_tanh"``, ``head_dim`` and ``tied=False``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors, activation, fresh

ARCH = "t5"
HF_ARCHITECTURES = ("T5ForConditionalGeneration",)


def _attention(t: Tensors, hf: str, ours: str, scale: float) -> dict[str, torch.Tensor]:
    """One attention's q, k, v, o; W_q times ``scale`` (√D: T5's scores have no 1/√D, ours do)."""
    state = {f"{ours}.wq.weight": fresh(t(f"{hf}.q.weight") * scale)}
    for h, o in (("k", "wk"), ("v", "wv"), ("o", "wo")):
        state[f"{ours}.{o}.weight"] = t(f"{hf}.{h}.weight")
    return state


def _feed_forward(t: Tensors, hf: str, ours: str, gated: bool) -> dict[str, torch.Tensor]:
    names = {"wi_0": "w1", "wi_1": "w3", "wo": "w2"} if gated else {"wi": "fc1", "wo": "fc2"}
    return {f"{ours}.{o}.weight": t(f"{hf}.{h}.weight") for h, o in names.items()}


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    """A T5 config.json and its tensors -> (models.t5 Config fields, models.t5 state dict)."""
    proj = hf_config.get("feed_forward_proj", "relu")
    parts = proj.split("-")
    gated = parts[0] == "gated"
    if len(parts) > 2 or (len(parts) == 2 and not gated):
        raise ValueError(f"t5: feed_forward_proj {proj!r} is not supported")
    act = activation("gelu_new" if proj == "gated-gelu" else parts[-1], ARCH)  # HF reads gated-gelu as gelu_new
    pad = hf_config.get("pad_token_id", 0)
    if hf_config.get("decoder_start_token_id", pad) != pad:
        raise ValueError("t5: a decoder start token other than the pad token is not supported")
    eos = hf_config.get("eos_token_id", 1)
    C, H, D = hf_config["d_model"], hf_config["num_heads"], hf_config["d_kv"]
    n_enc = hf_config["num_layers"]
    n_dec = hf_config.get("num_decoder_layers") or n_enc
    t = Tensors(tensors, "", ARCH)
    embed = t("shared.weight")
    head = t.get("lm_head.weight")
    tied = head is None or torch.equal(head, embed)
    scale_out = hf_config.get("scale_decoder_outputs", hf_config.get("tie_word_embeddings", True) is not False)
    config = {
        "vocab": embed.shape[0],
        "dim": C,
        "n_heads": H,
        "ffn_dim": hf_config["d_ff"],
        "n_enc_layers": n_enc,
        "n_dec_layers": n_dec,
        "num_buckets": hf_config.get("relative_attention_num_buckets", 32),
        "max_distance": hf_config.get("relative_attention_max_distance", 128),
        "pad_id": pad,
        "eos_id": eos[0] if isinstance(eos, list) else eos,
        "head_dim": 0 if H * D == C else D,
        "activation": act,
        "gated": gated,
        "tied": tied,
        "norm_eps": hf_config.get("layer_norm_epsilon", 1e-6),
    }
    q_scale = math.sqrt(D)
    state = {"embed.weight": embed}
    if not tied:
        state["lm_head.weight"] = head
    for i in range(n_enc):
        hf, ours = f"encoder.block.{i}.layer", f"encoder.layers.{i}"
        state |= _attention(t, f"{hf}.0.SelfAttention", f"{ours}.self_attn", q_scale)
        state |= _feed_forward(t, f"{hf}.1.DenseReluDense", f"{ours}.ffn", gated)
        state[f"{ours}.norm1.weight"] = t(f"{hf}.0.layer_norm.weight")
        state[f"{ours}.norm2.weight"] = t(f"{hf}.1.layer_norm.weight")
    for i in range(n_dec):
        hf, ours = f"decoder.block.{i}.layer", f"decoder.layers.{i}"
        state |= _attention(t, f"{hf}.0.SelfAttention", f"{ours}.self_attn", q_scale)
        state |= _attention(t, f"{hf}.1.EncDecAttention", f"{ours}.cross_attn", q_scale)
        state |= _feed_forward(t, f"{hf}.2.DenseReluDense", f"{ours}.ffn", gated)
        for j in range(3):
            state[f"{ours}.norm{j + 1}.weight"] = t(f"{hf}.{j}.layer_norm.weight")
    for stack in ("encoder", "decoder"):
        state[f"{stack}.relative.embedding.weight"] = t(
            f"{stack}.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
        )
    state["encoder.norm.weight"] = t("encoder.final_layer_norm.weight")
    gain = t("decoder.final_layer_norm.weight")
    state["decoder.norm.weight"] = fresh(gain * C**-0.5) if scale_out else gain  # logits linear in the gain
    for stack in ("encoder", "decoder"):
        t.check_tied(f"{stack}.embed_tokens.weight", embed)
    # Older checkpoints hold a cross-attention position table that T5 never uses (HF skips it too).
    t.check_all_read(ignored=r"decoder\.block\.0\.layer\.1\.EncDecAttention\.relative_attention_bias\.weight")
    return config, state
