"""The sparse autoencoder (models/sae.py) and the shipped dictionaries ``gpt-sae`` and ``smollm2-sae``
(models/recipes/sae.py).

Encode and decode are checked against the paper's equations written again here in float64 numpy (Gao et al. 2024,
arXiv 2406.04093: z = TopK(W_enc (s·x − b_pre) + b_enc), x̂ = (W_dec z + b_pre) / s) and against SAELens's TopK
autoencoder holding the same weights; the splice goes through the project's probe overrides, so the identity splice
is the clean model exactly; the shipped feature index is checked against fresh forwards (a few features, fast) and
recomputed whole (slow). Every test of a shipped dictionary runs on
both; ``smollm2-sae``'s skip where its base model (data/pretrained/smollm2-135m) is not on the machine, as on a fresh
clone. The SmolLM2 recipe's preset is run end to end on a tiny stand-in of SmolLM2 (tests/real_models.py)."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest
import safetensors.torch
import torch

from models import metrics, pretrained, sae, zoo
from models import recipes as registry
from models.probe import intervene
from models.recipes import Run
from models.recipes import sae as recipe
from tests.models.tolerance import assert_close

NAMES = ("gpt-sae", "smollm2-sae")


def _missing(name: str, *, base: bool = True) -> str | None:
    """Why the shipped dictionary ``name`` cannot be tested here (None: it can); ``base``: its model is needed too."""
    if not (zoo.SHIPPED / name / "model.safetensors").exists():
        return f"{name} is not trained yet"
    model = zoo.read_config(name)["model"]
    if base and pretrained.is_real(model) and model not in pretrained.available():
        return f"{model} is not on this machine (python -m models.data.pretrained fetches it)"
    return None


def _name(request, *, base: bool = True) -> str:
    why = _missing(request.param, base=base)
    if why:
        pytest.skip(why)
    return request.param


def reference(W_enc, b_enc, W_dec, b_pre, s, k, x):
    """The paper's TopK autoencoder in float64 numpy, written from its equations: (z, x̂) for rows x (N, d)."""
    W_enc, b_enc, W_dec, b_pre, x = (np.asarray(a, dtype=np.float64) for a in (W_enc, b_enc, W_dec, b_pre, x))
    pre = (s * x - b_pre) @ W_enc.T + b_enc  # (N, n)
    z = np.zeros_like(pre)
    for row in range(len(pre)):
        keep = np.argpartition(-pre[row], k - 1)[:k]  # the k largest
        z[row, keep] = np.maximum(pre[row, keep], 0)
    return z, (z @ W_dec.T + b_pre) / s


def _weights(d: sae.SAE):
    return [p.detach().numpy() for p in (d.W_enc, d.b_enc, d.W_dec, d.b_pre)] + [d.config.scale, d.config.k]


def _tiny(seed: int = 0) -> sae.SAE:
    torch.manual_seed(seed)
    d = sae.build({**asdict(sae.PRESETS["tiny"]), "scale": 0.3})
    with torch.no_grad():  # away from the initialisation's symmetry: a bias and an encoder of their own
        d.b_enc.normal_(0, 0.5)
        d.b_pre.normal_(0, 1.0)
        d.W_enc.normal_(0, 0.3)
    return d


@pytest.fixture(scope="module", params=NAMES)
def name(request) -> str:
    """A shipped dictionary whose base model is here."""
    return _name(request)


@pytest.fixture(scope="module", params=NAMES)
def trained(request) -> str:
    """A shipped dictionary (its base model may be absent)."""
    return _name(request, base=False)


@pytest.fixture(scope="module")
def dictionary(name) -> sae.SAE:
    return zoo.load(name)


@pytest.fixture(scope="module")
def lm(dictionary):
    return recipe.base_model(dictionary.config.model)


@pytest.fixture(scope="module")
def windows(lm) -> torch.Tensor:
    """Two windows of 64 tokens of the validation plays."""
    return recipe.held_out(lm[1], 2, 64)[:, :-1]


def test_encode_and_decode_equal_the_papers_equations_on_random_weights():
    d = _tiny()
    x = torch.randn(50, d.config.d_in) * 4
    z_ref, x_ref = reference(*_weights(d), x.numpy())
    with torch.no_grad():
        z = d.encode(x)
        assert_close(z.numpy(), z_ref, 1e-5)
        assert_close(d.decode(z).numpy(), x_ref, 1e-5)
        assert_close(d(x).numpy(), x_ref, 1e-5)
    assert ((z > 0).sum(-1) <= d.config.k).all() and (z >= 0).all()


def test_encode_and_decode_equal_the_papers_equations_on_the_shipped_dictionary(dictionary, lm, windows):
    x = sae.activations(lm[0], windows, dictionary.config.hook).reshape(-1, dictionary.config.d_in)
    x = x[dictionary.reads(x)]  # what it reads (SmolLM2: all but the massive activations)
    z_ref, x_ref = reference(*_weights(dictionary), x.numpy())
    with torch.no_grad():
        z = dictionary.encode(x)
        assert_close(z.numpy(), z_ref, 1e-4)
        assert_close(dictionary(x).numpy(), x_ref, 1e-4)
    assert np.array_equal(z.numpy() > 0, z_ref > 0)  # the same features chosen


def test_encode_and_decode_equal_saelens_on_the_shipped_dictionary(dictionary, lm, windows):
    """SAELens's TopK autoencoder (``sae_lens.TopKSAE``, a test-only dependency) holding the same weights, fed the
    stream times the dictionary's scale s (its input normalisation is ours, so it is applied outside), chooses the
    same features with the same activations and rebuilds the same stream (divided by s again)."""
    from sae_lens import TopKSAE, TopKSAEConfig

    c = dictionary.config
    ref = TopKSAE(TopKSAEConfig(d_in=c.d_in, d_sae=c.n_features, k=c.k, apply_b_dec_to_input=True, dtype="float32"))
    with torch.no_grad():  # SAELens multiplies on the right: W_enc (d, n) and W_dec (n, d), ours transposed
        ref.W_enc.copy_(dictionary.W_enc.float().T)
        ref.b_enc.copy_(dictionary.b_enc.float())
        ref.W_dec.copy_(dictionary.W_dec.float().T)
        ref.b_dec.copy_(dictionary.b_pre.float())
        x = sae.activations(lm[0], windows, c.hook).reshape(-1, c.d_in)
        x = x[dictionary.reads(x)].float()  # what it reads (SmolLM2: all but the massive activations)
        z, z_ref = dictionary.encode(x), ref.encode(c.scale * x)
        assert np.array_equal((z > 0).numpy(), (z_ref > 0).numpy())  # the same features chosen
        assert_close(z.numpy(), z_ref.numpy(), 1e-4)
        assert_close(dictionary.decode(z).numpy(), (ref.decode(z_ref) / c.scale).numpy(), 1e-4)


def test_decoder_columns_have_unit_norm_after_a_step():
    d = _tiny()
    with torch.no_grad():
        d.W_dec.mul_(3.0)
        d.normalise_decoder()
    np.testing.assert_allclose(d.W_dec.norm(dim=0).detach().numpy(), 1.0, rtol=1e-6)


def test_shipped_decoder_columns_have_unit_norm(dictionary):
    norms = dictionary.W_dec.norm(dim=0).detach().numpy()
    assert norms.shape == (dictionary.config.n_features,)
    np.testing.assert_allclose(norms, 1.0, rtol=2e-3)  # float16 weights: within their rounding


def test_the_identity_splice_gives_exactly_the_clean_logits(dictionary, lm, windows):
    model, tokens = lm[0], windows
    with torch.inference_mode():
        clean = model(tokens)
        with intervene(dictionary.splice(replace=lambda x: x)):
            same = model(tokens)
        with intervene(dictionary.splice()):
            spliced = model(tokens)
        with intervene(dictionary.splice(keep_error=True)):  # x̂ + (x − x̂): the clean stream up to rounding
            kept = model(tokens)
    assert torch.equal(clean, same)
    assert not torch.allclose(clean, spliced, atol=1e-3)  # the reconstruction does change the stream
    assert_close(kept, clean, 1e-4)


def test_switching_a_feature_off_changes_only_where_it_fired(dictionary, lm, windows):
    model, tokens = lm[0], windows[:1]
    z = dictionary.encode(sae.activations(model, tokens, dictionary.config.hook))[0]  # (T, n)
    feature = int(z.sum(0).argmax())
    first = int((z[:, feature] > 0).nonzero()[0])

    def off(z):
        z = z.clone()
        z[..., feature] = 0
        return z

    with torch.inference_mode():
        clean = model(tokens)
        with intervene(dictionary.splice(off, keep_error=True)):
            edited = model(tokens)
    assert_close(edited[0, :first], clean[0, :first], 1e-4)  # causal: nothing before its first firing moves
    assert (edited[0, first] - clean[0, first]).abs().max() > 1e-2


def test_card_is_the_recipes_and_meets_its_bars(trained):
    folder = zoo.SHIPPED / trained
    card = json.loads((folder / "card.json").read_text())
    r = registry.recipe(trained)
    assert card["bars"] == r.bars and zoo.bars_missed(card["metrics"], r.bars) == []
    assert card["metrics"]["l0"] <= zoo.read_config(trained)["k"]
    assert card["index"]["bytes"] == (folder / "index.safetensors").stat().st_size
    runs = card["sweep"]["runs"]
    assert {(r["n_features"], r["k"]) for r in runs} == {
        (n, k) for n in card["settings"]["sweep_features"] for k in card["settings"]["sweep_k"]
    }
    assert all(r["l0"] <= r["k"] and 0 < r["fve"] < 1 for r in runs)
    # float16 weights cost less than the bars' slack: each metric moved by less than 1% of its size (or 0.01)
    for key, value in card["float32_metrics"].items():
        assert abs(card["metrics"][key] - value) <= max(0.01 * abs(value), 0.01), key


def test_index_top_contexts_are_what_a_fresh_forward_gives(name, dictionary, lm):
    """For a few features: the window the index read (256 tokens from a multiple of 256 into the document) run
    again, the feature's activation at each listed position is the listed one, strongest first."""
    model, _ = lm
    index = safetensors.torch.load_file(str(zoo.SHIPPED / name / "index.safetensors"))
    tokens, starts = index["tokens"].long(), index["doc_starts"].long().tolist() + [len(index["tokens"])]
    live = (index["fired"] > 0).nonzero()[:, 0]
    for feature in live[torch.linspace(0, len(live) - 1, 4).long()].tolist():
        acts = index["top_activation"][feature].float()
        assert (acts[:-1] >= acts[1:]).all()
        for pos, act in zip(index["top_position"][feature].tolist()[:3], acts.tolist()[:3]):
            if pos < 0:
                continue
            doc = max(i for i, s in enumerate(starts[:-1]) if s <= pos)
            offset = (pos - starts[doc]) // 256 * 256
            begin = starts[doc] + offset
            window = tokens[begin : min(begin + 256, starts[doc + 1])][None]
            with torch.no_grad():
                z = dictionary.encode(sae.activations(model, window, dictionary.config.hook))[0, pos - begin, feature]
            assert abs(float(z) - act) <= 2e-3 * max(1.0, abs(act)), (feature, pos)


@pytest.mark.slow
def test_the_shipped_index_is_recomputed(name, dictionary, lm):
    model, tok = lm
    index = safetensors.torch.load_file(str(zoo.SHIPPED / name / "index.safetensors"))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the recipe computed it: the same order of sums, so the same near-ties
    try:
        again = sae.feature_index(dictionary, model, recipe.validation_docs(tok), top=index["top_position"].shape[1])
    finally:
        torch.set_num_threads(threads)
    assert torch.equal(again["tokens"], index["tokens"]) and torch.equal(again["fired"], index["fired"])
    features = torch.linspace(0, dictionary.config.n_features - 1, 16).long()
    assert torch.equal(again["top_position"][features], index["top_position"][features])
    assert_close(again["top_activation"][features].float(), index["top_activation"][features].float(), 1e-3)
    # a bar's edge may fall between two near-ties of another thread count: the bars as shipped, within a token or two
    assert (again["histogram"][features] - index["histogram"][features]).abs().sum() <= 2 * len(features)


def test_the_index_histograms_count_every_firing_once(name, dictionary, lm):
    """Each feature's histogram holds every held-out token it fired on (a row sums to ``fired``); for the features
    firing in the first window the index read, that window's activations fall in the bars the histogram counts
    (recomputed here with numpy on that window alone: a lower bound, bar by bar, of the whole plays' counts)."""
    model, _ = lm
    index = safetensors.torch.load_file(str(zoo.SHIPPED / name / "index.safetensors"))
    hist = index["histogram"].long()
    assert hist.shape == (dictionary.config.n_features, sae.HIST_BINS)
    assert torch.equal(hist.sum(1), index["fired"].long())
    window = index["tokens"][:256].long()[None]
    with torch.no_grad():
        z = dictionary.encode(sae.activations(model, window, dictionary.config.hook))[0]
    for feature in (z > 0).sum(0).argsort(descending=True)[:5].tolist():
        values = z[:, feature][z[:, feature] > 0].numpy()
        top = float(index["top_activation"][feature][0])
        here = np.histogram(np.clip(values, 0, top), bins=sae.HIST_BINS, range=(0.0, top))[0]
        # float16's top can sit a hair under the float32 one: compare with one bar of slack at the bar edges
        shipped = np.cumsum(hist[feature].numpy())
        assert here.sum() <= shipped[-1] and (np.cumsum(here)[:-1] <= shipped[1:]).all()


# ---- the recipe generalised: a preset names the base model and the hook -------------------------------------------


def test_the_stream_is_read_by_stopping_the_forward_at_the_hook():
    """``activations`` gives the stream a full traced forward records there, and no block after the hook runs."""
    model = zoo.load("gpt")
    tokens = torch.randint(0, 100, (2, 12))
    ran = []
    handles = [b.register_forward_pre_hook(lambda m, i, j=j: ran.append(j)) for j, b in enumerate(model.blocks)]
    try:
        x = sae.activations(model, tokens, "blocks.1.resid")
    finally:
        for h in handles:
            h.remove()
    from models.probe import trace

    with torch.inference_mode(), trace("blocks.1.resid") as t:
        model(tokens)
    assert torch.equal(x, t["blocks.1.resid"]) and ran == [0, 1]
    with pytest.raises(ValueError, match="no probe"):
        sae.activations(model, tokens, "blocks.99.resid")


def test_vectors_over_the_passthrough_norm_flow_on_unchanged_and_fire_nothing():
    d = _tiny()
    d.config.passthrough_norm = 10.0
    x = torch.randn(1, 6, d.config.d_in)
    x[0, 0] *= 100  # a massive activation (SmolLM2's first token after block 14)
    assert d.reads(x).tolist() == [[False, True, True, True, True, True]]
    out = d.splice()[d.config.hook](x, d.config.hook)
    assert torch.equal(out[0, 0], x[0, 0]) and not d.encode(x)[0, 0].any() and d.encode(x)[0, 1:].any(-1).all()
    with torch.no_grad():
        assert_close(out[0, 1:], d(x[0, 1:]), 1e-6)


@pytest.fixture(scope="module")
def stand_in():
    """A tiny random SmolLM2 stand-in (tests/real_models.py: a transformers LLaMA converted by models/pretrained) as
    deep as the real one's hook needs, with SmolLM2's kind of vocabulary (ids past int16), and gpt's tokenizer."""
    pytest.importorskip("transformers")
    from models.pretrained import llama as convert
    from tests import real_models

    hf = real_models.tiny_hf_llama(vocab_size=40_000, num_hidden_layers=16, max_position_embeddings=512)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        model = real_models.converted(convert, *real_models.saved(hf, folder))
    return model, metrics.tokenizer(zoo.checkpoint_dir("gpt"))


def test_the_smollm2_preset_trains_end_to_end_on_a_tiny_stand_in(stand_in, tmp_path, monkeypatch):
    """``smollm2-sae``'s recipe as ``models.train`` runs it, a few steps on a few windows: the width is the base
    model's, the hook and the passthrough the preset's, the card's measures and the index come out whole."""
    preset = sae.PRESETS["smollm2"]
    assert preset.model == "smollm2-135m" and preset.hook == "blocks.14.resid"
    assert registry.recipe("smollm2-sae").defaults["preset"] == "smollm2"
    monkeypatch.setattr(recipe, "base_model", lambda name: stand_in)
    docs = recipe.validation_docs(stand_in[1])
    monkeypatch.setattr(recipe, "validation_docs", lambda tok: [doc[:300] for doc in docs])
    hp = {**registry.recipe("smollm2-sae").defaults, "train_tokens": 2048, "steps": 6, "batch": 256}
    hp |= {"eval_windows": 2, "warmup": 2, "index_top": 3}
    trained = recipe.train(Run(seed=0, out=tmp_path, settings=hp))
    width = stand_in[0].config.dim
    assert trained.config["d_in"] == width == 48 and trained.config["hook"] == preset.hook
    assert trained.config["passthrough_norm"] == preset.passthrough_norm and trained.config["scale"] > 0
    assert trained.model.W_dec.shape == (width, preset.n_features) and trained.model.W_dec.dtype == torch.float16
    found = trained.card["float32_metrics"]
    assert {"fve", "nmse", "l0", "delta_nats", "loss_recovered", "passed_through"} <= found.keys()
    assert 0 < found["l0"] <= preset.k and found["zero_ablated_nats"] > 0
    assert "held out from the dictionary" in trained.data and "may have seen" in trained.data
    index = safetensors.torch.load_file(str(tmp_path / "index.safetensors"))
    assert index["fired"].shape == (preset.n_features,) and index["top_position"].shape == (preset.n_features, 3)
    assert trained.card["index"]["bytes"] == (tmp_path / "index.safetensors").stat().st_size


def test_the_index_keeps_ids_past_int16(stand_in):
    """SmolLM2's 49,152 ids do not fit int16 (ours do): the index stores them as int32, unchanged."""
    model = stand_in[0]
    d = sae.build({**asdict(sae.PRESETS["tiny"]), "d_in": model.config.dim, "hook": "blocks.14.resid"})
    docs = [np.array([0, 39_999, 33_000, 7, 5]), np.array([0, 12, 38_000])]
    index = sae.feature_index(d, model, docs, top=2, window=4)
    assert index["tokens"].dtype == torch.int32 and index["tokens"].tolist() == [0, 39_999, 33_000, 7, 5, 0, 12, 38_000]
    assert index["doc_starts"].tolist() == [0, 5]
