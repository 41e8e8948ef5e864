"""The real pretrained model on CUDA: with a GPU present the engine serves SmolLM2-135M-Instruct from it, and its
logits and attention patterns are the CPU's within float32 error, relative to their scale. Skipped without a CUDA
device (tests/conftest.py) or without the model (``python -m models.data.pretrained`` brings it)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models import pretrained
from models.engine import Engine
from tests.models.tolerance import assert_close

REAL = "smollm2-135m"
TEXT = "The capital of France is Paris. The capital of Italy is Rome. The capital of France is"


@pytest.mark.gpu
def test_smollm2_runs_on_the_gpu_through_the_engine_and_matches_the_cpu():
    if REAL not in pretrained.available():
        pytest.skip("run: python -m models.data.pretrained")
    folder = pretrained.prepare(REAL)
    from tokenizers import Tokenizer

    tokens = np.array([Tokenizer.from_file(str(folder / "tokenizer.json")).encode(TEXT).ids], dtype=np.int64)
    probes = ("blocks.*.attn.pattern",)
    cpu = Engine(device="cpu").run(REAL, {"tokens": tokens}, probes)
    engine = Engine()  # the default device: CUDA where present, as the app's
    gpu = engine.run(REAL, {"tokens": tokens}, probes)
    assert engine.device == "cuda" and gpu.device == "cuda"
    assert next(engine.model(REAL).parameters()).device.type == "cuda"
    logits_cpu, logits_gpu = cpu.outputs["logits"], gpu.outputs["logits"]
    assert logits_gpu.shape == logits_cpu.shape == (1, tokens.shape[1], 49_152)
    assert_close(logits_gpu, logits_cpu, 1e-3, err_msg="logits")
    assert logits_gpu[0, -1].argmax() == logits_cpu[0, -1].argmax()  # ' Paris'
    assert set(gpu.probes) == set(cpu.probes) and len(cpu.probes) == 30
    for name, pattern in cpu.probes.items():
        assert_close(gpu.probes[name], pattern, 1e-3, err_msg=name)
    torch.cuda.empty_cache()
