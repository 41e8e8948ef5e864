"""Steering (models/steering.py): α = 0 is the plain generation bit for bit; a non-zero α gives the logits of the
stream read with the probes, the vector added by hand and the remaining blocks run directly; the difference-of-means
direction is the one computed here from the activations read directly; on our GPT (with an SAE feature of gpt-sae)
and on a tiny converted stand-in for SmolLM2."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from models import gpt, llama, metrics, steering, zoo
from models.interventions import run_blocks
from models.probe import intervene, trace
from tests.models.tolerance import assert_close

TEXT = "First Citizen.\nBefore we proceed"
SAE_LAYER = 1  # gpt-sae reads blocks.1.resid
FEATURE = 3790  # fires on "Enter" of the plays' stage directions


@pytest.fixture(scope="module")
def ours():
    return zoo.load("gpt").eval(), zoo.load("gpt-sae").eval()


GPT_PROMPT = [0, *metrics.tokenizer(zoo.checkpoint_dir("gpt")).encode(TEXT).ids]  # <|endoftext|> first, as trained


@pytest.fixture(scope="module")
def tiny_smollm2():
    """A tiny random LlamaForCausalLM with tied embeddings (as SmolLM2's), converted into models.llama."""
    pytest.importorskip("transformers")
    from models.pretrained import llama as convert
    from tests.real_models import tiny_hf_llama

    theirs = tiny_hf_llama(tie_word_embeddings=True)
    config, state = convert.from_hf(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    model = llama.build(config).eval()
    model.load_state_dict(state, strict=True)
    return model


def prompts(seed: int, n: int, vocab: int) -> list[list[int]]:
    g = np.random.default_rng(seed)
    return [g.integers(1, vocab, size=int(g.integers(3, 9))).tolist() for _ in range(n)]


def recorded_plain(model, prompt, n, **sampling):
    """Every step's logits and the ids of models.gpt.decode over the eager step, with no override anywhere."""
    step, seen = gpt.eager_step(model), []

    def rec(tokens, start, past):
        logits, present = step(tokens, start, past)
        seen.append(logits)
        return logits, present

    ids = list(gpt.decode(rec, prompt, n, max_len=model.config.max_len, **sampling))
    return ids, seen


def by_hand(model, tokens: list[int], layer: int, vector: torch.Tensor) -> torch.Tensor:
    """The logits (T, V) with ``vector`` added to the stream after block ``layer`` at every position: the stream read
    with a trace, the vector added here, the blocks above run one by one, then the unembedding."""
    name = f"blocks.{layer}.resid"
    with torch.inference_mode(), trace(name) as t:
        model.trunk(torch.tensor([tokens]))
    x = t[name] + vector.float()
    with torch.inference_mode():
        return model.unembed(run_blocks(model, x, layer + 1))[0].double()


@pytest.mark.parametrize("sampling", [{"temperature": 0.0}, {"temperature": 0.9, "top_k": 40, "seed": 7}])
def test_alpha_zero_is_exactly_the_plain_generation(ours, sampling):
    model, d = ours
    s = steering.generate(model, GPT_PROMPT, 24, SAE_LAYER, steering.feature_direction(d, FEATURE), 0.0, **sampling)
    ids, seen = recorded_plain(model, GPT_PROMPT, 24, **sampling)
    assert list(s.plain) == ids and list(s.steered) == ids and len(ids) == 24
    assert np.array_equal(s.plain_logits, seen[0]) and np.array_equal(s.steered_logits, seen[0])
    assert s.shift.kl == 0.0 and not s.shift.logit_change.any()
    # every step, not only the first: the override with α = 0 passes the stream on unchanged
    zero = steering.steer(SAE_LAYER, 0.0 * steering.feature_direction(d, FEATURE).float())
    with intervene(zero):
        ids0, seen0 = recorded_plain(model, GPT_PROMPT, 24, **sampling)
    assert ids0 == ids and all(np.array_equal(a, b) for a, b in zip(seen0, seen))


def test_alpha_zero_on_the_tiny_smollm2_is_exactly_the_plain_generation(tiny_smollm2):
    model = tiny_smollm2
    u = steering.difference_of_means(model, prompts(1, 3, 101), prompts(2, 3, 101), 0)
    s = steering.generate(model, [5, 17, 33, 2], 12, 0, u, 0.0)
    ids, seen = recorded_plain(model, [5, 17, 33, 2], 12, temperature=0.0)
    assert list(s.steered) == list(s.plain) == ids and np.array_equal(s.steered_logits, seen[0])


def test_a_feature_direction_moves_the_logits_as_the_vector_added_by_hand(ours):
    model, d = ours
    u = steering.feature_direction(d, FEATURE)
    assert torch.allclose(u, (d.W_dec[:, FEATURE] / d.W_dec[:, FEATURE].norm()).double().detach())
    s = steering.generate(model, GPT_PROMPT, 16, SAE_LAYER, u, 0.2)
    with torch.inference_mode(), trace("blocks.1.resid") as t:
        model.trunk(torch.tensor([GPT_PROMPT]))
    nu = float(t["blocks.1.resid"][0].norm(dim=-1).median())
    assert s.norm == pytest.approx(nu, rel=1e-6)
    vector = 0.2 * nu * u
    want = by_hand(model, GPT_PROMPT, SAE_LAYER, vector)[-1].numpy()
    assert_close(s.steered_logits, want, 1e-4)
    change = s.steered_logits - s.plain_logits
    assert np.abs(change).max() > 0.5 and s.shift.kl > 0.01  # a move the comparison above could have missed
    # at every generated position too: the steered greedy ids are the argmax of the by-hand run over them
    seq = GPT_PROMPT + list(s.steered)
    forced = by_hand(model, seq[:-1], SAE_LAYER, vector)[len(GPT_PROMPT) - 1 :]
    assert forced.argmax(-1).tolist() == list(s.steered)
    assert list(s.steered) != list(s.plain)


def test_the_kv_cache_and_rereading_give_the_same_steered_ids(ours):
    model, d = ours
    u = steering.feature_direction(d, FEATURE)
    cached = steering.generate(model, GPT_PROMPT, 12, SAE_LAYER, u, 0.15)
    reread = steering.generate(model, GPT_PROMPT, 12, SAE_LAYER, u, 0.15, cache=False)
    assert cached.steered == reread.steered and cached.plain == reread.plain
    assert_close(cached.steered_logits, reread.steered_logits, 1e-5)


def direct_mean(model, ps, layer):
    name = f"blocks.{layer}.resid"
    rows = []
    for p in ps:
        with torch.inference_mode(), trace(name) as t:
            model(torch.tensor([p]))
        rows.append(t[name][0, -1].double())
    return torch.stack(rows).mean(0)


@pytest.mark.parametrize("which", ["ours", "tiny_smollm2"])
def test_the_difference_of_means_is_the_one_read_directly(which, request):
    model = request.getfixturevalue(which)
    model = model[0] if isinstance(model, tuple) else model
    vocab = model.config.vocab
    a, b = prompts(3, 4, vocab), prompts(4, 5, vocab)
    layer = len(model.blocks) - 2
    got = steering.difference_of_means(model, a, b, layer)
    diff = direct_mean(model, a, layer) - direct_mean(model, b, layer)
    assert_close(got, diff / diff.norm(), 1e-6)
    assert float(got.norm()) == pytest.approx(1.0)


def test_steering_the_tiny_smollm2_matches_the_vector_added_by_hand(tiny_smollm2):
    model = tiny_smollm2
    u = steering.difference_of_means(model, prompts(5, 3, 101), prompts(6, 3, 101), 1)
    prompt = [7, 40, 3, 91, 12, 55]
    s = steering.generate(model, prompt, 8, 1, u, 1.5)
    want = by_hand(model, prompt, 1, 1.5 * s.norm * u)[-1].numpy()
    assert_close(s.steered_logits, want, 1e-4)
    assert np.abs(s.steered_logits - s.plain_logits).max() > 0.05


def test_bad_prompt_lists_are_refused(tiny_smollm2):
    with pytest.raises(ValueError):
        steering.difference_of_means(tiny_smollm2, [], [[1, 2]], 0)
    with pytest.raises(ValueError):
        steering.difference_of_means(tiny_smollm2, [[4, 5, 6]], [[4, 5, 6]], 0)


def test_the_shift_ranks_by_probability_and_its_kl_is_torchs():
    g = torch.Generator().manual_seed(0)
    p, q = torch.randn(50, generator=g, dtype=torch.float64), torch.randn(50, generator=g, dtype=torch.float64)
    sh = steering.shift(p.numpy(), q.numpy(), top=5)
    kl = torch.nn.functional.kl_div(q.log_softmax(0), p.log_softmax(0), log_target=True, reduction="sum")
    assert sh.kl == pytest.approx(float(kl), rel=1e-9)
    rise = (q.softmax(0) - p.softmax(0)).numpy()
    assert [i for i, _, _ in sh.promoted] == np.argsort(-rise)[:5].tolist()
    assert [i for i, _, _ in sh.suppressed] == np.argsort(rise)[:5].tolist()
    assert sh.promoted[0][2] > sh.promoted[0][1]
