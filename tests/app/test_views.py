"""The shared views are pure functions: numbers in, figures or escaped HTML out."""

import csv
import io
import json

import numpy as np

from app.views.attention import attention_heatmap, grid_cell, head_grid, tile
from app.views.numbers import to_csv, to_json
from app.views.tokens import token_strip


def test_heatmap_keeps_repeated_tokens_apart():
    labels = ["the", "cat", "the", "end"]
    fig = attention_heatmap(np.eye(4), labels, labels)
    z = np.asarray(fig.data[0].z)
    assert z.shape == (4, 4)  # two "the" rows stay two rows
    assert list(fig.layout.xaxis.ticktext) == labels
    assert fig.data[0].customdata[2][0] == "the → the"


def test_tile_and_grid_cell_round_trip():
    rng = np.random.default_rng(0)
    patterns = rng.random((3, 4, 5, 6))
    big = tile(patterns)
    assert big.shape == (3 * 6 - 1, 4 * 7 - 1)
    for layer in range(3):
        for head in range(4):
            y, x = layer * 6 + 2, head * 7 + 3
            assert grid_cell(x, y, patterns.shape) == (layer, head)
            assert big[y, x] == patterns[layer, head, 2, 3]
    assert np.isnan(big[5, 0])  # the gap between layer 0 and layer 1
    fig = head_grid(patterns, selected=(1, 2))
    assert len(fig.data) == 1 and len(fig.layout.shapes) == 1


def test_token_strip_escapes_user_text():
    html = token_strip(['<script>alert(1)</script>', 'a"b', " x"], np.array([0.1, 0.5, 0.9]))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert 'a&quot;b' in html
    assert "·x" in html  # whitespace made visible
    assert html.count("<span") == 3


def test_token_strip_handles_constant_and_nan_values():
    html = token_strip(["a", "b"], np.array([1.0, np.nan]))
    assert html.count("<span") == 2


def test_numbers_download_formats():
    rows = list(csv.reader(io.StringIO(to_csv(np.array([[1, 2], [3, 4]]), ["q0", "q1"], ["k0", "k1"]).decode())))
    assert rows == [["", "k0", "k1"], ["q0", "1", "2"], ["q1", "3", "4"]]
    data = json.loads(to_json({"pattern": np.arange(3), "name": "x"}))
    assert data == {"pattern": [0, 1, 2], "name": "x"}
    assert json.loads(to_json({"t": np.arange(6).reshape(2, 3).T})) == {"t": [[0, 3], [1, 4], [2, 5]]}
