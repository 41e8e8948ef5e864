"""Gemma 3 text checkpoints through models/pretrained/gemma.py equal Hugging Face ``transformers`` on the same weights.

A tiny random ``Gemma3ForCausalLM`` (three layers: two local with a window of 5, one global; QK-norm; the norms
around each sub-block; GeGLU; the embedding scale; two RoPE bases; a head width apart from C / H), converted into
models/gemma.py: the logits agree relative to their scale on a text longer than the window, and our rolling caches
give the logits of the full forward token by token.
"""

from __future__ import annotations

import json

import pytest
import torch

from models import gemma
from models.pretrained import gemma as convert
from tests.models.tolerance import assert_close
from tests.real_models import randomise

transformers = pytest.importorskip("transformers")


def hf_gemma(**overrides):
    settings = dict(
        vocab_size=101,
        hidden_size=48,
        intermediate_size=72,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,  # 4 × 16 = 64 ≠ 48: the head width is set apart, as Gemma 3 270M's (4 × 256, width 640)
        max_position_embeddings=64,
        sliding_window=5,
        layer_types=["sliding_attention", "sliding_attention", "full_attention"],
        query_pre_attn_scalar=12,  # not D: the score scale is its own setting
        rope_parameters={
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
        },
    )
    settings.update(overrides)
    config = transformers.Gemma3TextConfig(**settings)
    config._attn_implementation = "eager"
    torch.manual_seed(0)
    return randomise(transformers.Gemma3ForCausalLM(config), seed=0, scale=0.1)


def converted(theirs):
    config, state = convert.from_hf(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    ours = gemma.build(config).eval()
    ours.load_state_dict(state, strict=True)
    return config, ours


def test_a_gemma3_checkpoint_converts_to_equal_logits():
    theirs = hf_gemma()
    config, ours = converted(theirs)
    assert config["local"] == [True, True, False] and config["window"] == 5 and config["head_dim"] == 16
    assert (config["rope_base"], config["rope_local_base"], config["query_scale"]) == (1e6, 1e4, 12.0)
    tokens = torch.randint(0, 101, (2, 23), generator=torch.Generator().manual_seed(1))  # 23 > the window of 5
    with torch.no_grad():
        want = theirs(tokens).logits
        assert_close(ours(tokens), want, 1e-4)
        # the window matters: the same model with every layer global gives other logits
        ours.config.local = [False, False, False]
        assert (ours(tokens) - want).abs().max() > 1e-2
    # and each of Gemma's options matters: with the norms after each sub-block left out, the logits move
    theirs_plain = hf_gemma()
    for layer in theirs_plain.model.layers:
        layer.post_attention_layernorm.weight.data.zero_()  # (1 + 0): the identity scale, not the trained one
    with torch.no_grad():
        assert (theirs_plain(tokens).logits - want).abs().max() > 1e-3


def test_rolling_caches_give_the_full_forwards_logits_token_by_token():
    _, ours = converted(hf_gemma())
    tokens = torch.randint(0, 101, (1, 17), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        full = ours(tokens)[0]
        cache = ours.new_cache()
        assert [type(c).__name__ for c in cache] == ["RollingKVCache", "RollingKVCache", "KVCache"]
        steps = torch.cat([ours(tokens[:, i : i + 1], cache)[0] for i in range(tokens.shape[1])])
    assert_close(steps, full, 1e-4)
    assert cache[0].filled == 5 and len(cache[2]) == 17  # the local layers keep W rows, the global one all


@pytest.mark.parametrize(
    "change",
    [
        {"final_logit_softcapping": 30.0},
        {"attn_logit_softcapping": 50.0},
        {"hidden_activation": "silu"},
        {"rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6}}},
    ],
)
def test_what_our_class_lacks_is_refused_by_name(change):
    hf_config = json.loads(hf_gemma().config.to_json_string()) | change
    with pytest.raises(ValueError) as refused:
        convert.config_from_hf(hf_config)
    assert any(word in str(refused.value) for word in ("softcapping", "activation", "RoPE"))


# ---- Gemma 3 from a GGUF file (the real 270M model comes as one, from PyPI) ------------------------------------------

TEXT = "the theme of the thesis: then the other three threw them their hats"


def spm_vocabulary(text: str, merges: int = 40) -> list[str]:
    """A SentencePiece-style BPE vocabulary as a Gemma GGUF lists it: control tokens, the 256 byte tokens, the
    characters of ``text`` (spaces as "▁"), then the pieces a plain BPE learns on it, in the order it learns them
    (Gemma's file order is its merge order)."""
    words = [list("▁" + w) for w in text.split(" ")]
    pieces = sorted({c for w in words for c in w})
    for _ in range(merges):
        pairs: dict[tuple[str, str], int] = {}
        for w in words:
            for a, b in zip(w, w[1:]):
                pairs[a, b] = pairs.get((a, b), 0) + 1
        if not pairs:
            break
        (a, b), _ = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))
        pieces.append(a + b)
        for w in words:
            i = 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == (a, b):
                    w[i : i + 2] = [a + b]
                i += 1
    specials = ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"]
    return specials + [f"<0x{b:02X}>" for b in range(256)] + pieces


def write_gemma_gguf(path, model, tokens: list[str]) -> None:
    """``model`` (a HF Gemma3ForCausalLM) as llama.cpp's converter writes it: its names, q/k rows in Hugging Face's
    rotate-half order (Gemma's "NEOX" rotation), every norm stored as 1 + g, some matrices block-quantised."""
    import gguf
    import numpy as np

    c = model.config
    w = gguf.GGUFWriter(str(path), "gemma3")
    w.add_name("tiny gemma")
    w.add_license("gemma")
    w.add_block_count(c.num_hidden_layers)
    w.add_context_length(c.max_position_embeddings)
    w.add_embedding_length(c.hidden_size)
    w.add_feed_forward_length(c.intermediate_size)
    w.add_head_count(c.num_attention_heads)
    w.add_head_count_kv(c.num_key_value_heads)
    w.add_key_length(c.head_dim)
    w.add_value_length(c.head_dim)
    w.add_rope_freq_base(c.rope_parameters["full_attention"]["rope_theta"])
    w.add_layer_norm_rms_eps(c.rms_norm_eps)
    w.add_sliding_window(c.sliding_window)
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * len(tokens))
    kinds = {"<0x": 6, "<": 3}  # byte tokens, control tokens; the rest normal
    w.add_token_types([next((k for p, k in kinds.items() if t.startswith(p)), 1) for t in tokens])
    w.add_bos_token_id(2)
    w.add_add_bos_token(True)  # as Gemma's files say: a text starts with <bos>
    w.add_eos_token_id(1)
    w.add_unk_token_id(3)
    w.add_pad_token_id(0)
    sd = {k: v.detach().float().numpy() for k, v in model.state_dict().items()}
    Q8 = gguf.GGMLQuantizationType.Q8_0

    def add(name: str, values, quant=None) -> None:
        if quant is None:
            w.add_tensor(name, np.ascontiguousarray(values, dtype=np.float32))
        else:
            w.add_tensor(name, gguf.quants.quantize(values, quant), raw_dtype=quant)

    add("token_embd.weight", sd["model.embed_tokens.weight"], Q8)
    add("output_norm.weight", 1 + sd["model.norm.weight"])
    names = {
        "attn_norm": "input_layernorm",
        "post_attention_norm": "post_attention_layernorm",
        "ffn_norm": "pre_feedforward_layernorm",
        "post_ffw_norm": "post_feedforward_layernorm",
        "attn_q_norm": "self_attn.q_norm",
        "attn_k_norm": "self_attn.k_norm",
    }
    for i in range(c.num_hidden_layers):
        p = f"model.layers.{i}."
        for theirs, hf in names.items():
            add(f"blk.{i}.{theirs}.weight", 1 + sd[f"{p}{hf}.weight"])
        for theirs, hf in (("attn_q", "q_proj"), ("attn_k", "k_proj"), ("attn_v", "v_proj"), ("attn_output", "o_proj")):
            add(f"blk.{i}.{theirs}.weight", sd[f"{p}self_attn.{hf}.weight"])
        for theirs, hf in (("ffn_gate", "gate_proj"), ("ffn_up", "up_proj"), ("ffn_down", "down_proj")):
            add(f"blk.{i}.{theirs}.weight", sd[f"{p}mlp.{hf}.weight"], Q8)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def test_a_gemma3_gguf_converts_to_what_transformers_reads_from_the_same_file(tmp_path):
    """Six layers (llama.cpp's Gemma 3 makes every sixth global: layer 5 here), a head width of 256 (what the
    file implies for the score scale, as Gemma 3 270M's), Q8_0 matrices; and the tokenizer rebuilt from the file's
    vocabulary, whose merges the file does not list."""
    from gguf import GGUFReader
    from tokenizers import Tokenizer

    from models.pretrained import gguf_file

    tokens = spm_vocabulary(TEXT)
    theirs_hf = hf_gemma(
        vocab_size=len(tokens),
        num_hidden_layers=6,
        hidden_size=64,  # Q8_0 blocks of 32
        head_dim=256,
        query_pre_attn_scalar=256,
        layer_types=None,
        sliding_window_pattern=6,
        intermediate_size=64,
    )
    path = tmp_path / "tiny-gemma.gguf"
    write_gemma_gguf(path, theirs_hf, tokens)
    spec, state, files, card = gguf_file.convert_file(path)
    assert spec["arch"] == "gemma" and card["license"] == "gemma" and card["quantised"] == ["Q8_0"]
    assert spec["config"]["local"] == [True] * 5 + [False] and spec["config"]["window"] == 5
    ours = gemma.build(spec["config"]).eval()
    ours.load_state_dict(state, strict=True)
    theirs = transformers.AutoModelForCausalLM.from_pretrained(tmp_path, gguf_file=path.name, dtype=torch.float32)
    our_tok = Tokenizer.from_str(files["tokenizer.json"])
    their_tok = transformers.AutoTokenizer.from_pretrained(tmp_path, gguf_file=path.name)
    for text in (TEXT, "the three hats", "unseen wörds ✓", "<start_of_turn>them"):
        ids = our_tok.encode(text, add_special_tokens=False).ids
        assert ids == their_tok(text, add_special_tokens=False)["input_ids"], text
        assert our_tok.encode(text).ids == their_tok(text)["input_ids"] == [2, *ids], text  # <bos> first, as theirs
        assert our_tok.decode(ids, skip_special_tokens=False) == text
    assert len(gguf_file.recovered_merges(tokens)) >= 20  # the pieces' merges, recovered
    ids = torch.tensor([our_tok.encode(TEXT).ids])  # <bos> first
    assert ids.shape[1] > 6  # past the window of 5
    with torch.no_grad():
        assert_close(ours(ids), theirs.eval()(ids).logits, 1e-4)
    assert GGUFReader(str(path)).fields["general.architecture"].contents() == "gemma3"


@pytest.mark.slow
def test_the_real_gemma_3_270m_equals_transformers_reading_the_same_file():
    """Where ``python -m models.data.pretrained gemma-3-270m`` has brought the file (on request; Gemma's terms): our
    conversion, served as every real model is, against transformers reading the same GGUF: token ids on texts in
    several scripts, and the logits relative to their scale."""
    from models import pretrained, zoo
    from models.data import pretrained as fetched

    path = fetched.gguf_source("gemma-3-270m")
    if path is None:
        pytest.skip("the Gemma 3 270M GGUF is not here: python -m models.data.pretrained gemma-3-270m")
    pretrained.prepare("gemma-3-270m")
    ours = zoo.load("gemma-3-270m").eval()
    from tokenizers import Tokenizer

    our_tok = Tokenizer.from_file(str(pretrained.folder("gemma-3-270m") / "tokenizer.json"))
    their_tok = transformers.AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    texts = ("The capital of France is", "  two spaces\nand a tab\t.", "中国的首都是北京。", "naïve café 123456 🙂")
    for text in texts:
        assert (
            our_tok.encode(text, add_special_tokens=False).ids == their_tok(text, add_special_tokens=False)["input_ids"]
        ), text
    theirs = transformers.AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=torch.float32)
    ids = torch.tensor([[2, *our_tok.encode(" ".join(texts), add_special_tokens=False).ids]])
    with torch.no_grad():
        assert_close(ours(ids), theirs.eval()(ids).logits, 1e-4)
    assert ours.config.local == [(i + 1) % 6 != 0 for i in range(18)] and ours.config.window == 512
