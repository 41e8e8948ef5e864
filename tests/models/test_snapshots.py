"""Training recorded for the step slider: the snapshot schedule, ``Recorder`` beside ``Trainer``, snapshots kept in
float16 and verified against the card's sha256, ``NAME@STEP`` served like a checkpoint."""

from __future__ import annotations

import json

import pytest
import torch

from models import gpt, zoo
from models.training import Recorder, Trainer, snapshot_steps
from tests.models.tolerance import assert_close


def test_the_schedule_is_dense_early_and_spans_the_run():
    steps = snapshot_steps(3000, log_spaced=12, even=12)
    assert steps[0] == 0 and steps[-1] == 3000
    assert steps == sorted(set(steps))
    early = [s for s in steps if 0 < s <= 30]
    assert len(early) >= 5  # a mechanism that forms in the first tens of steps is caught
    assert all(s in steps for s in range(0, 3001, 250))  # and the run is covered evenly


@pytest.mark.parametrize("name", ["gpt@x", "gpt@-3", "gpt@"])
def test_a_snapshot_name_takes_a_whole_step(name):
    with pytest.raises(ValueError, match="NAME@STEP"):
        zoo.split_name(name)


def test_snapshot_names_round_trip():
    assert zoo.split_name("gpt-induction@400") == ("gpt-induction", 400)
    assert zoo.split_name("gpt") == ("gpt", None)
    assert zoo.snapshot_name("gpt-induction@7", 9) == "gpt-induction@9"
    assert zoo.snapshot_name("gpt", None) == "gpt"


def _train(tmp_path, monkeypatch, steps=12, at=(0, 3, 12)):
    monkeypatch.setenv("TE_CHECKPOINTS", str(tmp_path))
    torch.manual_seed(0)
    config = {"vocab": 50, "dim": 16, "n_heads": 2, "n_layers": 2, "max_len": 16, "mlp_ratio": 4}
    model = gpt.build(config)
    out = zoo.checkpoint_dir("tiny")
    out.mkdir(parents=True)
    kept = {}

    def measure(m):
        kept[len(kept)] = {k: v.clone() for k, v in m.state_dict().items()}
        return {"norm": round(float(sum(p.norm() for p in m.parameters())), 4)}

    recorder = Recorder(out, at, measure=measure)
    trainer = Trainer(
        model,
        lambda m, b: torch.nn.functional.cross_entropy(m(b[:, :-1]).flatten(0, 1), b[:, 1:].flatten()),
        steps=steps,
        warmup=2,
        recorder=recorder,
    )
    gen = torch.Generator().manual_seed(1)
    while not trainer.done:
        trainer.step(torch.randint(0, 50, (4, 9), generator=gen))
    model.eval()
    serving = {"arch": "gpt", "outputs": ["logits"], "step": None}
    card = {"snapshots": recorder.records, "history": recorder.history}
    zoo.save("tiny", model, config, card, serving=serving)
    return model, recorder, kept


def test_the_recorder_keeps_each_scheduled_step_and_every_loss(tmp_path, monkeypatch):
    model, recorder, kept = _train(tmp_path, monkeypatch)
    assert [r["step"] for r in recorder.records] == [0, 3, 12]
    assert recorder.history["step"] == list(range(1, 13))
    assert len(recorder.history["loss"]) == 12
    for r in recorder.records:
        path = zoo.checkpoint_dir("tiny") / r["file"]
        assert r["bytes"] == path.stat().st_size
        import hashlib

        assert r["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert "norm" in r["metrics"]


def test_a_snapshot_loads_the_weights_of_its_step_in_float16(tmp_path, monkeypatch):
    model, recorder, kept = _train(tmp_path, monkeypatch)
    tokens = torch.randint(0, 50, (2, 10), generator=torch.Generator().manual_seed(2))
    for i, step in enumerate((0, 3, 12)):
        snap = zoo.load(f"tiny@{step}")
        ref = gpt.build(zoo.read_config("tiny"))
        ref.load_state_dict(kept[i])
        with torch.inference_mode():
            got, want = snap.eval()(tokens), ref.eval()(tokens)
        assert_close(got, want, 2e-3)  # float16 weights: ~3 decimal digits
    # the snapshots differ from one another: training moved the weights
    with torch.inference_mode():
        first, last = zoo.load("tiny@0")(tokens), zoo.load("tiny@12")(tokens)
    assert (first - last).abs().max() > 1e-2


def test_a_changed_snapshot_file_or_an_unlisted_step_is_refused(tmp_path, monkeypatch):
    _train(tmp_path, monkeypatch)
    with pytest.raises(ValueError, match="no snapshot at step 5"):
        zoo.load("tiny@5")
    path = zoo.checkpoint_dir("tiny") / zoo.snapshot_file(3)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="sha256"):
        zoo.load("tiny@3")


def test_a_new_run_clears_the_snapshots_of_the_last(tmp_path, monkeypatch):
    _train(tmp_path, monkeypatch, at=(0, 3, 12))
    old = zoo.checkpoint_dir("tiny") / zoo.snapshot_file(3)
    assert old.exists()
    Recorder(zoo.checkpoint_dir("tiny"), [0])
    assert not old.exists()


def test_shipped_snapshots_match_their_cards():
    """Every shipped card's snapshots exist with the size and sha256 it lists (what a fresh clone serves)."""
    import hashlib

    found = 0
    for name in zoo.available():
        card = json.loads((zoo.checkpoint_dir(name) / "card.json").read_text())
        for r in card.get("snapshots", []):
            data = (zoo.checkpoint_dir(name) / r["file"]).read_bytes()
            assert len(data) == r["bytes"], (name, r["step"])
            assert hashlib.sha256(data).hexdigest() == r["sha256"], (name, r["step"])
            found += 1
    assert found == 0 or found >= 10
