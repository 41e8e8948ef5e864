"""The sparse autoencoder (models/sae.py) and the shipped dictionary ``gpt-sae`` (models/recipes/sae.py).

Encode and decode are checked against the paper's equations written again here in float64 numpy (Gao et al. 2024,
arXiv 2406.04093: z = TopK(W_enc (s·x − b_pre) + b_enc), x̂ = (W_dec z + b_pre) / s); the splice goes through the
project's probe overrides, so the identity splice is the clean model exactly; the shipped feature index is checked
against fresh forwards (a few features, fast) and recomputed whole (slow)."""

from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np
import pytest
import safetensors.torch
import torch

from models import recipes as registry
from models import sae, zoo
from models.probe import intervene
from models.recipes import sae as recipe
from tests.models.tolerance import assert_close

NAME = "gpt-sae"
FOLDER = zoo.SHIPPED / NAME
shipped = pytest.mark.skipif(not (FOLDER / "model.safetensors").exists(), reason="gpt-sae is not trained yet")


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


@pytest.fixture(scope="module")
def dictionary() -> sae.SAE:
    return zoo.load(NAME)


@pytest.fixture(scope="module")
def lm():
    return recipe.gpt_model("gpt")


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


@shipped
def test_encode_and_decode_equal_the_papers_equations_on_the_shipped_dictionary(dictionary, lm, windows):
    x = sae.activations(lm[0], windows, dictionary.config.hook).reshape(-1, dictionary.config.d_in)
    z_ref, x_ref = reference(*_weights(dictionary), x.numpy())
    with torch.no_grad():
        z = dictionary.encode(x)
        assert_close(z.numpy(), z_ref, 1e-4)
        assert_close(dictionary(x).numpy(), x_ref, 1e-4)
    assert np.array_equal(z.numpy() > 0, z_ref > 0)  # the same features chosen


def test_decoder_columns_have_unit_norm_after_a_step():
    d = _tiny()
    with torch.no_grad():
        d.W_dec.mul_(3.0)
        d.normalise_decoder()
    np.testing.assert_allclose(d.W_dec.norm(dim=0).detach().numpy(), 1.0, rtol=1e-6)


@shipped
def test_shipped_decoder_columns_have_unit_norm(dictionary):
    norms = dictionary.W_dec.norm(dim=0).detach().numpy()
    assert norms.shape == (dictionary.config.n_features,)
    np.testing.assert_allclose(norms, 1.0, rtol=2e-3)  # float16 weights: within their rounding


@shipped
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


@shipped
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


@shipped
def test_card_is_the_recipes_and_meets_its_bars():
    card = json.loads((FOLDER / "card.json").read_text())
    r = registry.recipe(NAME)
    assert card["bars"] == r.bars and zoo.bars_missed(card["metrics"], r.bars) == []
    assert card["metrics"]["l0"] <= zoo.read_config(NAME)["k"]
    assert card["index"]["bytes"] == (FOLDER / "index.safetensors").stat().st_size
    runs = card["sweep"]["runs"]
    assert {(r["n_features"], r["k"]) for r in runs} == {
        (n, k) for n in card["settings"]["sweep_features"] for k in card["settings"]["sweep_k"]
    }
    assert all(r["l0"] <= r["k"] and 0 < r["fve"] < 1 for r in runs)
    # float16 weights cost less than the bars' slack: each metric moved by less than 1% of its size (or 0.01)
    for key, value in card["float32_metrics"].items():
        assert abs(card["metrics"][key] - value) <= max(0.01 * abs(value), 0.01), key


@shipped
def test_index_top_contexts_are_what_a_fresh_forward_gives(dictionary, lm):
    """For a few features: the window the index read (256 tokens from a multiple of 256 into the document) run
    again, the feature's activation at each listed position is the listed one, strongest first."""
    model, _ = lm
    index = safetensors.torch.load_file(str(FOLDER / "index.safetensors"))
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
@shipped
def test_the_shipped_index_is_recomputed(dictionary, lm):
    model, tok = lm
    index = safetensors.torch.load_file(str(FOLDER / "index.safetensors"))
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


@shipped
def test_the_index_histograms_count_every_firing_once(dictionary, lm):
    """Each feature's histogram holds every held-out token it fired on (a row sums to ``fired``); for the features
    firing in the first window the index read, that window's activations fall in the bars the histogram counts
    (recomputed here with numpy on that window alone: a lower bound, bar by bar, of the whole plays' counts)."""
    model, _ = lm
    index = safetensors.torch.load_file(str(FOLDER / "index.safetensors"))
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
