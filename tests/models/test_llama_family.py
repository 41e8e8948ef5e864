"""The LLaMA family: grouped-query attention against multi-head and multi-query attention, cached decoding for every
number of key/value heads, SwiGLU's probes, the parameter and KV-cache calculator (models/llama.py) against our own
models and the published counts (assets/llama_configs.json), and the golden outputs of the siblings ``llama-mha``
(4 key/value heads) and ``llama-mqa`` (1)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from models import gpt, llama, metrics, zoo
from models.layers import MultiHeadAttention, SwiGLU
from models.probe import name_probes, trace
from tests.models.tolerance import assert_close

TINY = llama.PRESETS["tiny"]  # vocab 300, C 32, H 4, G 2, L 2, context 32
CONFIGS = Path(__file__).resolve().parents[2] / "assets" / "llama_configs.json"
SIBLINGS = {"llama-mha": 4, "llama": 2, "llama-mqa": 1}  # key/value heads for 4 query heads

# Greedy continuation of each sibling (torch, CPU), the prompt of tests/models/test_llama.py. Regenerate only when
# the checkpoint is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN = {
    "llama-mha": (
        [199, 68, 79, 352, 294, 268, 851, 14, 199, 199, 59, 687, 355, 845, 199, 913],
        "\ndoid of the world.\n\n[Exeunt.]\n\n\n\nSCENE",
    ),
    "llama-mqa": (
        [199, 80, 82, 664, 294, 268, 278, 499, 333, 294, 268, 288, 1158, 13, 83, 72],
        "\nprough of the colour of the pale-sh",
    ),
}


def tiny_model(**changes) -> llama.Llama:
    torch.manual_seed(0)
    return llama.build(asdict(replace(TINY, **changes))).eval()


# ---- GQA, MHA, MQA --------------------------------------------------------------------------------------------------


@torch.no_grad()
def test_gqa_with_as_many_kv_heads_as_query_heads_is_mha():
    """n_kv_heads = H is exactly the plain multi-head attention layer (n_kv_heads unset), weight for weight."""
    x = torch.randn(3, 7, 32, generator=torch.Generator().manual_seed(0))
    torch.manual_seed(1)
    mha = MultiHeadAttention(32, 4, bias=False)
    torch.manual_seed(1)
    gqa = MultiHeadAttention(32, 4, n_kv_heads=4, bias=False)
    assert gqa.wk.weight.shape == mha.wk.weight.shape == (32, 32)
    mask = torch.ones(7, 7, dtype=torch.bool).tril()
    assert torch.equal(gqa(x, mask=mask), mha(x, mask=mask))


@torch.no_grad()
def test_mqa_equals_mha_whose_key_value_heads_are_all_the_same():
    """One key/value head read by every query head (G = 1) is MHA with that head copied H times."""
    x = torch.randn(2, 9, 32, generator=torch.Generator().manual_seed(3))
    mqa = MultiHeadAttention(32, 4, n_kv_heads=1, bias=False)
    mha = MultiHeadAttention(32, 4, bias=False)
    state = mqa.state_dict()
    for name in ("wk.weight", "wv.weight"):
        state[name] = state[name].repeat(4, 1)  # (D, C) -> (H·D, C)
    mha.load_state_dict(state)
    mask = torch.ones(9, 9, dtype=torch.bool).tril()
    assert_close(mqa(x, mask=mask), mha(x, mask=mask), 1e-6)


@pytest.mark.parametrize("kv_heads", [4, 2, 1])
@torch.no_grad()
def test_cached_decoding_equals_full_forward_for_mha_gqa_and_mqa(kv_heads):
    model = tiny_model(n_kv_heads=kv_heads)
    x = torch.randint(0, 300, (3, 23), generator=torch.Generator().manual_seed(kv_heads))
    cache, parts, t = model.new_cache(), [], 0
    for n in (6, 1, 1, 8, 1, 6):
        parts.append(model(x[:, t : t + n], cache))
        t += n
    assert len(cache[0]) == 23 and cache[0].k.shape == (3, kv_heads, 23, TINY.dim // TINY.n_heads)
    assert_close(torch.cat(parts, dim=1), model(x), 1e-5)


# ---- SwiGLU probes ---------------------------------------------------------------------------------------------------


@torch.no_grad()
def test_swiglu_probes_gate_and_up_multiply_to_the_hidden():
    torch.manual_seed(0)
    ffn = SwiGLU(16, 24)
    name_probes(ffn)
    x = torch.randn(3, 7, 16)
    with trace("gate", "up", "act") as t:
        out = ffn(x)
    assert t["gate"].shape == t["up"].shape == t["act"].shape == (3, 7, 24)
    assert torch.equal(t["gate"], F.silu(ffn.w1(x)))
    assert torch.equal(t["up"], ffn.w3(x))
    assert torch.equal(t["act"], t["gate"] * t["up"])
    assert torch.equal(out, ffn.w2(t["act"]))


def test_probes_hold_no_weights_so_checkpoints_keep_their_keys():
    names = set(tiny_model().state_dict())
    assert not [n for n in names if n.endswith((".gate", ".up")) or ".mlp.gate." in n or ".mlp.up." in n]


# ---- the calculator --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kv_heads", [4, 2, 1])
def test_param_count_is_the_built_models_count(kv_heads):
    for c in (replace(TINY, n_kv_heads=kv_heads), replace(llama.PRESETS["shipped"], n_kv_heads=kv_heads)):
        assert llama.param_count(c) == zoo.parameter_count(llama.build(asdict(c)))
    c = llama.PRESETS["shipped"]
    assert llama.param_count(c) == 2_016_960
    assert llama.param_count(c, tied=False) == 2_016_960 + c.vocab * c.dim
    D = c.dim // c.n_heads
    assert llama.param_count(c, qkv_bias=True) == 2_016_960 + c.n_layers * (c.n_heads + 2 * c.n_kv_heads) * D


@pytest.mark.parametrize("kv_heads", [4, 2, 1])
@torch.no_grad()
def test_kv_bytes_per_token_is_what_the_cache_tensors_hold(kv_heads):
    model = tiny_model(n_kv_heads=kv_heads)
    cache = model.new_cache()
    model(torch.zeros(1, 5, dtype=torch.long), cache)
    held = sum(t.numel() * t.element_size() for c in cache for t in (c.k, c.v))
    assert held == 5 * llama.kv_bytes_per_token(model.config, bytes_per_value=4)  # float32
    assert llama.kv_bytes_per_token(model.config, 4) == 2 * TINY.n_layers * kv_heads * (TINY.dim // TINY.n_heads) * 4


def _published() -> list[dict]:
    return json.loads(CONFIGS.read_text())["models"]


def _config(row: dict) -> llama.Config:
    return llama.Config(
        vocab=row["vocab"],
        dim=row["dim"],
        n_heads=row["n_heads"],
        n_kv_heads=row["n_kv_heads"],
        n_layers=row["n_layers"],
        hidden=row["hidden"],
        max_len=row["context"],
    )


@pytest.mark.parametrize("row", _published(), ids=lambda r: r["name"])
def test_calculator_matches_the_published_count_within_two_percent(row):
    count = llama.param_count(_config(row), tied=row["tied"], qkv_bias=row["qkv_bias"])
    assert abs(count / row["published"] - 1) <= 0.02, f"{row['name']}: {count:,} vs {row['published']:,.0f}"
    assert row["source"] and row["arxiv"] in ("2302.13971", "2307.09288", "2412.15115")


def test_published_counts_pin_known_values():
    rows = {r["name"]: r for r in _published()}
    assert len(rows) == 14
    count = {name: llama.param_count(_config(r), tied=r["tied"], qkv_bias=r["qkv_bias"]) for name, r in rows.items()}
    assert count["LLaMA 7B"] == count["Llama 2 7B"] == 6_738_415_616  # the same shape
    assert count["LLaMA 65B"] == 65_285_660_672
    assert count["Llama 2 70B"] == 68_976_648_192
    assert count["Qwen2.5 0.5B"] == 494_032_768  # tied: one 151,936 × 896 matrix
    assert count["Qwen2.5 72B"] == 72_704_106_496
    kv = {name: llama.kv_bytes_per_token(_config(r)) for name, r in rows.items()}
    assert kv["LLaMA 7B"] == 512 * 1024 and kv["Llama 2 70B"] == 320 * 1024  # 16-bit numbers; GQA with G = 8


# ---- the shipped siblings -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SIBLINGS))
def test_sibling_card_measures_the_formula(name):
    if name not in zoo.available():
        pytest.skip(f"{name} checkpoint not installed: python -m models.train {name}")
    c = llama.Config(**zoo.read_config(name))
    assert c.n_kv_heads == SIBLINGS[name] and c.n_heads == 4
    assert replace(c, n_kv_heads=2) == llama.Config(**zoo.read_config("llama"))  # only G differs
    card = zoo.read_card(name)
    if name != "llama":
        assert card["metrics"]["kv_cache_bytes_per_token"] == llama.kv_bytes_per_token(c, bytes_per_value=4)
        assert card["steps"] == zoo.read_card("llama")["steps"]
        assert card["other_seeds_val_bpc"]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_sibling_golden_greedy_continuation(name):
    if name not in zoo.available():
        pytest.skip(f"{name} checkpoint not installed: python -m models.train {name}")
    ids, text = GOLDEN[name]
    model = zoo.load(name)
    tok = metrics.tokenizer(zoo.checkpoint_dir(name))
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    got = list(gpt.generate(model, prompt, len(ids), temperature=0.0))
    assert got == ids
    assert tok.decode(got) == text
