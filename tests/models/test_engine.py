"""The engine on every shipped checkpoint: ONNX Runtime agrees with torch on outputs and probes."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models import recipes as registry
from models import zoo
from models.engine import Engine, ort_providers, ort_session_options

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [n for n in zoo.available() if (zoo.checkpoint_dir(n) / "model.onnx").exists()]


@pytest.fixture(scope="module")
def engine():
    return Engine(device="cpu")


def test_demo_is_shipped():
    assert "demo" in SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_onnx_matches_torch_on_outputs_and_probes(engine, name):
    recipe = registry.recipe(name)
    inputs = recipe.example_inputs(zoo.checkpoint_dir(name))
    a = engine.run(name, inputs, recipe.probes, backend="torch")
    b = engine.run(name, inputs, recipe.probes, backend="onnx")
    assert a.outputs.keys() == b.outputs.keys() == set(recipe.output_names)
    assert a.probes.keys() == b.probes.keys() and a.probes
    # float32 on both sides; the two backends order their sums differently, nothing more.
    for key in a.outputs:
        np.testing.assert_allclose(a.outputs[key], b.outputs[key], atol=2e-4, rtol=1e-3)
    for key in a.probes:
        np.testing.assert_allclose(a.probes[key], b.probes[key], atol=2e-4, rtol=1e-3)


def test_result_says_what_ran(engine):
    r = engine.run("demo", {"tokens": np.zeros((1, 4), dtype=np.int64)}, backend="onnx")
    assert r.readout.startswith("onnx · cpu · ") and r.ms > 0
    with pytest.raises(ValueError):
        engine.run("demo", {"tokens": np.zeros((1, 4), dtype=np.int64)}, backend="tensorflow")


def test_sessions_are_shared_and_configured(engine):
    assert engine.session("demo") is engine.session("demo")
    assert engine.model("demo") is engine.model("demo")
    so = ort_session_options()
    assert so.intra_op_num_threads == 1 and so.inter_op_num_threads == 1
    assert so.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_no_cuda_is_requested_or_printed_without_a_gpu():
    if Engine().device == "cuda":
        pytest.skip("this machine has CUDA")
    assert ort_providers("cpu") == ["CPUExecutionProvider"]
    code = (
        "import numpy as np; from models.engine import Engine; e = Engine(); "
        "r = e.run('demo', {'tokens': np.zeros((1, 5), dtype=np.int64)}, ('*',), backend='onnx'); "
        "print(r.device, e.session('demo').get_providers())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ}
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "cpu ['CPUExecutionProvider']"
    assert "cuda" not in (out.stdout + out.stderr).lower()


@pytest.mark.gpu
@pytest.mark.parametrize("name", SHIPPED)
def test_both_backends_run_on_the_gpu_and_match_the_cpu(name):
    recipe = registry.recipe(name)
    inputs = recipe.example_inputs(zoo.checkpoint_dir(name))
    cpu = Engine(device="cpu").run(name, inputs, recipe.probes, backend="torch")
    gpu = Engine(device="cuda")
    for backend in ("torch", "onnx"):
        r = gpu.run(name, inputs, recipe.probes, backend=backend)
        assert r.device == "cuda", f"{backend} did not run on the GPU"
        for key in cpu.outputs:
            np.testing.assert_allclose(cpu.outputs[key], r.outputs[key], atol=1e-3, rtol=1e-2)
