"""What each model mixes at a position (app/compare/service.py ``mixing``), measured by running the models: every
attention row sums to 1 over the keys it may read, Mistral's is exactly 0 left of its window, Transformer-XL's covers
its memory, Mamba's state keeps its bytes while Δ grows with the text; and a link opens the model's page in that
state."""

from __future__ import annotations

import numpy as np
import pytest

from app.compare import service as svc
from tests.app.conftest import open_app, spec

OFFERED = svc.offered()[0]
TEXT = svc.DEFAULT_TEXT  # 86 tokens of our BPE: past one Transformer-XL segment (64) and Mistral's window (32)
LATE = 80  # a query past both
ATTENTION = ("gpt", "llama", "llama-mha", "llama-mqa", "mistral", "mla", "mtp", "transformer-xl")


def needs(*names: str) -> None:
    if not set(names) <= set(OFFERED):
        pytest.skip(f"not installed: {names}")


@pytest.mark.parametrize("name", ATTENTION)
@pytest.mark.parametrize("index", [0, 5, LATE])
def test_every_row_sums_to_one(name, index):
    needs(name)
    m = svc.mixing(name, TEXT, index)
    assert m.index == index
    L, H, K = m.rows.shape
    assert K == len(m.labels) == index + 1 - m.first
    assert np.all(m.rows >= 0)
    np.testing.assert_allclose(m.rows.sum(-1), np.ones((L, H)), rtol=1e-5)  # weights: on the scale of 1
    assert m.labels[0] == "⟨eot⟩" if m.first == 0 else True


def test_mistral_reads_nothing_outside_its_window():
    needs("mistral")
    m = svc.mixing("mistral", TEXT, LATE)
    W = svc.services.checkpoint("mistral").config["window"]
    assert m.window == W == 32
    assert m.n_marked == LATE + 1 - W  # the keys before the window: position 0 .. LATE − W
    outside, inside = m.rows[..., : m.n_marked], m.rows[..., m.n_marked :]
    assert np.all(outside == 0.0)  # exactly: the mask, not a small weight
    np.testing.assert_allclose(inside.sum(-1), 1.0, rtol=1e-5)
    early = svc.mixing("mistral", TEXT, W - 1)  # a query that still sees <|endoftext|>
    assert early.n_marked == 0 and np.all(early.rows[..., 0] > 0)


def test_transformer_xl_row_covers_its_memory():
    needs("transformer-xl")
    c = svc.services.checkpoint("transformer-xl").config
    L, M = c["segment"], c["memory"]
    m = svc.mixing("transformer-xl", TEXT, LATE)
    assert (m.segment, m.n_marked) == (LATE // L, M)  # the second segment reads the first's M hidden states
    assert m.first == m.segment * L - M
    assert m.rows.shape[-1] == M + LATE % L + 1  # memory, then the segment up to the query
    on_memory = m.rows[..., :M].sum(-1)  # (layers, heads)
    assert on_memory.max() > 0.05  # some head takes a real share of its mix from the memory
    np.testing.assert_allclose(m.rows.sum(-1), 1.0, rtol=1e-5)
    first = svc.mixing("transformer-xl", TEXT, L - 1)  # the first segment: no memory yet
    assert first.n_marked == 0 and first.rows.shape[-1] == L


def test_mamba_state_keeps_its_bytes_while_delta_grows():
    needs("mamba-lm")
    early, late = svc.mixing("mamba-lm", TEXT, 5), svc.mixing("mamba-lm", TEXT, LATE)
    assert early.state_bytes == late.state_bytes > 0
    assert early.rows.shape == (4, 6) and late.rows.shape == (4, LATE + 1)  # (layers, tokens up to the query)
    assert np.all(late.rows > 0)  # Δ = softplus(...): a step, never 0
    np.testing.assert_allclose(early.rows, late.rows[:, :6], rtol=1e-4)  # causal: the same Δ at the same tokens


# A link's parameter that a figure's own slider opens on (plots.stepped: the move happens in the browser), by the
# figure's key
FIGURE_PARAMS = {"mla_token": "mla_latent", "txl_query": "txl_attention", "mamba_layer": "mamba_layer_steps"}


@pytest.mark.parametrize("name", ["gpt", "llama", "mistral", "mla", "transformer-xl", "mamba-lm"])
def test_a_link_opens_the_page_in_that_state(name):
    """Every parameter of the link is a control of the target page, or the step a figure's own slider opens on
    (``FIGURE_PARAMS``), and that page opens with it set."""
    needs(name)
    page, params = svc.link(name, TEXT, LATE, 2, 1)
    at = open_app(page, timeout=120, **params)
    assert not at.exception and not at.error
    controls = {k: v for k, v in params.items() if k not in FIGURE_PARAMS}
    assert {k: str(at.session_state[k]) for k in controls} == controls
    for key, figure in FIGURE_PARAMS.items():
        if key in params:
            assert spec(at, figure)["layout"]["sliders"][0]["active"] == int(params[key])
    if name == "transformer-xl":
        segment, query = divmod(LATE, 64)
        assert at.slider(key="txl_segment").value == segment
        assert spec(at, "txl_terms")["layout"]["sliders"][0]["active"] == query  # both figures open there


def test_links_name_what_each_page_reads():
    needs("gpt", "llama", "mamba-lm", "mistral", "mla")
    assert svc.link("gpt", "x", 4, 1, 2) == (
        "gpt",
        {"gpt_text": "x", "gpt_view": "attention", "gpt_layer": "1", "gpt_head": "2"},
    )
    assert svc.link("llama-mqa", "x", 4, 1, 2)[1]["llama_token"] == "4"
    assert svc.link("mtp", "x", 4, 1, 2)[0] == "mla"
    assert svc.link("mamba-lm", "x", 4, 1, 2) == (
        "mamba",
        {"mamba_source": "text", "mamba_text": "x", "mamba_layer": "1"},
    )
    if "smollm2-135m" in OFFERED:
        assert svc.link("smollm2-135m", "x", 4, 1, 2)[1]["llama_model"] == "smollm2-135m"
