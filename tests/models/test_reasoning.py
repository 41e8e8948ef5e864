"""The reasoning task (models/data/chains.py), GRPO's maths (models/rl.py), the recipe's decoding
(models/recipes/reasoning.py) and the shipped ``direct``, ``cot``, ``grpo-start`` and ``grpo`` checkpoints."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models import gpt, rl, zoo
from models.data import chains
from models.recipes import reasoning

P = chains.Problem(3, (("+", 4), ("*", 3), ("-", 5)))


def shipped(*names):
    return pytest.mark.skipif(not set(names) <= set(zoo.available()), reason=f"needs {', '.join(names)}")


# ---- the task --------------------------------------------------------------------------------------------------------


def test_a_chain_is_worked_left_to_right_keeping_the_last_digit():
    assert P.question == "3+4*3-5" and P.prompt == "3+4*3-5__________:"  # eight operation slots, then ":"
    assert P.values() == [7, 1, 6]  # 3 + 4 = 7; 7 × 3 = 21 -> 1; 1 − 5 = −4 -> 6
    assert P.completion("direct") == "=6." and P.completion("cot") == "3,7,1,6=6."
    assert chains.apply(2, "-", 9) == 3 and chains.apply(9, "*", 9) == 1
    with pytest.raises(ValueError):
        P.completion("essay")


def test_every_operation_is_a_bijection_so_chance_is_a_tenth():
    for op, ds in (("+", range(1, 10)), ("-", range(1, 10)), ("*", chains.MULTIPLIERS)):
        for d in ds:
            assert sorted(chains.apply(x, op, d) for x in range(10)) == list(range(10))


def test_the_longest_scratchpad_fits_the_context():
    longest = chains.Problem(9, (("*", 7),) * chains.MAX_STEPS)
    assert len(longest.prompt + longest.completion("cot")) == chains.CONTEXT
    # every prompt has one length, so the i-th operation sits at one position whatever the number of operations
    assert {len(chains.Problem(1, (("+", 2),) * k).prompt) for k in range(1, 9)} == {chains.PROMPT_LENGTH}
    assert chains.Problem(1, (("+", 2),)).prompt.index(":") == longest.prompt.index(":")
    assert chains.written_values("3,7,1,6=6.") == [7, 1, 6] and chains.written_values("3,7,12=6.") == [7, None]


def test_prompts_parse_back_and_bad_ones_say_why():
    assert chains.parse("3+4*3-5") == P == chains.parse(" 3+4*3-5: ") == chains.parse(P.prompt)
    assert chains.parse("3+4*3-5__") == P
    for bad in ("", "3", "34+1", "3+0", "3*2", "3/4", "3+4" * 9, "3 + 4"):
        with pytest.raises(ValueError):
            chains.parse(bad)


def test_held_out_problems_never_reach_training():
    rng = np.random.default_rng(0)
    train = chains.problems(rng, 2, 2000, split="train")
    test = chains.problems(np.random.default_rng(1), 2, 40, split="held_out")
    assert not any(chains.held_out(p) for p in train) and all(chains.held_out(p) for p in test)
    assert len({p.prompt for p in test}) == len(test)  # distinct where enough exist
    assert not {p.prompt for p in train} & {p.prompt for p in test}
    # single operations are the table: all trained, nothing held out
    assert not any(
        chains.held_out(chains.Problem(x, ((op, d),))) for x in range(10) for op in "+-" for d in range(1, 10)
    )


@pytest.mark.parametrize(
    "completion, well_formed, correct, reward",
    [
        ("7,1,6=6.", True, True, 1.1),
        ("=6.", True, True, 1.1),  # no steps is still the format
        ("7,1,5=5.", True, False, 0.1),  # wrong answer, right form
        ("9=6.", True, True, 1.1),  # the steps are not checked: only the answer is verifiable
        ("7,1,6=6", False, False, 0.0),  # no end mark
        ("7,1,6=66.", False, False, 0.0),
        ("6.", False, False, 0.0),  # the right digit without '=' earns nothing
        ("7,,1=6.", False, False, 0.0),
        ("", False, False, 0.0),
    ],
)
def test_the_reward_rule(completion, well_formed, correct, reward):
    j = chains.judge(completion, P)
    assert (j.well_formed, j.correct) == (well_formed, correct) and j.reward == pytest.approx(reward)


def test_training_rows_score_only_the_completion():
    ids, mask = chains.batch([P], "cot", length=30)
    text = "3+4*3-5__________:3,7,1,6=6."
    assert chains.decode(ids[0]) == text and ids.shape == (1, 31)
    # the position of ':' predicts the first completion token; the '.' is the last target
    assert mask[0].nonzero()[0].tolist() == list(range(len(P.prompt) - 1, len(text) - 1))
    assert chains.encode(text) == ids[0, : len(text)].tolist()


def test_a_batch_takes_one_style_per_row():
    q = chains.parse("7-2")
    ids, mask = chains.batch([P, q], ["direct", "cot"], length=30)
    assert chains.decode(ids[0]) == P.prompt + "=6." and chains.decode(ids[1]) == q.prompt + "7,5=5."
    assert mask.sum(1).tolist() == [3, 6]
    with pytest.raises(ValueError):
        chains.batch([P, q], ["cot"])


def test_writes_steps_counts_completions_that_work_before_answering():
    assert reasoning.writes_steps(["=6.", "3,7,1,6=6.", "3,7=1.", "=2."]) == 0.5
    assert reasoning.writes_steps(["", "=1.", "3,7", "5"]) == 0.5  # steps with no answer still count


def test_mixed_steps_keeps_its_share_of_hard_problems():
    k = reasoning.mixed_steps(np.random.default_rng(0), 20000, 5, 0.1, 0.3)
    assert k.min() == 1 and k.max() == 6
    assert abs((k == 6).mean() - 0.1) < 0.01 and abs((k == 1).mean() - 0.3) < 0.01


# ---- GRPO's maths ----------------------------------------------------------------------------------------------------


def test_group_advantages_are_normalised_within_each_group():
    a = rl.group_advantages(np.array([[1.1, 0.1, 0.1, 1.1], [0.0, 0.0, 0.0, 0.0]]))
    # mean 0.6, population std 0.5: ±1 (up to the 1e-4 added to the std)
    assert np.allclose(a[0], [1, -1, -1, 1], rtol=1e-3) and np.all(a[1] == 0)


def test_grpo_loss_by_hand():
    # two outputs of two tokens; the second output has only one token
    logp = torch.log(torch.tensor([[0.5, 0.4], [0.2, 0.3]]))
    old = torch.log(torch.tensor([[0.4, 0.4], [0.4, 0.3]]))
    ref = torch.log(torch.tensor([[0.5, 0.2], [0.2, 0.3]]))
    adv = torch.tensor([1.0, -2.0])
    mask = torch.tensor([[True, True], [True, False]])
    loss, parts = rl.grpo_loss(logp, old, ref, adv, mask, clip=0.2, beta=0.1)
    # output 1: ratios 1.25 (clipped to 1.2 for A > 0) and 1.0 -> surrogates 1.2, 1.0
    #           KL: token 1 ref = π -> 0; token 2: 0.5 − ln 0.5 − 1 = 0.193147
    # output 2: ratio 0.5 with A = −2: min(0.5 · −2, clip(0.5) · −2 = 0.8 · −2) = −1.6 (the clip is the smaller
    #           term: pessimistic for a negative advantage too); KL 0
    j1 = ((1.2 - 0) + (1.0 - 0.1 * (0.5 - np.log(0.5) - 1))) / 2
    j2 = -1.6
    assert loss.item() == pytest.approx(-(j1 + j2) / 2, rel=1e-5)
    assert parts["clipped"] == pytest.approx(2 / 3)  # output 1 token 1, output 2 token 1


def test_grpo_loss_gradient_pushes_with_the_advantage():
    logp = torch.log(torch.tensor([[0.5], [0.5]])).requires_grad_(True)
    loss, _ = rl.grpo_loss(logp, logp.detach(), logp.detach(), torch.tensor([1.0, -1.0]), torch.ones(2, 1, dtype=bool))
    loss.backward()
    assert logp.grad[0, 0] < 0 < logp.grad[1, 0]  # descending the loss raises the good token, lowers the bad one
    assert np.allclose(rl.token_weights(np.array([1.0, -1.0]), np.array([1, 1])), [0.5, -0.5])


def test_kl_estimate_is_zero_only_at_equality():
    lp = torch.log(torch.tensor([0.1, 0.5, 0.9]))
    assert torch.all(rl.kl_k3(lp, lp) == 0)
    assert torch.all(rl.kl_k3(lp, torch.log(torch.tensor([0.2, 0.4, 0.8]))) > 0)


# ---- decoding --------------------------------------------------------------------------------------------------------


def test_cached_decoding_equals_full_forward_greedy():
    torch.manual_seed(0)
    model = reasoning.build().eval()
    s = reasoning.decode(model, [P.prompt, chains.parse("1-2*7+9").prompt])
    for r in range(2):
        seq = chains.encode(s.prompts[r])
        for _ in range(s.mask[r].sum()):
            with torch.no_grad():
                seq.append(int(model(torch.tensor([seq]))[0, -1].argmax()))
        assert s.ids[r, : len(seq)].tolist() == seq
    # the recorded log-probabilities are those of a fresh forward pass
    with torch.no_grad():
        again = gpt.token_logprobs(model, s.ids)
    assert torch.allclose(again[s.mask], s.logp[s.mask], atol=1e-4)


def test_decode_takes_prompts_of_one_length():
    model = reasoning.build().eval()
    with pytest.raises(ValueError):
        reasoning.decode(model, ["3+4:", "3+4*3:"])  # not our prompts (unpadded), but the rule holds for any


# ---- the shipped checkpoints -----------------------------------------------------------------------------------------

GOLDEN_PROBLEMS = ("3+4*3-5", "7-2", "1*9+6-3*7+2", "5+5-9*3+8*7")
GOLDEN = {  # name -> greedy completions of GOLDEN_PROBLEMS, from the shipped checkpoints (true answers 6, 5, 6, 7)
    "cot": ["3,7,1,6=6.", "7,5=5.", "1,9,5,2,4,6=6.", "5,0,1,3,1,7=7."],
    "direct": ["=4.", "=5.", "=8.", "=7."],
    "grpo-start": ["=1.", "=3.", "=0.", "=6."],  # it can work the steps, but mostly answers at once
    "grpo": ["3,7,1,6=6.", "7,5=5.", "1,9,5,2,4,6=6.", "5,0,1,3,1,7=7."],  # RL taught it to write them
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_completions(name):
    if name not in zoo.available():
        pytest.skip(f"no {name} checkpoint")
    problems = [chains.parse(q) for q in GOLDEN_PROBLEMS]
    assert reasoning.greedy_completions(zoo.load(name), problems) == GOLDEN[name]


@shipped("direct", "cot")
def test_cot_writes_one_value_per_operation_and_direct_only_the_answer():
    problems = reasoning.held_out_set(4, 20)
    for c in reasoning.greedy_completions(zoo.load("cot"), problems):
        assert chains.FORMAT.match(c) and len(chains.written_values(c)) == 4
    for c in reasoning.greedy_completions(zoo.load("direct"), problems):
        assert chains.FORMAT.match(c) and c.startswith("=")


@shipped("grpo")
def test_grpo_card_records_its_curves():
    card = zoo.read_card("grpo")
    curves = card["grpo_curves"]
    assert len({len(v) for v in curves.values()}) == 1 and curves["step"][-1] == card["settings"]["steps"]
    assert curves["held_out_accuracy"][-1] > curves["held_out_accuracy"][0]


@shipped("grpo-start", "grpo")
def test_rl_taught_the_start_to_write_the_steps():
    problems = reasoning.held_out_set(5, 40)
    before = reasoning.greedy_completions(zoo.load("grpo-start"), problems)
    after = reasoning.greedy_completions(zoo.load("grpo"), problems)
    assert reasoning.writes_steps(before) < 0.5 and reasoning.writes_steps(after) == 1.0
    assert sum(chains.judge(c, p).correct for c, p in zip(after, problems)) >= 38


@shipped("grpo-start")
def test_sampled_pass_and_majority_at_k():
    problems = reasoning.held_out_set(6, 40)
    passed, majority = reasoning.sampled_at_k(zoo.load("grpo-start"), problems, k=4)
    # a right majority answer is a right answer among the samples; the start often answers directly and wrongly
    assert 0 < majority < passed <= 1
    assert (passed * 40).is_integer() and (majority * 40).is_integer()
    assert reasoning.sampled_at_k(zoo.load("grpo-start"), problems, k=4) == (passed, majority)  # a fixed seed
