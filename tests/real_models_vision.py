"""Tiny random stand-ins for the real ViT and Mamba checkpoints, saved by ``transformers`` where huggingface_hub's
cache keeps them, so the loader, the pages and their tests run on this machine (which has neither real checkpoint,
nor a network) exactly as they would with ``google/vit-base-patch16-224`` or ``state-spaces/mamba-130m-hf``.

The cache is written by ``tests.real_models.write_hf_cache``, which the BERT and T5 stand-ins use too.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.real_models import randomise as _nudged
from tests.real_models import write_hf_cache  # noqa: F401 (re-exported for the tests of these two pages)

VIT_REPO = "google/vit-base-patch16-224"
MAMBA_REPO = "state-spaces/mamba-130m-hf"
VIT_KEY, MAMBA_KEY = "vit-base-patch16-224", "mamba-130m"
VIT_LABELS = ("tabby cat", "goldfish", "daisy", "pagoda", "espresso")  # the tiny ViT's id2label
VIT_CONFIG = dict(
    image_size=32,
    patch_size=8,
    num_channels=3,
    hidden_size=24,
    num_hidden_layers=2,
    num_attention_heads=3,
    intermediate_size=48,
)
MAMBA_CONFIG = dict(hidden_size=32, num_hidden_layers=3, state_size=4, conv_kernel=4, expand=2, time_step_rank=2)
TEXT = (
    "The selective state space model reads a sequence one token at a time and keeps a state of constant size. "
    "Mamba makes the step size, B and C depend on the input, so the model can choose what to remember."
)


def tiny_vit():
    """A random three-channel ViTForImageClassification, 32×32 pixels in 8×8 patches, five named classes."""
    import torch
    import transformers

    torch.manual_seed(0)
    config = transformers.ViTConfig(
        **VIT_CONFIG,
        num_labels=len(VIT_LABELS),
        id2label=dict(enumerate(VIT_LABELS)),
        label2id={name: i for i, name in enumerate(VIT_LABELS)},
    )
    return _nudged(transformers.ViTForImageClassification(config))


def tiny_bpe(vocab_size: int = 300):
    """A byte-level BPE trained on TEXT with ``tokenizers`` (GPT-NeoX's kind: <|endoftext|> is id 0)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([TEXT] * 4, trainer)
    return tok


def tiny_mamba(vocab: int):
    """A random MambaForCausalLM (tied output) over ``vocab`` tokens."""
    import torch
    import transformers

    torch.manual_seed(0)
    return _nudged(transformers.MambaForCausalLM(transformers.MambaConfig(vocab_size=vocab, **MAMBA_CONFIG)))


def fake_cache(root: Path) -> dict:
    """Both stand-ins written into ``root / "hub"``: {"hub": cache folder, "vit": model, "mamba": model,
    "tokenizer": its tokenizer}."""
    hub = Path(root) / "hub"
    vit = tiny_vit()
    write_hf_cache(hub, VIT_REPO, vit)
    tok = tiny_bpe()
    lm = tiny_mamba(tok.get_vocab_size())
    write_hf_cache(hub, MAMBA_REPO, lm, tok)
    return {"hub": hub, "vit": vit, "mamba": lm, "tokenizer": tok}


def labels_of(folder: Path) -> list[str]:
    return json.loads((Path(folder) / "labels.json").read_text())
