"""Shared test settings: skip `gpu` tests without CUDA; no background warm-up in the test process; shared figures
checked for changes."""

import os

import pytest
import torch

# The app's warm-up thread (app.shared.services.warm_up) would load every checkpoint beside the tests and could still
# be in torch when the interpreter exits. The servers the e2e tests start inherit this too: their first visits are
# timed cold, as before. tests/app/test_shell.py runs the warm-up itself.
os.environ.setdefault("TE_WARM_UP", "0")
# Every page run in the tests (AppTest here, and the e2e servers, which inherit it) checks that no shared figure
# (app.shared.figures.cached) was changed after it was first sent.
os.environ.setdefault("TE_CHECK_FIGURES", "1")


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
