"""The LLaMA-style decoder (models/llama.py), its recipe (models/recipes/llama.py) and its shipped checkpoint."""

from __future__ import annotations

import itertools
from dataclasses import asdict, replace

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from models import gpt, llama, metrics, zoo
from models import recipes as registry
from models.engine import Engine
from models.probe import trace
from models.recipes import llama as recipe
from models.train import settings_for
from tests.models.tolerance import assert_close

TINY = llama.PRESETS["tiny"]  # vocab 300, C 32, H 4, G 2, L 2, context 32

# Greedy continuation of the shipped checkpoint (torch, CPU). Regenerate only when the checkpoint is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [199, 70, 76, 421, 294, 268, 836, 326, 764, 14, 199, 199, 59, 524, 259, 457]
GOLDEN_TEXT = "\nflight of the King's son.\n\n[Enter a M"

shipped_only = pytest.mark.skipif("llama" not in zoo.available(), reason="no llama checkpoint")


def tiny_model(**changes) -> llama.Llama:
    torch.manual_seed(0)
    return llama.build(asdict(replace(TINY, **changes))).eval()


@pytest.fixture(scope="module")
def tiny() -> llama.Llama:
    return tiny_model()


# ---- the model -----------------------------------------------------------------------------------------------------


def test_shapes_and_pinned_parameter_counts(tiny):
    assert tiny(torch.randint(0, 300, (3, 7))).shape == (3, 7, 300)
    assert zoo.parameter_count(tiny) == 28_192
    assert zoo.parameter_count(llama.build(asdict(llama.PRESETS["shipped"]))) == 2_016_960
    assert zoo.parameter_count(gpt.build(asdict(recipe.BASELINE))) == 2_197_632  # the baseline: within 10 %


def test_no_biases_and_no_position_parameters(tiny):
    names = [n for n, _ in tiny.named_parameters()]
    assert not [n for n in names if n.endswith("bias")]
    assert not [n for n in names if "pos" in n]
    attn = tiny.blocks[0].attn
    assert attn.wk.weight.shape[0] == attn.wq.weight.shape[0] // 2  # 2 key/value heads for 4 query heads


@torch.no_grad()
def test_causality_later_tokens_change_nothing_before_them(tiny):
    """Cutting the sequence after t, or scrambling everything after t, leaves the outputs up to t as they were."""
    gen = torch.Generator().manual_seed(1)
    x = torch.randint(0, 300, (2, 20), generator=gen)
    full = tiny(x)
    for t in (1, 8, 19):
        assert torch.allclose(tiny(x[:, :t]), full[:, :t], atol=1e-5)
        scrambled = torch.cat([x[:, :t], torch.randint(0, 300, (2, 20 - t), generator=gen)], dim=1)
        out = tiny(scrambled)
        assert torch.allclose(out[:, :t], full[:, :t], atol=1e-5)
        assert not torch.allclose(out[:, t:], full[:, t:], atol=1e-4)


@torch.no_grad()
def test_gqa_equals_mha_with_each_key_value_head_repeated():
    """G = 2 key/value heads for H = 4 query heads is exactly MHA whose key/value heads come in equal pairs."""
    gqa, mha = tiny_model(), tiny_model(n_kv_heads=TINY.n_heads)
    state = gqa.state_dict()
    D, rep = TINY.dim // TINY.n_heads, TINY.n_heads // TINY.n_kv_heads
    for name, w in list(state.items()):
        if name.endswith(("attn.wk.weight", "attn.wv.weight")):  # (G·D, C) -> (H·D, C), head g serving g·rep …
            state[name] = w.view(TINY.n_kv_heads, D, -1).repeat_interleave(rep, 0).reshape(-1, TINY.dim)
    mha.load_state_dict(state)
    x = torch.randint(0, 300, (3, 11))
    assert torch.allclose(gqa(x), mha(x), atol=1e-5)


@torch.no_grad()
def test_as_many_kv_heads_as_query_heads_is_plain_mha():
    model = tiny_model(n_kv_heads=TINY.n_heads)
    assert model.blocks[0].attn.n_kv_heads == model.blocks[0].attn.n_heads
    with trace("blocks.0.attn.k", "blocks.0.attn.q") as t:
        model(torch.randint(0, 300, (1, 5)))
    assert t["blocks.0.attn.k"].shape == t["blocks.0.attn.q"].shape == (1, 4, 5, 8)


@torch.no_grad()
def test_cached_decoding_in_uneven_chunks_equals_full_forward(tiny):
    """Keys enter the cache already rotated, and each chunk's queries start where the cache ends."""
    x = torch.randint(0, 300, (2, 24), generator=torch.Generator().manual_seed(2))
    cache, parts, t = tiny.new_cache(), [], 0
    for n in (5, 1, 7, 1, 1, 9):
        parts.append(tiny(x[:, t : t + n], cache))
        t += n
    assert len(cache[0]) == 24
    assert torch.allclose(torch.cat(parts, dim=1), tiny(x), atol=1e-5)


@torch.no_grad()
def test_runs_to_four_times_the_context_and_scaling_options(tiny):
    x = torch.randint(0, 300, (1, 4 * TINY.max_len))
    plain = tiny(x)
    assert torch.equal(tiny(x, interpolation=1.0, ntk=1.0), plain)
    first = slice(0, 8)  # PI moves every position, NTK keeps the fast pairs: both change the output
    assert not torch.allclose(tiny(x, interpolation=4.0)[:, first], plain[:, first], atol=1e-4)
    assert not torch.allclose(tiny(x, ntk=4.0), plain, atol=1e-4)
    assert torch.allclose(tiny(x[:, :1], ntk=4.0), plain[:, :1], atol=1e-6)  # position 0 is never rotated
    with pytest.raises(ValueError):
        tiny(torch.zeros(1, 4 * TINY.max_len + 1, dtype=torch.long))


def test_probes_are_recorded_after_the_rotation(tiny):
    x = torch.randint(0, 300, (1, 9))
    with trace("blocks.*.attn.q", "blocks.*.attn.k", "blocks.*.attn.pattern") as t:
        tiny(x)
    assert len(t) == 6
    pattern = t["blocks.1.attn.pattern"]
    assert torch.all(pattern.triu(1) < 1e-6) and torch.allclose(pattern.sum(-1), torch.ones(1, 4, 9))
    attn = tiny.blocks[0].attn
    h = tiny.blocks[0].attn_norm(tiny.embed(x))
    k_plain = attn.wk(h).view(1, 9, 2, 8).transpose(1, 2)
    assert torch.allclose(t["blocks.0.attn.k"][..., 0, :], k_plain[..., 0, :], atol=1e-6)  # position 0: no turn
    assert not torch.allclose(t["blocks.0.attn.k"][..., 1:, :], k_plain[..., 1:, :], atol=1e-4)
    assert torch.allclose(t["blocks.0.attn.k"].norm(dim=-1), k_plain.norm(dim=-1), atol=1e-5)


def test_position_losses_average_to_the_cross_entropy(tiny):
    win = np.random.default_rng(0).integers(0, 300, (3, 41))
    per_pos = metrics.position_losses(tiny, win)
    assert per_pos.shape == (40,)
    with torch.no_grad():
        x = torch.from_numpy(win)
        ce = F.cross_entropy(tiny(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten()).item()
    assert per_pos.mean() == pytest.approx(ce, rel=1e-5)


def test_race_gives_each_model_the_same_step_time_on_the_same_batches():
    a, b = tiny_model(), gpt.build(asdict(gpt.PRESETS["tiny"]))
    seen = []

    def batches():
        for i in itertools.count():
            chunk = torch.randint(0, 300, (4, 33), generator=torch.Generator().manual_seed(i))
            seen.append(chunk)
            yield chunk

    def fake_clock(cost):  # every step of this model "takes" ``cost`` seconds, whatever the machine is doing
        t = {"now": 0.0, "calls": 0}

        def read():
            t["calls"] += 1
            if t["calls"] % 2 == 0:  # the reading after a step
                t["now"] += cost
            return t["now"]

        return read

    hp = {"budget_s": 1.0, "lr": 1e-3, "warmup": 5, "weight_decay": 0.0}
    runners = recipe.race(
        {"llama": a, "gpt": b},
        batches(),
        hp,
        log_every=10**9,
        clocks={"llama": fake_clock(0.125), "gpt": fake_clock(0.25)},
    )
    # each stops at the first step that reaches the budget: the slower model gets fewer steps of the same batches
    assert len(runners["llama"].losses) == 8 and len(runners["gpt"].losses) == 4
    assert runners["llama"].seconds == pytest.approx(1.0) and runners["gpt"].seconds == pytest.approx(1.0)
    assert all(not r.model.training for r in runners.values())
    assert len(seen) == 8


@shipped_only
def test_the_budget_is_a_setting_and_its_default_is_the_shipped_runs():
    assert (
        settings_for(registry.recipe("llama"), [])["budget_s"] == zoo.read_card("llama")["training"]["budget_s"] == 960
    )
    assert settings_for(registry.recipe("llama"), ["budget_s=30"])["budget_s"] == 30


def test_relative_bar_names_another_metric():
    bar = recipe.RECIPES[0].bars
    assert zoo.bars_missed({"val_bpc": 2.0, "baseline_val_bpc": 2.1}, bar) == []
    assert zoo.bars_missed({"val_bpc": 2.2, "baseline_val_bpc": 2.1}, bar) == ["val_bpc = 2.2 > baseline_val_bpc = 2.1"]
    assert zoo.bars_missed({"val_bpc": 2.0}, bar) == ["val_bpc: not measured"]


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


@shipped_only
def test_card_meets_the_bar_and_records_the_race():
    card = zoo.read_card("llama")
    m = card["metrics"]
    assert m["val_bpc"] <= m["baseline_val_bpc"]
    assert not zoo.bars_missed(m, card["bars"])
    base = card["baseline"]
    assert abs(card["train_seconds"] - base["train_seconds"]) < 30  # the same step-time budget
    assert abs(card["params"] - base["params"]) / base["params"] < 0.1
    ext = m["extrapolation"]
    assert ext["length"] == 4 * ext["train_context"] == 512
    for scheme in llama.SCHEMES:
        assert len(ext[scheme]) == len(ext["bucket_start"]) == 16
    assert card["command"] == "python -m models.train llama --seed 0"


@shipped_only
def test_tokenizer_is_the_gpt_tokenizer():
    ours = (zoo.checkpoint_dir("llama") / "tokenizer.json").read_text()
    assert ours == (zoo.SHIPPED / "gpt" / "tokenizer.json").read_text()


@shipped_only
def test_golden_greedy_continuation():
    model = zoo.load("llama")
    tok = metrics.tokenizer(zoo.checkpoint_dir("llama"))
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    ids = list(gpt.generate(model, prompt, len(GOLDEN_IDS), temperature=0.0))
    assert ids == GOLDEN_IDS
    assert tok.decode(ids) == GOLDEN_TEXT


@shipped_only
def test_onnx_parity_logits_and_rotated_probes_past_the_context():
    engine = Engine(device="cpu")
    tok = metrics.tokenizer(zoo.checkpoint_dir("llama"))
    ids = metrics.encode_document(tok, "O Romeo, Romeo! wherefore art thou Romeo? 你好 🙂 " * 12)[None, :200]
    ids = np.concatenate([ids, ids[:, ::-1]], axis=0)  # B = 2, T = 200: past the 128 of training and the export
    ref = engine.run("llama", {"tokens": ids}, llama.PROBES, backend="torch")
    got = engine.run("llama", {"tokens": ids}, llama.PROBES, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)  # float32 on both sides
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 12
    for name, value in ref.probes.items():
        assert_close(got.probes[name], value, 1e-4, err_msg=name)
