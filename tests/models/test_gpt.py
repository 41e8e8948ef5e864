"""GPT (models/gpt.py), its recipe (models/recipes/gpt.py), the shared LM metrics (models/metrics.py), sampling
(models/sampling.py), tokenizer and corpus."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest
import safetensors.torch
import torch
import torch.nn.functional as F

from models import gpt, metrics, sampling, zoo
from models import recipes as registry
from models.data import bpe, shakespeare
from models.engine import Engine
from models.recipes import gpt as recipe
from models.train import settings_for
from models.training import Trainer
from tests.models.tolerance import assert_close

# Greedy continuation of the shipped checkpoint (torch, CPU). Regenerate only when the checkpoint is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [619, 14, 199, 199, 59, 524, 259, 457, 1775, 355, 199, 199, 45, 1775, 14, 199]
GOLDEN_TEXT = " king.\n\n[Enter a MESSENGER.]\n\nMESSENGER.\n"


@pytest.fixture(scope="module")
def tiny() -> gpt.GPT:
    torch.manual_seed(0)
    return gpt.build(asdict(gpt.PRESETS["tiny"])).eval()


@pytest.fixture(scope="module")
def shipped() -> gpt.GPT:
    return zoo.load("gpt")


@pytest.fixture(scope="module")
def tok():
    return metrics.tokenizer(zoo.checkpoint_dir("gpt"))


# ---- the model -----------------------------------------------------------------------------------------------------


def test_shapes_and_pinned_parameter_counts(tiny):
    x = torch.randint(0, 300, (3, 7))
    assert tiny(x).shape == (3, 7, 300)
    assert zoo.parameter_count(tiny) == 37_120
    assert zoo.parameter_count(gpt.build(asdict(gpt.PRESETS["shipped"]))) == 2_222_208


def test_output_embedding_is_tied(tiny):
    x = torch.randint(0, 300, (1, 5))
    manual = (
        tiny.ln_f(tiny.blocks[-1](tiny.blocks[0](tiny.pos(tiny.embed(x)), gpt.causal_mask(5)), gpt.causal_mask(5)))
        @ tiny.embed.weight.T
    )
    assert torch.allclose(tiny(x), manual, atol=1e-5)


@torch.no_grad()
def test_causality_under_perturbation(tiny):
    torch.manual_seed(1)
    x = torch.randint(0, 300, (2, 20))
    base = tiny(x)
    for t in (0, 7, 19):
        y = x.clone()
        y[:, t] = (y[:, t] + 1) % 300
        out = tiny(y)
        assert torch.allclose(out[:, :t], base[:, :t], atol=1e-6), f"position < {t} saw the change"
        assert not torch.allclose(out[:, t:], base[:, t:], atol=1e-6)


@torch.no_grad()
def test_cached_decoding_equals_full_forward(tiny):
    torch.manual_seed(2)
    x = torch.randint(0, 300, (2, 24))
    full = tiny(x)
    cache = tiny.new_cache()
    parts = [tiny(x[:, :10], cache)]
    for t in range(10, 24):
        parts.append(tiny(x[:, t : t + 1], cache))
    assert len(cache[0]) == 24
    assert torch.allclose(torch.cat(parts, dim=1), full, atol=1e-5)


def test_generate_with_cache_equals_greedy_full_forward(tiny):
    prompt = [0, 5, 17, 42]
    fast = list(gpt.generate(tiny, prompt, 12, temperature=0.0))
    seq = list(prompt)
    with torch.no_grad():
        for _ in range(12):
            seq.append(int(tiny(torch.tensor([seq]))[0, -1].argmax()))
    assert fast == seq[len(prompt) :]


def test_context_is_bounded(tiny):
    with pytest.raises(ValueError):
        tiny(torch.zeros(1, 65, dtype=torch.long))
    assert len(list(gpt.generate(tiny, [0] * 60, 10, temperature=0.0))) == 4


def test_probes_are_recorded(tiny):
    from models.probe import trace

    with trace("embedded", "blocks.*.resid", "blocks.*.attn.pattern") as t:
        tiny(torch.randint(0, 300, (1, 9)))
    assert set(t.keys()) == {
        "embedded",
        "blocks.0.resid",
        "blocks.1.resid",
        "blocks.0.attn.pattern",
        "blocks.1.attn.pattern",
    }
    pattern = t["blocks.1.attn.pattern"]
    assert pattern.shape == (1, 4, 9, 9)
    assert torch.all(pattern.triu(1) < 1e-6)  # causal
    assert torch.allclose(pattern.sum(-1), torch.ones(1, 4, 9))


def test_sliding_window_evaluation_scores_every_token_once(tiny):
    ids = np.random.default_rng(0).integers(0, 300, 150)
    ids[0] = 0
    with torch.no_grad():
        short = ids[:60]
        full = F.cross_entropy(
            tiny(torch.from_numpy(short[:-1])[None])[0], torch.from_numpy(short[1:]), reduction="sum"
        ).item()
    assert metrics.document_nats(tiny, short) == pytest.approx(full, rel=1e-5)
    # stride = context: disjoint windows, so the total is the sum over windows of whole-window losses
    nats = metrics.document_nats(tiny, ids, stride=64)
    manual = 0.0
    with torch.no_grad():
        for s in range(0, 149, 64):
            chunk = torch.from_numpy(ids[s : s + 65])[None]
            manual += F.cross_entropy(tiny(chunk[:, :-1])[0], chunk[0, 1:], reduction="sum").item()
    assert nats == pytest.approx(manual, rel=1e-5)


def test_induction_batch_repeats_merged_tokens():
    batch = metrics.induction_batch(2048, n=3, length=10, seed=0)
    assert batch.shape == (3, 21)
    assert np.all(batch[:, 0] == 0)
    assert np.array_equal(batch[:, 1:11], batch[:, 11:])
    assert batch[:, 1:].min() >= 257


def test_induction_batch_on_a_vocabulary_without_merges_draws_every_id_but_the_first():
    """A word-level vocabulary of 97 ids (a converted real model's may be small) has no ids past the 256 bytes: the
    batch draws from ids 1..96 instead of failing (the GPT page's in-context view on such a model raised)."""
    batch = metrics.induction_batch(97, n=4, length=30, seed=0)
    assert batch.shape == (4, 61) and (batch[:, 0] == 0).all()
    assert 1 <= batch[:, 1:].min() and batch.max() < 97
    np.testing.assert_array_equal(batch[:, 1:31], batch[:, 31:])


def test_stage2_repeats_mask_what_nothing_predicts():
    rng = np.random.default_rng(0)
    text = (torch.arange(257)[None].repeat(4, 1) for _ in iter(int, 1))
    chunk, keep = next(recipe.with_repeats(text, rng, 2048, 1.0, 60, random=1.0))
    assert chunk.shape == (4, 257) and keep.shape == (4, 256)
    for row in range(4):
        changed = np.flatnonzero(chunk[row].numpy() != np.arange(257))
        first = int(changed[0])  # the first copy starts here; its targets are masked, the repeats' are not
        assert not keep[row, first - 1] and keep[row, changed[-1] - 1]
    for _ in range(5):
        chunk, keep = next(recipe.repeated_random(rng, 2048, 3, 5, 5))  # <|endoftext|>, 0–5 prefix ids, 5 ids twice
        assert 11 <= chunk.shape[1] <= 16 and keep.shape == (3, chunk.shape[1] - 1)
        assert torch.equal(chunk[:, -10:-5], chunk[:, -5:]) and torch.all(chunk[:, 0] == 0)
        assert keep.sum(1).tolist() == [4, 4, 4] and keep[:, -4:].all()  # the second copy, less its first token


def test_the_prefix_curriculum_starts_without_a_prefix():
    batches = recipe.repeated_random(np.random.default_rng(0), 2048, 2, 6, 6, prefix=True, prefix_from=20)
    lengths = [next(batches)[0].shape[1] for _ in range(60)]
    assert set(lengths[:20]) == {13}  # <|endoftext|> and 6 ids twice, nothing before them
    assert max(lengths[20:]) > 13  # then a prefix of 0–6 ids


def test_induction_after_text_scores_only_the_copies(tiny, monkeypatch):
    """The ratio reads targets 2..L of each copy, never the text before them."""
    text = np.arange(1000) % 250 + 1
    seen = {}

    def losses(model, tokens):  # loss 100 on the text, 4 on the first copy, 1 on the repeat
        seen["tokens"] = tokens
        out = np.full((tokens.shape[0], tokens.shape[1] - 1), 100.0)
        out[:, 20 : 20 + 10], out[:, 30:] = 4.0, 1.0  # target j predicts tokens[:, j + 1]
        return out

    monkeypatch.setattr(metrics, "token_losses", losses)
    assert metrics.induction_ratio_after_text(tiny, text, context=20, n=4, length=10) == pytest.approx(0.25)
    tokens = seen["tokens"]
    assert tokens.shape == (4, 41) and (tokens[:, 0] == 0).all()
    assert np.array_equal(tokens[:, 21:31], tokens[:, 31:]) and tokens[:, 21:].min() >= 257
    assert all(np.isin(row[1:21], text).all() for row in tokens)


# ---- the recipe: stages of one command -----------------------------------------------------------------------------


def settings(*overrides: str) -> dict:
    return settings_for(registry.recipe("gpt"), list(overrides))


def test_default_stages_are_the_three_runs_on_the_card():
    """``python -m models.train gpt`` runs stage 1, 2a and 2b with the hyper-parameters the shipped checkpoint's three
    chained runs used (the card's ``training``: stage 1's keys, stage 2's ``repeat_*`` / ``induction_*`` keys, and
    ``repeat_then`` for phase 2b)."""
    old = zoo.read_card("gpt")["training"]
    stage1 = {k: old[k] for k in ("steps", "batch", "context", "lr", "warmup", "weight_decay")}

    def phase(hp: dict) -> dict:
        return {
            "steps": hp["repeat_steps"],
            "lr": hp["repeat_lr"],
            "warmup": hp["repeat_warmup"],
            "batch": hp["repeat_batch"],
            "context": hp["context"],
            "weight_decay": hp["weight_decay"],
            **{
                k: hp[k]
                for k in (
                    "repeat_fraction",
                    "repeat_longest",
                    "repeat_random",
                    "induction_batch",
                    "induction_longest",
                    "induction_weight",
                )
            },
            **{
                k.removeprefix("induction_"): hp[k]
                for k in ("induction_prefix", "induction_prefix_from", "induction_prefix_max", "induction_prefix_text")
            },
        }

    planned = recipe.plan(settings())
    assert [stage["name"] for stage, _ in planned] == ["1", "2a", "2b"]
    assert planned[0][1] == stage1
    assert {k: v for k, v in planned[1][1].items() if k != "watch_every"} == phase(old)
    assert {k: v for k, v in planned[2][1].items() if k != "watch_every"} == phase({**old, **old["repeat_then"][0]})
    assert [s["stage"].split(":")[0] for s in zoo.read_card("gpt")["stages"]] == ["1", "2a", "2b"]


def test_a_stages_setting_resumes_from_a_checkpoint(tmp_path):
    planned = recipe.plan(settings('stages=["2a","2b"]', "2b.steps=300"), init_from=tmp_path)
    assert [(stage["name"], hp["steps"]) for stage, hp in planned] == [("2a", 4500), ("2b", 300)]
    assert [stage["name"] for stage, _ in recipe.plan(settings("stages=2b"), init_from=tmp_path)] == ["2b"]
    with pytest.raises(ValueError, match="init-from"):
        recipe.plan(settings('stages=["2b"]'))  # stage 2 continues a trained model
    with pytest.raises(ValueError, match="stages"):
        recipe.plan(settings('stages=["1","3"]'))
    with pytest.raises(ValueError, match="no setting"):
        settings("2c.steps=10")


def test_stages_count_their_cosine_from_the_end_of_the_warm_up():
    """The schedule the shipped stages ran with: warm-up, then cosine from lr to lr/10 over the remaining steps."""
    trainer = Trainer(torch.nn.Linear(1, 1), lambda m, b: m(b).sum(), steps=12, lr=1.0, warmup=2)
    lrs = []
    for _ in range(12):
        trainer.step(torch.ones(1, 1))
        lrs.append(trainer.opt.param_groups[0]["lr"])
    assert lrs[:3] == pytest.approx([0.5, 1.0, 1.0])  # warm-up over 2 steps, then the cosine starts at lr
    assert lrs[-1] == pytest.approx(0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * 9 / 10)))  # step 11: 9 of 10 steps after it
    assert trainer.done


@pytest.mark.slow
def test_tiny_stages_run_in_one_command_and_resume(tmp_path):
    tiny = [
        "preset=tiny",
        "1.steps=3",
        "1.context=32",
        "2a.steps=2",
        "2a.context=32",
        "2a.induction_longest=8",
        "2a.watch_every=0",
    ]
    first = recipe.train(registry.Run(seed=0, out=tmp_path, settings=settings('stages=["1","2a"]', *tiny)))
    assert [(s["stage"], s["steps"]) for s in first.stages] == [("1", 3), ("2a", 2)]
    assert first.config["vocab"] == 300 and "3 h" in first.card["note"]
    safetensors.torch.save_model(first.model, str(tmp_path / "model.safetensors"))
    (tmp_path / "config.json").write_text(json.dumps({"recipe": "gpt", "config": first.config}))
    (tmp_path / "tokenizer.json").write_text(first.files["tokenizer.json"])
    again = recipe.train(
        registry.Run(seed=0, out=tmp_path / "next", settings=settings('stages=["2a"]', *tiny), init_from=tmp_path)
    )
    assert [s["stage"] for s in again.stages] == ["2a"]
    assert again.files["tokenizer.json"] == first.files["tokenizer.json"]


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


def test_card_meets_the_language_modelling_bar():
    card = zoo.read_card("gpt")
    assert card["metrics"]["val_bpc"] <= 2.5
    assert card["metrics"]["val_bpc"] < card["metrics"]["bigram_val_bpc"]
    assert card["reproduce"] == "python -m models.train gpt --seed 0"  # every stage in one run
    assert card["command"].count("python -m models.train gpt") == len(card["stages"]) == 3
    assert card["wall_time_s"] == pytest.approx(sum(stage["wall_time_s"] for stage in card["stages"]), abs=0.2)
    assert card["wall_time_s"] > 0


def test_card_meets_the_induction_bar():
    metrics = zoo.read_card("gpt")["metrics"]
    assert metrics["induction_loss_ratio"] <= 0.25
    assert metrics["induction_loss_ratio_prefix30"] <= 0.25  # copying by content, not by position
    assert metrics["induction_head_score"] >= 0.4  # and one head does it, so the page can point to it


def test_induction_score_reads_the_token_after_the_first_copy():
    length, prefix = 6, 3
    T = 1 + prefix + 2 * length
    ideal = np.zeros((2, T, T))
    for q in range(prefix + length + 1, T):
        ideal[0, q, q - length + 1] = 1.0  # an induction head
        ideal[1, q, q - length] = 1.0  # a head on the earlier copy of the current token itself
    assert metrics.induction_scores(ideal, length, prefix).tolist() == [1.0, 0.0]
    uniform = np.tril(np.ones((T, T))) / np.arange(1, T + 1)[:, None]
    assert metrics.induction_scores(uniform, length, prefix) < 0.1


def test_induction_head_score_of_an_untrained_model_is_low(tiny):
    assert 0 < metrics.induction_head_score(tiny, length=10, prefix=5, n=4) < 0.3


def test_a_prefix_moves_the_copies_but_keeps_them_equal():
    batch = metrics.induction_batch(2048, n=2, length=6, seed=0, prefix=4)
    assert batch.shape == (2, 1 + 4 + 12) and (batch[:, 0] == 0).all()
    assert (batch[:, 5:11] == batch[:, 11:]).all() and not (batch[:, 1:5] == batch[:, 5:9]).all()


def test_golden_greedy_continuation(shipped, tok):
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    ids = list(gpt.generate(shipped, prompt, len(GOLDEN_IDS), temperature=0.0))
    assert ids == GOLDEN_IDS
    assert tok.decode(ids) == GOLDEN_TEXT


def test_induction_on_the_shipped_model(shipped):
    assert metrics.induction_loss_ratio(shipped, length=30) < 0.25


def test_onnx_parity_logits_and_probes(tok):
    engine = Engine(device="cpu")
    ids = metrics.encode_document(tok, "O Romeo, Romeo! wherefore art thou Romeo? 你好 🙂")[None]
    ids = np.concatenate([ids, ids[:, ::-1]], axis=0)  # B = 2, and a T unlike the export's example
    probes = ("embedded", "blocks.*.resid", "blocks.*.attn.pattern")
    ref = engine.run("gpt", {"tokens": ids}, probes, backend="torch")
    got = engine.run("gpt", {"tokens": ids}, probes, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)  # float32 on both sides
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 9
    for name, value in ref.probes.items():
        assert_close(got.probes[name], value, 1e-4, err_msg=name)


def test_cached_step_traced_and_exported_equal_the_forward(tiny, tmp_path):
    """gpt.CachedStep: a prefill of 5 tokens then one token at a time, eager, traced and as ONNX, against the full
    forward's logits at every position; the cache grows by one row per call."""
    import onnxruntime as ort

    from models.export import export_step

    step = gpt.CachedStep(tiny).eval()
    traced = torch.jit.trace(step, step.example(), check_trace=False)
    session = ort.InferenceSession(str(export_step(step, tmp_path / "decode.onnx")))
    torch.manual_seed(1)
    seq = torch.randint(0, 300, (1, 12))
    with torch.no_grad():
        full = tiny(seq)[0]

    def run_torch(f):
        def call(tokens, start, past):
            positions, mask = gpt.step_positions(tokens.shape[1], start)
            k, v = past if past is not None else (step.empty_cache(), step.empty_cache())
            with torch.no_grad():
                logits, k, v = f(torch.from_numpy(tokens), torch.from_numpy(positions), torch.from_numpy(mask), k, v)
            return logits.numpy()[0], (k, v)

        return call

    def run_onnx(tokens, start, past):
        positions, mask = gpt.step_positions(tokens.shape[1], start)
        k, v = past if past is not None else (step.empty_cache().numpy(),) * 2
        feed = {"tokens": tokens, "positions": positions, "mask": mask, "past_k": k, "past_v": v}
        logits, k, v = session.run(None, feed)
        return logits[0], (k, v)

    for name, call in (("eager", run_torch(step)), ("traced", run_torch(traced)), ("onnx", run_onnx)):
        logits, past = call(seq[:, :5].numpy(), 0, None)
        assert_close(logits, full[4].numpy(), 1e-5, err_msg=name)
        for t in range(5, 12):
            logits, past = call(seq[:, t : t + 1].numpy(), t, past)
            assert_close(logits, full[t].numpy(), 1e-5, err_msg=f"{name} at {t}")
        assert tuple(past[0].shape) == (2, 1, 4, 12, 8)  # (L, B, H, S, D)


def test_step_positions_mask_is_causal_after_the_cached_ones():
    positions, mask = gpt.step_positions(2, 3)
    assert positions.tolist() == [3, 4]
    assert mask.tolist() == [[True, True, True, True, False], [True, True, True, True, True]]


@pytest.mark.parametrize("backend", ["torch", "onnx"])
def test_shipped_decoding_step_samples_what_generate_samples_with_and_without_the_cache(backend):
    """The engine's one-call step (traced torch, decode.onnx) samples exactly what eager KV-cached generation
    samples, for the same seed, whether it keeps the cache or re-reads the sequence."""
    engine = Engine(device="cpu")
    model = engine.model("gpt")
    prompt = list(range(5, 21))
    kwargs = dict(temperature=0.8, top_k=20, top_p=0.9, seed=3)
    ref = list(gpt.generate(model, prompt, 24, **kwargs))
    step = engine.decode_step("gpt", backend)
    for cache in (True, False):
        assert list(gpt.decode(step, prompt, 24, max_len=model.config.max_len, cache=cache, **kwargs)) == ref
    # and it stops at the context length
    long = list(range(1, model.config.max_len - 2))
    assert len(list(gpt.decode(step, long, 10, max_len=model.config.max_len, temperature=0))) == 3


# ---- tokenizer and corpus ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["你好，世界", "🙂🎭 emoji", "Ça va? Größe — ﬁne", "To be, or not to be", "\t\n  x"])
def test_tokenizer_round_trips_any_text_without_unknown_tokens(tok, text):
    enc = tok.encode(text)
    assert None not in enc.ids and all(0 < i < tok.get_vocab_size() for i in enc.ids)
    assert tok.decode(enc.ids) == text
    assert b"".join(bpe.token_bytes(tok, enc.ids)) == text.encode("utf-8")


def test_bpe_trains_with_eot_and_all_bytes():
    tok = bpe.train_bpe(["the cat sat on the mat " * 20], 300)
    assert 257 < tok.get_vocab_size() <= 300  # a tiny text runs out of merges first
    assert tok.token_to_id(bpe.EOT) == 0
    assert tok.decode(tok.encode("猫 🐈").ids) == "猫 🐈"


def test_corpus_splits_are_whole_disjoint_works():
    train, val, test = (shakespeare.plays(s) for s in shakespeare.SPLITS)
    assert set(val) == set(shakespeare.VALIDATION_PLAYS)
    assert set(test) == set(shakespeare.TEST_PLAYS)
    assert not (set(train) & set(val)) and not (set(train) & set(test))
    assert "hamlet" in train and len(train) == 37
    assert "MACBETH" in val["macbeth"]
    assert shakespeare.text("validation") == shakespeare.SEPARATOR.join(val.values())


# ---- sampling ------------------------------------------------------------------------------------------------------


LOGITS = np.log(np.array([0.05, 0.4, 0.1, 0.25, 0.2]))  # sorted ids by probability: 1, 3, 4, 2, 0


def test_softmax_temperature():
    assert np.allclose(sampling.softmax(LOGITS), [0.05, 0.4, 0.1, 0.25, 0.2])
    sharp, flat = sampling.softmax(LOGITS, 0.5), sampling.softmax(LOGITS, 2.0)
    assert sharp.max() > 0.4 > flat.max()
    assert np.array_equal(sampling.softmax(LOGITS, 0.0), [0, 1, 0, 0, 0])


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_top_k_keeps_k(k):
    p = sampling.filtered(LOGITS, top_k=k)
    assert (p > 0).sum() == k
    assert set(np.flatnonzero(p)) == set([1, 3, 4, 2, 0][:k])
    assert p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("p", "kept"),
    [
        (0.3, [1]),
        (0.4, [1]),
        (0.41, [1, 3]),
        (0.65, [1, 3]),
        (0.66, [1, 3, 4]),
        (0.9, [1, 3, 4, 2]),
        (0.96, [1, 3, 4, 2, 0]),
        (1.0, [1, 3, 4, 2, 0]),
    ],
)
def test_top_p_keeps_the_smallest_set_with_mass_at_least_p(p, kept):
    probs = sampling.filtered(LOGITS, top_p=p)
    assert set(np.flatnonzero(probs)) == set(kept)
    base = sampling.softmax(LOGITS)
    assert base[kept].sum() >= p - 1e-12
    assert base[kept[:-1]].sum() < p  # one fewer would not reach p


def test_top_p_on_a_large_vocabulary_keeps_exactly_what_a_full_sort_keeps():
    """top_p_mask sorts only the likeliest ids when they hold the nucleus (a decoding step need not sort the whole
    vocabulary): the mask is the full sort's, ties at the cut and distributions with many zeros included."""

    def full_sort_mask(probs, p):
        order = np.argsort(-probs, kind="stable")
        mass_before = np.cumsum(probs[order]) - probs[order]
        keep = np.zeros(probs.shape, dtype=bool)
        keep[order[mass_before < p]] = True
        keep[order[0]] = True
        return keep

    rng = np.random.default_rng(0)
    cases = 0
    for scale in (0.5, 2.0, 6.0, 12.0):  # flat (nucleus beyond 64 ids) to peaked (a handful)
        for _ in range(30):
            logits = rng.normal(size=5000) * scale
            logits[rng.integers(0, 5000, 40)] = logits.max()  # ties among the likeliest
            probs = sampling.softmax(logits)
            for p in (0.1, 0.5, 0.9, 0.99):
                assert np.array_equal(sampling.top_p_mask(probs, p), full_sort_mask(probs, p))
                cases += 1
            k_cut = sampling.filtered(logits, top_k=100)  # zeros after a top-k cut
            assert np.array_equal(sampling.top_p_mask(k_cut, 0.9), full_sort_mask(k_cut, 0.9))
    assert cases == 480


def test_top_p_random_distributions_are_minimal():
    rng = np.random.default_rng(0)
    for _ in range(200):
        logits = rng.normal(size=50) * 3
        p = rng.uniform(0.05, 0.99)
        keep = sampling.top_p_mask(sampling.softmax(logits), p)
        probs = np.sort(sampling.softmax(logits)[keep])
        assert probs.sum() >= p - 1e-12 and probs.sum() - probs[0] < p


def test_temperature_to_zero_equals_greedy():
    rng = np.random.default_rng(3)
    for _ in range(20):
        logits = rng.normal(size=30)
        probs = sampling.filtered(logits, temperature=1e-4)
        assert sampling.sample(probs, rng) == sampling.greedy(logits)
        assert gpt.choose(logits, temperature=0.0, top_k=0, top_p=1.0, rng=rng) == int(np.argmax(logits))


def test_fixed_seed_reproduces_and_sampling_follows_the_distribution(tiny):
    a = list(gpt.generate(tiny, [0, 1, 2], 20, temperature=1.0, top_p=0.9, seed=7))
    b = list(gpt.generate(tiny, [0, 1, 2], 20, temperature=1.0, top_p=0.9, seed=7))
    c = list(gpt.generate(tiny, [0, 1, 2], 20, temperature=1.0, top_p=0.9, seed=8))
    assert a == b != c
    probs = np.array([0.1, 0.0, 0.6, 0.3])
    rng = np.random.default_rng(0)
    draws = np.bincount([sampling.sample(probs, rng) for _ in range(4000)], minlength=4) / 4000
    assert draws[1] == 0 and np.allclose(draws, probs, atol=0.03)
