"""ViT from a Hugging Face checkpoint (``ViTForImageClassification``, e.g. ``google/vit-base-patch16-224``) into
models.vit.

Google's ViT is ours with ``channels`` 3 (images (B, 3, H, W)), LayerNorm ε 1e-12 and no dropout: [CLS] first, learned
positions, pre-LN blocks, the classifier on the final LayerNorm's [CLS]. Its patch embedding is a convolution with
kernel and stride P; a kernel (C, c, P, P) flattened to (C, c·P·P) is our linear E over patches flattened channel by
channel, then row by row. Without ``qkv_bias`` the q, k, v biases are zeros. Pixels are taken as given: HF's image
processor (resize, scale to [0, 1], normalise by mean and std 0.5) comes before either model.
"""

from __future__ import annotations

from collections.abc import Mapping

import torch

from models.pretrained._convert import Tensors, activation

ARCH = "vit"
HF_ARCHITECTURES = ("ViTForImageClassification",)

_LAYER = {  # HF's names inside encoder.layer.{i} -> ours inside blocks.{i}
    "layernorm_before": "ln1",
    "attention.attention.query": "attn.wq",
    "attention.attention.key": "attn.wk",
    "attention.attention.value": "attn.wv",
    "attention.output.dense": "attn.wo",
    "layernorm_after": "ln2",
    "intermediate.dense": "mlp.fc1",
    "output.dense": "mlp.fc2",
}


def _side(value, name: str) -> int:
    """image_size / patch_size: an int, or a square's [side, side]."""
    if isinstance(value, list | tuple):
        if len(set(value)) != 1:
            raise ValueError(f"vit: a non-square {name} {value} is not supported")
        value = value[0]
    return int(value)


def from_hf(hf_config: dict, tensors: Mapping[str, torch.Tensor]) -> tuple[dict, dict[str, torch.Tensor]]:
    """A ViT config.json and its tensors -> (models.vit Config fields, models.vit state dict)."""
    C, H, L = hf_config["hidden_size"], hf_config["num_attention_heads"], hf_config["num_hidden_layers"]
    hidden = hf_config["intermediate_size"]
    if C % H or hidden % C:
        raise ValueError(f"vit: hidden_size {C} must divide into {H} heads, and intermediate_size {hidden} by it")
    t = Tensors(tensors, "vit.", ARCH)
    if "classifier.weight" not in t:
        raise ValueError("vit: the checkpoint has no classifier: a bare ViTModel is not supported")
    config = {
        "image_size": _side(hf_config.get("image_size", 224), "image_size"),
        "patch_size": _side(hf_config.get("patch_size", 16), "patch_size"),
        "n_classes": t("classifier.weight").shape[0],
        "dim": C,
        "n_heads": H,
        "n_layers": L,
        "mlp_ratio": hidden // C,
        "dropout": 0.0,
        "channels": hf_config.get("num_channels", 3),
        "activation": activation(hf_config.get("hidden_act", "gelu"), ARCH),
        "norm_eps": hf_config.get("layer_norm_eps", 1e-12),
    }
    kernel = t("embeddings.patch_embeddings.projection.weight")  # (C, c, P, P)
    state = {
        "patch_embed.proj.weight": kernel.reshape(C, -1),  # (C, c·P·P): channel, then row, then column
        "patch_embed.proj.bias": t("embeddings.patch_embeddings.projection.bias"),
        "cls_token": t("embeddings.cls_token"),  # (1, 1, C)
        "pos.weight": t("embeddings.position_embeddings")[0],  # (1, N + 1, C) -> (N + 1, C)
        "ln_f.weight": t("layernorm.weight"),
        "ln_f.bias": t("layernorm.bias"),
        "head.weight": t("classifier.weight"),
        "head.bias": t("classifier.bias"),
    }
    for i in range(L):
        for hf, ours in _LAYER.items():
            name = f"encoder.layer.{i}.{hf}"
            state[f"blocks.{i}.{ours}.weight"] = t(name + ".weight")
            bias = t.get(name + ".bias")  # absent for q, k, v without qkv_bias: zeros add nothing
            state[f"blocks.{i}.{ours}.bias"] = bias if bias is not None else kernel.new_zeros(C)
    t.check_all_read(ignored=r"pooler\..*")  # a ViTModel's pooler: the classifier does not read it
    return config, state
