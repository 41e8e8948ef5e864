"""BERT from a Hugging Face checkpoint (``BertForMaskedLM``, e.g. ``bert-base-uncased``; ``BertForPreTraining``
with its NSP head) into models.bert.

Google's BERT is ours with ``norm="post"``: the same three summed embeddings and their LayerNorm, post-LN blocks, the
MLM head's transform (dense, activation, LayerNorm) before the decoder tied to the word embeddings plus a bias, the
pooler (tanh) and NSP classifier on [CLS]. Its LayerNorms use ε = 1e-12 (``norm_eps``). A checkpoint without the
pooler or the NSP classifier gets zeros there. Padding: transformers masks what its ``attention_mask`` says, ours
the keys holding ``pad_token_id``, the same for a tokenizer's padded batch.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors, activation

ARCH = "bert"
HF_ARCHITECTURES = ("BertForMaskedLM", "BertForPreTraining")
OUTPUTS = ("mlm_logits", "nsp_logits")  # models.bert.BERT.forward's two outputs, named as our checkpoint names them

_LAYER = {  # HF's names inside encoder.layer.{i} -> ours inside blocks.{i} (post-LN: ln1 after attention)
    "attention.self.query": "attn.wq",
    "attention.self.key": "attn.wk",
    "attention.self.value": "attn.wv",
    "attention.output.dense": "attn.wo",
    "attention.output.LayerNorm": "ln1",
    "intermediate.dense": "mlp.fc1",
    "output.dense": "mlp.fc2",
    "output.LayerNorm": "ln2",
}


def _renamed(name: str) -> str:
    """TensorFlow-era names (``bert-base-uncased`` keeps them): LayerNorm.gamma / .beta are .weight / .bias."""
    if name.endswith("LayerNorm.gamma"):
        return name.removesuffix("gamma") + "weight"
    return name.removesuffix("beta") + "bias" if name.endswith("LayerNorm.beta") else name


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    """A BERT config.json and its tensors -> (models.bert Config fields, models.bert state dict)."""
    if hf_config.get("is_decoder") or hf_config.get("add_cross_attention"):
        raise ValueError("bert: BERT as a decoder (causal, cross-attention) is not supported")
    if hf_config.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError(f"bert: position_embedding_type {hf_config['position_embedding_type']!r} is not supported")
    C, H, L = hf_config["hidden_size"], hf_config["num_attention_heads"], hf_config["num_hidden_layers"]
    hidden = hf_config["intermediate_size"]
    if C % H or hidden % C:
        raise ValueError(f"bert: hidden_size {C} must divide into {H} heads, and intermediate_size {hidden} by it")
    t = Tensors({_renamed(k): v for k, v in tensors.items()}, "bert.", ARCH)
    if "cls.predictions.transform.dense.weight" not in t:
        raise ValueError("bert: the checkpoint has no MLM head (cls.predictions): a bare BertModel is not supported")
    pad = hf_config.get("pad_token_id")
    config = {
        "vocab": t("embeddings.word_embeddings.weight").shape[0],
        "dim": C,
        "n_heads": H,
        "n_layers": L,
        "max_len": t("embeddings.position_embeddings.weight").shape[0],
        "mlp_ratio": hidden // C,
        "n_segments": t("embeddings.token_type_embeddings.weight").shape[0],
        "pad_id": -1 if pad is None else pad,  # -1: no id is padding
        "norm": "post",
        "norm_eps": hf_config.get("layer_norm_eps", 1e-12),
        "activation": activation(hf_config.get("hidden_act", "gelu"), ARCH),
    }
    state = {
        "embed.weight": t("embeddings.word_embeddings.weight"),
        "segment.weight": t("embeddings.token_type_embeddings.weight"),
        "pos.weight": t("embeddings.position_embeddings.weight"),
        "embed_ln.weight": t("embeddings.LayerNorm.weight"),
        "embed_ln.bias": t("embeddings.LayerNorm.bias"),
        "mlm_dense.weight": t("cls.predictions.transform.dense.weight"),
        "mlm_dense.bias": t("cls.predictions.transform.dense.bias"),
        "mlm_ln.weight": t("cls.predictions.transform.LayerNorm.weight"),
        "mlm_ln.bias": t("cls.predictions.transform.LayerNorm.bias"),
        "mlm_bias": t("cls.predictions.bias"),
    }
    for i in range(L):
        for hf, ours in _LAYER.items():
            for p in ("weight", "bias"):
                state[f"blocks.{i}.{ours}.{p}"] = t(f"encoder.layer.{i}.{hf}.{p}")
    for hf, ours, shape in (("pooler.dense", "pooler", (C, C)), ("cls.seq_relationship", "nsp", (2, C))):
        weight = t.get(hf + ".weight")
        state[ours + ".weight"] = weight if weight is not None else state["embed.weight"].new_zeros(shape)
        bias = t.get(hf + ".bias")
        state[ours + ".bias"] = bias if bias is not None else state["embed.weight"].new_zeros(shape[0])
    t.check_tied("cls.predictions.decoder.weight", state["embed.weight"])
    t.check_tied("cls.predictions.decoder.bias", state["mlm_bias"])
    t.check_all_read(ignored=r"embeddings\.position_ids")  # a buffer (0, 1, 2, ...) older checkpoints saved
    return config, state
