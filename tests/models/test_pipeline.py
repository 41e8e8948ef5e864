"""train -> evaluate -> export -> run on both backends, end to end and in-process, on the demo model trained here for
a few dozen steps; the command line's answer to an unknown setting; and what ``--init-from`` records."""

import json
import shutil

import numpy as np
import pytest
import safetensors.torch
import torch

from models import evaluate, export, train, zoo
from models import recipes as registry
from models.engine import Engine

# Every field models/train.py writes on a card.
CARD_FIELDS = (
    "name",
    "arch",
    "data",
    "command",
    "seed",
    "settings",
    "params",
    "wall_time_s",
    "hardware",
    "stages",
    "metrics",
    "bars",
)


@pytest.fixture
def checkpoints(tmp_path, monkeypatch):
    """An empty zoo in a temporary folder: nothing here touches the shipped checkpoints. One torch thread: a model
    this small gains nothing from two, and on a busy machine two threads wait for each other (10× slower)."""
    monkeypatch.setenv("TE_CHECKPOINTS", str(tmp_path))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield tmp_path
    torch.set_num_threads(threads)


def test_train_evaluate_export_and_run_both_backends(checkpoints, capsys):
    rc = train.main(["demo", "--set", "steps=40"])
    ckpt = checkpoints / "demo"
    card = json.loads((ckpt / "card.json").read_text())
    assert [f for f in CARD_FIELDS if f not in card] == []
    assert card["command"] == "python -m models.train demo --seed 0 --set steps=40"
    assert (card["name"], card["arch"], card["seed"]) == ("demo", "demo", 0)
    assert card["settings"] == {**registry.recipe("demo").defaults, "steps": 40}
    assert [s["steps"] for s in card["stages"]] == [40]
    assert card["params"] == zoo.parameter_count(zoo.load("demo")) and card["wall_time_s"] > 0
    assert card["bars"] == registry.recipe("demo").bars
    missed = zoo.bars_missed(card["metrics"], card["bars"])
    assert rc == (1 if missed else 0)  # 40 steps may or may not reach the bar; the exit status says which
    assert not list(checkpoints.rglob("*.pt")) and not list(checkpoints.rglob("*.bin"))  # safetensors only

    capsys.readouterr()
    assert evaluate.main(["demo"]) == rc
    assert json.loads(capsys.readouterr().out) == card["metrics"]  # recomputed from the checkpoint, same numbers

    assert export.main(["demo"]) == 0
    assert (ckpt / "model.onnx").exists()

    engine = Engine(device="cpu")
    tokens = np.random.default_rng(3).integers(0, 16, size=(2, 9))
    a = engine.run("demo", {"tokens": tokens}, ("blocks.*.attn.pattern",), backend="torch")
    b = engine.run("demo", {"tokens": tokens}, ("blocks.*.attn.pattern",), backend="onnx")
    assert (a.backend, b.backend) == ("torch", "onnx") and a.device == b.device == "cpu"
    assert a.ms > 0 and b.ms > 0
    scale = max(1.0, float(np.abs(a.outputs["logits"]).max()))
    np.testing.assert_allclose(b.outputs["logits"], a.outputs["logits"], atol=1e-5 * scale, rtol=1e-4)
    assert a.probes.keys() == b.probes.keys() == {"blocks.0.attn.pattern", "blocks.1.attn.pattern"}


def test_an_unknown_setting_is_a_usage_error(checkpoints, capsys):
    with pytest.raises(SystemExit) as exit_:
        train.main(["demo", "--set", "unknown=1"])
    assert exit_.value.code == 2  # argparse's usage error
    err = capsys.readouterr().err
    assert "demo has no setting 'unknown'" in err and "steps" in err  # says which settings there are
    assert not (checkpoints / "demo").exists()  # nothing was trained


def test_init_from_starts_from_the_weights_and_records_the_source(checkpoints):
    source = zoo.SHIPPED / "demo"
    # One step at the first warm-up learning rate: only a model that starts from the trained weights can pass the bar.
    assert train.main(["demo", "--set", "steps=1", "--init-from", str(source)]) == 0
    card = json.loads((checkpoints / "demo" / "card.json").read_text())
    assert card["init_from"]["checkpoint"] == str(source)
    assert card["init_from"]["command"] == json.loads((source / "card.json").read_text())["command"]
    assert card["command"].endswith(f"--set steps=1 --init-from {source}")
    assert card["metrics"]["accuracy"] >= 0.95


def test_evaluate_exits_non_zero_when_a_bar_is_missed(checkpoints, capsys):
    shutil.copytree(zoo.SHIPPED / "demo", checkpoints / "demo")
    # Scramble the weights: the recomputed accuracy falls far below the card's bar.
    path = checkpoints / "demo" / "model.safetensors"
    weights = safetensors.torch.load_file(str(path))
    torch.manual_seed(0)
    safetensors.torch.save_file({k: torch.randn_like(v) for k, v in weights.items()}, str(path))
    assert evaluate.main(["demo"]) == 1
    assert "bars missed" in capsys.readouterr().err
