"""Granite MoE checkpoints through models/pretrained/granite.py equal Hugging Face ``transformers`` on the same weights.

A tiny random ``GraniteMoeForCausalLM`` (2 layers, width 32, 4 heads sharing 2 key/value heads, 4 SwiGLU experts of
which each token takes 2, and all four of Granite's multipliers away from 1), converted into models/granite.py: the
logits agree relative to their scale and the router picks the same experts, from the file ``save_pretrained`` writes
(the Hub's tensor names) and from a ``state_dict()`` in memory (transformers 5's names); the KV cache gives the full
forward's logits and transformers' greedy continuation; what our class lacks is refused by name; and a repository id
naming ``GraniteMoeForCausalLM`` is served by the by-id path (a Hub on loopback).
"""

from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file

from models import granite, pretrained, zoo
from models.layers.moe import MoE, expert_off
from models.pretrained import granite as convert
from models.pretrained import hub
from models.probe import intervene, name_probes, trace
from tests.fake_hub import fake_hub_fixture, save_repo  # noqa: F401 (the fixture)
from tests.models.tolerance import assert_close
from tests.real_models import tiny_hf_granite

transformers = pytest.importorskip("transformers")

VOCAB, LAYERS, EXPERTS, TOP_K = 300, 2, 4, 2


def saved(theirs, folder) -> tuple[dict, dict]:
    """What ``save_pretrained`` writes: (config.json, the safetensors file's tensors by name)."""
    theirs.save_pretrained(folder)
    return json.loads((folder / "config.json").read_text()), load_file(folder / "model.safetensors")


def ours_from(hf_config: dict, tensors: dict) -> granite.Granite:
    config, state = convert.from_hf(hf_config, tensors)
    model = granite.build(config).eval()
    model.load_state_dict(state, strict=True)
    return model


def their_choices(theirs, tokens: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """transformers' logits and, per layer, the experts its router picked for each token (N, k), read by hooks."""
    picked: list[torch.Tensor] = []
    hooks = [
        layer.block_sparse_moe.router.register_forward_hook(lambda mod, args, out: picked.append(out[2]))
        for layer in theirs.model.layers
    ]
    try:
        with torch.no_grad():
            logits = theirs(tokens).logits
    finally:
        for h in hooks:
            h.remove()
    return logits, picked


def sequences() -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    return [torch.randint(0, VOCAB, shape, generator=g) for shape in ((1, 1), (1, 7), (2, 23), (3, 40))]


def assert_equal_to_transformers(theirs, ours) -> None:
    for tokens in sequences():
        want, picked = their_choices(theirs, tokens)
        with torch.no_grad(), trace("blocks.*.moe.expert_index") as t:
            got = ours(tokens)
        assert_close(got, want, 1e-5)
        for i in range(LAYERS):
            mine = t[f"blocks.{i}.moe.expert_index"][..., :TOP_K].reshape(-1, TOP_K)
            assert torch.equal(mine, picked[i]), (i, tokens.shape)


def test_the_saved_file_has_the_hubs_tensor_names_and_converts_to_equal_logits_and_experts(tmp_path):
    theirs = tiny_hf_granite()
    hf_config, tensors = saved(theirs, tmp_path)
    # save_pretrained writes the original names back (transformers' conversion mapping), as the Hub's files have them
    assert "model.layers.0.block_sparse_moe.input_linear.weight" in tensors
    assert "model.layers.0.block_sparse_moe.router.layer.weight" in tensors
    assert not [n for n in tensors if "gate_up_proj" in n]
    ours = ours_from(hf_config, tensors)
    c = ours.config
    assert (c.n_experts, c.top_k, c.hidden, c.tied) == (EXPERTS, TOP_K, 24, True)
    assert (c.embedding_multiplier, c.attention_multiplier, c.residual_multiplier, c.logits_scaling) == (
        3.0,
        0.2,
        0.5,
        2.0,
    )
    assert_equal_to_transformers(theirs, ours)


def test_the_in_memory_names_convert_too_and_every_multiplier_matters():
    theirs = tiny_hf_granite()
    hf_config = json.loads(theirs.config.to_json_string())
    tensors = theirs.state_dict()
    assert "model.layers.0.block_sparse_moe.experts.gate_up_proj" in tensors  # transformers 5's own names
    assert "model.layers.0.block_sparse_moe.router.weight" in tensors
    ours = ours_from(hf_config, tensors)
    assert_equal_to_transformers(theirs, ours)
    tokens = sequences()[2]
    with torch.no_grad():
        want = theirs(tokens).logits
        for field in ("embedding_multiplier", "attention_multiplier", "residual_multiplier", "logits_scaling"):
            moved = ours_from(hf_config | {field: 1.0}, tensors)
            assert (moved(tokens) - want).abs().max() > 1e-2 * want.abs().max(), field


def test_an_untied_output_matrix_is_read_and_a_tied_copy_must_equal_the_embedding(tmp_path):
    theirs = tiny_hf_granite(tie_word_embeddings=False)
    hf_config, tensors = saved(theirs, tmp_path)
    assert "lm_head.weight" in tensors
    ours = ours_from(hf_config, tensors)
    assert ours.head is not None
    assert_equal_to_transformers(theirs, ours)
    tied = json.loads(tiny_hf_granite().config.to_json_string())
    with pytest.raises(ValueError, match="tied"):
        convert.from_hf(tied, tensors)  # an lm_head that differs from the embedding, in a config that ties them


def test_the_kv_cache_gives_the_full_forwards_logits_and_transformers_greedy_continuation():
    theirs = tiny_hf_granite()
    ours = ours_from(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    tokens = sequences()[2][:1]  # (1, 23)
    with torch.no_grad():
        full = ours(tokens)[0]
        cache = ours.new_cache()
        prefix = ours(tokens[:, :5], cache)[0]
        steps = torch.cat([prefix] + [ours(tokens[:, i : i + 1], cache)[0] for i in range(5, tokens.shape[1])])
        assert_close(steps, full, 1e-5)
        assert len(cache[0]) == tokens.shape[1]
        # greedy decoding with the cache: the ids transformers' generate picks
        prompt, cache, ids = tokens[:, :6], ours.new_cache(), []
        logits = ours(prompt, cache)[0, -1]
        for _ in range(12):
            ids.append(int(logits.argmax()))
            logits = ours(torch.tensor([[ids[-1]]]), cache)[0, -1]
        want = theirs.generate(prompt, max_new_tokens=12, do_sample=False, pad_token_id=0)[0, 6:].tolist()
    assert ids == want


def test_the_knock_out_of_an_expert_reroutes_its_tokens():
    theirs = tiny_hf_granite()
    ours = ours_from(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    tokens = sequences()[3]
    with torch.no_grad(), trace("blocks.0.moe.expert_index") as before:
        plain = ours(tokens)
    chose = (before["blocks.0.moe.expert_index"][..., :TOP_K] == 1).any(-1)
    assert chose.any()
    with torch.no_grad(), intervene({"blocks.0.moe.router_logits": expert_off(1)}), trace("blocks.*.moe.*") as t:
        off = ours(tokens)
    assert not (t["blocks.0.moe.expert_index"][..., :TOP_K] == 1).any()
    assert (off - plain).abs().max() > 1e-3 * plain.abs().max()


def test_activation_patching_serves_granite_and_its_batched_rows_equal_single_runs():
    """models/interventions.py runs T patched rows as one batch through the blocks above the layer: with no capacity
    limit a token's experts do not depend on the other rows, so each row equals its own run through ``intervene``."""
    from models import interventions

    theirs = tiny_hf_granite()
    ours = ours_from(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    clean, corrupted = [5, 17, 42, 99, 7, 250], [5, 17, 42, 123, 7, 250]
    with torch.no_grad():
        last = ours(torch.tensor([clean]))[0, -1]
    answer, wrong = int(last.argmax()), int(last.argmin())
    grid = interventions.activation_patching(ours, clean, corrupted, answer, wrong)
    assert grid.shape == (LAYERS + 1, len(clean))
    for layer, position in ((0, 3), (1, 3), (2, 5), (1, 0)):
        one = interventions.restored(ours, clean, corrupted, answer, wrong, layer, [position])
        assert abs(grid[layer, position] - one) < 1e-4, (layer, position)
    # before block 0 only the changed token differs; after the last block only the last position reads out
    assert abs(grid[0, 3] - 1.0) < 1e-6 and abs(grid[LAYERS, -1] - 1.0) < 1e-6 and abs(grid[LAYERS, 3]) < 1e-6
    assert abs(grid[1, 3] - 1.0) > 1e-3  # after block 0 the later positions have read the changed token too


@pytest.mark.parametrize(
    "change, words",
    [
        ({"architectures": ["GraniteMoeSharedForCausalLM"], "shared_intermediate_size": 16}, "shared experts"),
        ({"attention_bias": True}, "biases"),
        ({"hidden_act": "gelu"}, "activation"),
        ({"rope_parameters": {"rope_type": "linear", "factor": 4.0, "rope_theta": 1e4}}, "RoPE scaling"),
        ({"architectures": ["GraniteMoeHybridForCausalLM"], "model_type": "granitemoehybrid"}, "not the Granite"),
    ],
)
def test_what_our_class_lacks_is_refused_by_name(change, words):
    hf_config = json.loads(tiny_hf_granite().config.to_json_string()) | change
    with pytest.raises(ValueError, match=words):
        convert.config_from_hf(hf_config)


def test_a_real_granite_moe_shared_checkpoint_is_refused_for_its_shared_experts():
    config = transformers.GraniteMoeSharedConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        intermediate_size=24,
        num_hidden_layers=1,
        num_attention_heads=4,
        num_local_experts=EXPERTS,
        num_experts_per_tok=TOP_K,
        shared_intermediate_size=16,
    )
    theirs = transformers.GraniteMoeSharedForCausalLM(config)
    with pytest.raises(ValueError, match="shared experts"):
        convert.from_hf(json.loads(config.to_json_string()), theirs.state_dict())
    assert pretrained.accepting(["GraniteMoeSharedForCausalLM"]) is None  # the by-id path names the architecture


def test_a_repository_id_naming_granite_moe_is_served_by_the_by_id_path(fake_hub, tmp_path):
    assert pretrained.accepting(["GraniteMoeForCausalLM"]) is convert
    theirs = tiny_hf_granite()
    repo = "learner/tiny-granite-moe"
    fake_hub.add(repo, save_repo(theirs, tmp_path / "repo"))
    key = hub.resolve(repo)
    assert key == "hf--learner--tiny-granite-moe" and pretrained.KNOWN[key].arch == "granite"
    assert key in pretrained.available("granite")
    pretrained.prepare(key)
    model = zoo.load(key)  # built on the meta device, the converted tensors assigned
    tokens = sequences()[2]
    with torch.no_grad():
        assert_close(model(tokens), theirs(tokens).logits, 1e-5)
    shared = "learner/tiny-granite-shared"
    config = transformers.GraniteMoeSharedConfig(
        vocab_size=VOCAB, hidden_size=32, intermediate_size=24, num_hidden_layers=1, num_attention_heads=4
    )
    fake_hub.add(shared, save_repo(transformers.GraniteMoeSharedForCausalLM(config), tmp_path / "shared"))
    with pytest.raises(hub.HubError) as refused:
        hub.resolve(shared)
    assert refused.value.reason == "architecture" and "GraniteMoeSharedForCausalLM" in str(refused.value)


# ---- the MoE layer's expert option ----------------------------------------------------------------------------------


def test_swiglu_experts_compute_the_gated_feed_forward_and_the_default_stays_the_mlp():
    torch.manual_seed(3)
    x = torch.randn(2, 5, 16)
    gated = name_probes(MoE(16, 8, 4, top_k=2, capacity_factor=0.0, activation="silu", expert="swiglu")).eval()
    expert = gated.experts[0]
    assert {n for n, _ in expert.named_parameters()} == {"w1.weight", "w2.weight", "w3.weight"}
    with torch.no_grad(), trace("*") as t:
        y, _ = gated(x)
        flat = x.reshape(-1, 16)
        index, combine = t["expert_index"].reshape(10, -1), t["combine"].reshape(10, -1)
        want = torch.zeros_like(flat)
        for r in range(2):
            for n in range(10):
                e = gated.experts[int(index[n, r])]
                h = torch.nn.functional.silu(flat[n] @ e.w1.weight.T) * (flat[n] @ e.w3.weight.T)
                want[n] += combine[n, r] * (h @ e.w2.weight.T)
    assert_close(y.reshape(-1, 16), want, 1e-5)
    # the default is unchanged: two-layer MLP experts with biases (fc1, fc2), GELU, Switch's capacity
    plain = MoE(16, 8, 4)
    assert {n for n, _ in plain.experts[0].named_parameters()} == {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}
    assert plain.experts[0].activation == "gelu" and plain.capacity_factor == 1.25
    with pytest.raises(ValueError, match="expert"):
        MoE(16, 8, 4, expert="glu")


# ---- sizes of the real model ----------------------------------------------------------------------------------------


def test_param_count_matches_the_built_model_and_the_released_models_name():
    tiny = granite.PRESETS["tiny"]
    model = granite.Granite(tiny)
    total, active = granite.param_count(tiny)
    assert total == zoo.parameter_count(model)
    per_expert = sum(p.numel() for p in model.blocks[0].moe.experts[0].parameters())
    assert active == total - tiny.n_layers * (tiny.n_experts - tiny.top_k) * per_expert
    # granite-3.0-1b-a400m's sizes (the defaults): "1b" in all, "a400m" active per token
    total, active = granite.param_count(granite.Config())
    assert 1.2e9 < total < 1.4e9 and 3.5e8 < active < 4.5e8
