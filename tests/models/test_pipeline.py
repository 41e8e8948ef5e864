"""train -> evaluate -> export -> run on both backends, end to end, on the demo model trained here in seconds."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models import zoo
from models.engine import Engine

ROOT = Path(__file__).resolve().parents[2]


def _cli(module: str, name: str, root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TE_CHECKPOINTS": str(root), "OMP_NUM_THREADS": "2"}
    return subprocess.run([sys.executable, "-m", module, name], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_train_evaluate_export_and_run_both_backends(tmp_path, monkeypatch):
    train = _cli("models.train", "demo", tmp_path)
    assert train.returncode == 0, train.stderr
    ckpt = tmp_path / "demo"
    card = json.loads((ckpt / "card.json").read_text())
    for field in ("data", "command", "seed", "params", "wall_time_s", "hardware", "metrics", "bars"):
        assert field in card
    assert card["command"] == "python -m models.train demo --seed 0"
    assert card["metrics"]["accuracy"] >= 0.95
    assert not list(tmp_path.rglob("*.pt")) and not list(tmp_path.rglob("*.bin"))  # safetensors only

    evaluate = _cli("models.evaluate", "demo", tmp_path)
    assert evaluate.returncode == 0, evaluate.stderr
    assert json.loads(evaluate.stdout) == card["metrics"]  # recomputed from the checkpoint, same numbers

    export = _cli("models.export", "demo", tmp_path)
    assert export.returncode == 0, export.stderr
    assert (ckpt / "model.onnx").exists()

    monkeypatch.setenv("TE_CHECKPOINTS", str(tmp_path))
    engine = Engine(device="cpu")
    tokens = np.random.default_rng(3).integers(0, 16, size=(2, 9))
    a = engine.run("demo", {"tokens": tokens}, ("blocks.*.attn.pattern",), backend="torch")
    b = engine.run("demo", {"tokens": tokens}, ("blocks.*.attn.pattern",), backend="onnx")
    assert (a.backend, b.backend) == ("torch", "onnx") and a.device == b.device == "cpu"
    assert a.ms > 0 and b.ms > 0
    np.testing.assert_allclose(a.outputs["logits"], b.outputs["logits"], atol=1e-4)
    assert a.probes.keys() == b.probes.keys() == {"blocks.0.attn.pattern", "blocks.1.attn.pattern"}


def test_evaluate_exits_non_zero_when_a_bar_is_missed(tmp_path):
    import shutil

    shutil.copytree(zoo.SHIPPED / "demo", tmp_path / "demo")
    # Scramble the weights: the recomputed accuracy falls far below the card's bar.
    import safetensors.torch
    import torch

    path = tmp_path / "demo" / "model.safetensors"
    weights = safetensors.torch.load_file(str(path))
    weights = {k: torch.randn_like(v) for k, v in weights.items()}
    safetensors.torch.save_file(weights, str(path))
    result = _cli("models.evaluate", "demo", tmp_path)
    assert result.returncode == 1
    assert "bars missed" in result.stderr
