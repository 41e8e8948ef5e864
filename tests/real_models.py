"""Tiny stand-ins for the real pretrained checkpoints (models/pretrained), for tests on machines without them.

``write_hf_cache(root, repo, model, tokenizer)`` saves a ``transformers`` model (and a ``tokenizers.Tokenizer``) where
``huggingface_hub``'s cache keeps ``repo`` at revision ``r1``; point ``HF_HUB_CACHE`` at ``root`` and
``TE_PRETRAINED`` at an empty folder, and ``models.pretrained`` finds and converts it as it would the real one.
``fake_hub(root, *keys)`` does that for keys of ``models.pretrained.KNOWN`` that have a builder here (tiny random
models of odd sizes, tokenizers laid out as the real ones: specials at the real ones' kind of places).

Needs ``transformers`` (a test dependency): import this module after ``pytest.importorskip("transformers")``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from models import pretrained

REVISION = "r1"

# Words of the pages' default and example texts, so that they read as words rather than [UNK] or characters.
WORDS = (
    "to be or not that is the question whether tis nobler in mind suffer what thou you where my lord good morning "
    "cat sat on dost art hast wilt he will do with it heaven knows i nothing but please his fantasy re enter iago "
    "how now here alone emilia of any bold noble enterprise however puts this tardy form ay and briefly fourth "
    "citizen wisely third truly were best cinna dagger which see before me handle toward hand come let clutch thee "
    "have yet still a an house dog park walks translate english german summarize sentence fatal vision sensible "
    "feeling as sight false creation proceeding from heat oppressed brain winter"
).split()
PUNCTUATION = tuple(".,:;?!'-[]()\"")


def write_hf_cache(root: Path, repo: str, model, tokenizer: Tokenizer | None = None) -> Path:
    """``model`` (a ``transformers`` model) and ``tokenizer`` saved where huggingface_hub's cache keeps ``repo`` at
    revision ``r1``, with ``refs/main`` naming it; returns the snapshot folder."""
    base = Path(root) / ("models--" + repo.replace("/", "--"))
    snapshot = base / "snapshots" / REVISION
    model.save_pretrained(snapshot)
    if tokenizer is not None:
        tokenizer.save(str(snapshot / "tokenizer.json"))
    (base / "refs").mkdir(parents=True, exist_ok=True)
    (base / "refs" / "main").write_text(REVISION)
    return snapshot


def saved(model, path: Path) -> tuple[dict, dict]:
    """Every parameter of a ``transformers`` model nudged off its initial value (``randomise``), saved as
    safetensors, read back from disk as the loader will: (config.json as a dict, tensors by name)."""
    randomise(model)
    model.save_pretrained(path)
    return json.loads((Path(path) / "config.json").read_text()), load_file(Path(path) / "model.safetensors")


def converted(convert, hf_config: dict, tensors: dict) -> torch.nn.Module:
    """Our model from a HF config and tensors through the conversion module ``convert`` (models/pretrained/<arch>.py),
    loaded strictly, in eval mode."""
    config, state = convert.from_hf(hf_config, tensors)
    model = importlib.import_module(f"models.{convert.ARCH}").build(config).eval()
    model.load_state_dict(state, strict=True)
    return model


def randomise(model: torch.nn.Module, seed: int = 1, scale: float = 0.1) -> torch.nn.Module:
    """Noise on every parameter (norms at 1 and biases at 0 would hide a mix-up of names); eval mode."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(scale * torch.randn(p.shape, generator=g))
    return model.eval()


def tiny_hf_llama(kind: str = "llama", rope_theta: float | None = None, **overrides):
    """A random ``LlamaForCausalLM`` (or, ``kind="qwen2"``, ``Qwen2ForCausalLM``) of odd sizes, every weight nudged:
    the loader tests' and the fake Hub's; ``rope_theta`` sets RoPE's base (None: transformers' default)."""
    import transformers

    common = dict(
        vocab_size=101,
        hidden_size=48,
        intermediate_size=72,
        num_hidden_layers=2,
        num_attention_heads=6,
        num_key_value_heads=2,
        max_position_embeddings=64,
        rms_norm_eps=1e-5,
        tie_word_embeddings=False,
    )
    common.update(overrides)
    if kind == "qwen2":
        config, cls = transformers.Qwen2Config(**common), transformers.Qwen2ForCausalLM
    else:
        config, cls = transformers.LlamaConfig(**common), transformers.LlamaForCausalLM
    if rope_theta is not None:
        config.rope_parameters = {"rope_type": "default", "rope_theta": rope_theta}
    torch.manual_seed(0)
    return randomise(cls(config).eval(), seed=0, scale=0.05)


def tiny_hf_granite(**overrides):
    """A random ``GraniteMoeForCausalLM`` (2 layers, width 32, 4 heads sharing 2 key/value heads, 4 SwiGLU experts of
    width 24 of which each token takes 2, tied embeddings), every weight nudged, all four of Granite's multipliers away
    from 1 (a mix-up of them moves the logits): the stand-in for ibm-granite's MoE checkpoints."""
    import transformers

    settings = dict(
        vocab_size=300,
        hidden_size=32,
        intermediate_size=24,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        num_local_experts=4,
        num_experts_per_tok=2,
        max_position_embeddings=64,
        embedding_multiplier=3.0,
        attention_multiplier=0.2,  # not 1/√D = 0.354
        residual_multiplier=0.5,
        logits_scaling=2.0,
        tie_word_embeddings=True,
    )
    settings.update(overrides)
    config = transformers.GraniteMoeConfig(**settings)
    config._attn_implementation = "eager"
    torch.manual_seed(0)
    return randomise(transformers.GraniteMoeForCausalLM(config), seed=0, scale=0.1)


# ---- BERT ------------------------------------------------------------------------------------------------------------

# As bert-base-uncased: [PAD] first, then unused slots, then [UNK] [CLS] [SEP] [MASK] (not ours' 0-4).
BERT_SPECIALS = ("[PAD]", "[unused0]", "[unused1]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def bert_tokenizer() -> Tokenizer:
    """A lower-casing WordPiece like bert-base-uncased's tokenizer.json: its normaliser, pre-tokeniser, decoder and
    the ``[CLS] $A [SEP]`` post-processor; [MASK] typed in the text reads as the special token."""
    pieces = [*BERT_SPECIALS, *PUNCTUATION, *WORDS, *"abcdefghijklmnopqrstuvwxyz", "##s", "##e", "##st"]
    vocab = {p: i for i, p in enumerate(dict.fromkeys(pieces))}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True, clean_text=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.add_special_tokens(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    return tok


def tiny_bert(vocab: int, *, nsp: bool = True, seed: int = 0):
    """A random ``BertForPreTraining`` (MLM and NSP heads; ``nsp=False``: ``BertForMaskedLM``) of odd sizes: 3 layers
    of 2 heads, width 22, 67 positions (more than the page gives a real model, so its cap shows)."""
    import transformers

    config = transformers.BertConfig(
        vocab_size=vocab,
        hidden_size=22,
        num_hidden_layers=3,
        num_attention_heads=2,
        intermediate_size=44,
        max_position_embeddings=67,
    )
    torch.manual_seed(seed)
    cls = transformers.BertForPreTraining if nsp else transformers.BertForMaskedLM
    return randomise(cls(config), seed + 1)


# ---- T5 --------------------------------------------------------------------------------------------------------------

T5_SENTINELS = 10


def t5_tokenizer() -> Tokenizer:
    """A unigram SentencePiece-style tokenizer laid out as t5-small's: <pad> 0, </s> 1, <unk> 2, pieces, then the
    sentinels last in descending order (<extra_id_0> has the highest id); the ``$A </s>`` post-processor."""
    chars = [chr(c) for c in range(33, 127)]
    pieces = [*dict.fromkeys(["▁" + w for w in WORDS] + ["▁" + w.capitalize() for w in WORDS]), "▁", *chars]
    vocab = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]
    vocab += [(p, -2.0 - 0.01 * i) if p.startswith("▁") and len(p) > 1 else (p, -8.0) for i, p in enumerate(pieces)]
    sentinels = [f"<extra_id_{k}>" for k in reversed(range(T5_SENTINELS))]
    vocab += [(s, 0.0) for s in sentinels]
    tok = Tokenizer(models.Unigram(vocab, unk_id=2, byte_fallback=False))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC()])
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.add_special_tokens(["<pad>", "</s>", "<unk>", *sentinels])
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return tok


def tiny_t5(vocab: int, seed: int = 0):
    """A random ``T5ForConditionalGeneration`` (v1.0: ReLU, tied, rescaled output) of odd sizes: 2 encoder and 3
    decoder layers of 4 heads of width 6, d_model 24; t5-small's 32 position buckets up to distance 128."""
    import transformers

    config = transformers.T5Config(
        vocab_size=vocab,
        d_model=24,
        d_kv=6,
        num_heads=4,
        d_ff=40,
        num_layers=2,
        num_decoder_layers=3,
        relative_attention_num_buckets=32,
        relative_attention_max_distance=128,
    )
    torch.manual_seed(seed)
    return randomise(transformers.T5ForConditionalGeneration(config), seed + 1)


# ---- Gemma 3 ---------------------------------------------------------------------------------------------------------

GEMMA_LAYERS, GEMMA_GLOBAL, GEMMA_WINDOW = 6, (5,), 5  # gemma-3-270m's pattern (5 local, then 1 global), W cut to 5


def gemma_tokenizer() -> Tokenizer:
    """A word-level tokenizer over ``WORDS`` and punctuation, <pad> <eos> <bos> <unk> first as Gemma's are, which
    starts a text with <bos> as Gemma's does."""
    words = ["<pad>", "<eos>", "<bos>", "<unk>", *dict.fromkeys([*WORDS, *PUNCTUATION])]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens(["<pad>", "<eos>", "<bos>", "<unk>"])
    # as Gemma's own tokenizer.json: every text starts with <bos>
    tok.post_processor = processors.TemplateProcessing(single="<bos> $A", special_tokens=[("<bos>", 2)])
    return tok


def tiny_gemma(vocab: int, seed: int = 0):
    """A random ``Gemma3ForCausalLM`` of odd sizes: 6 layers (layer 5 global, the others local with a window of 5),
    width 24, 4 query heads and 1 key/value head of width 8, the two RoPE bases of the real one."""
    import transformers

    config = transformers.Gemma3TextConfig(
        vocab_size=vocab,
        hidden_size=24,
        intermediate_size=40,
        num_hidden_layers=GEMMA_LAYERS,
        num_attention_heads=4,
        num_key_value_heads=1,
        head_dim=8,
        max_position_embeddings=256,
        sliding_window=GEMMA_WINDOW,
        layer_types=["full_attention" if i in GEMMA_GLOBAL else "sliding_attention" for i in range(GEMMA_LAYERS)],
        query_pre_attn_scalar=8,
        rope_parameters={
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
        },
    )
    torch.manual_seed(seed)
    return randomise(transformers.Gemma3ForCausalLM(config), seed + 1)


# ---- a whole fake cache ----------------------------------------------------------------------------------------------


def build(key: str):
    """(model, tokenizer) standing in for the real checkpoint ``key``."""
    if key == "bert-base-uncased":
        tok = bert_tokenizer()
        return tiny_bert(tok.get_vocab_size()), tok
    if key == "t5-small":
        tok = t5_tokenizer()
        return tiny_t5(tok.get_vocab_size() + 7), tok  # t5-small's model has more ids (32,128) than its tokenizer
    if key == "gemma-3-270m":
        tok = gemma_tokenizer()
        return tiny_gemma(tok.get_vocab_size()), tok
    raise KeyError(f"no tiny stand-in for {key!r}")


def fake_hub(root: Path, *keys: str) -> dict[str, tuple]:
    """A Hugging Face cache under ``root`` holding a tiny stand-in for each of ``keys`` (in its first repository of
    ``models.pretrained.KNOWN``); returns {key: (model, tokenizer)}."""
    made = {}
    for key in keys:
        model, tok = made[key] = build(key)
        write_hf_cache(root, pretrained.KNOWN[key].repos[0], model, tok)
    return made
