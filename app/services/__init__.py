"""The only bridge from the pages to ``models/``: cached loaders and probe calls.

Pages call functions of ``app.services.<page>``; those take hashable arguments only (strings, numbers, tuples),
are cached with ``st.cache_data``, and return plain numpy arrays and dataclasses. The engine — one per process,
holding every loaded model and ONNX Runtime session — is shared across sessions with ``st.cache_resource``.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.i18n import InputError
from models import zoo
from models.engine import BACKENDS, Engine, Result, default_device

__all__ = ["BACKENDS", "Result", "default_device", "engine", "run", "InputError"]


@st.cache_resource(show_spinner=False)
def engine() -> Engine:
    return Engine()


def run(name: str, inputs: dict[str, np.ndarray], probes: tuple[str, ...] = (), backend: str = "torch") -> Result:
    """``Engine.run`` with the failures a user can meet turned into translated messages."""
    if not (zoo.checkpoint_dir(name) / "model.safetensors").exists():
        raise InputError("error.model_missing", name=name)
    if backend == "onnx" and not (zoo.checkpoint_dir(name) / "model.onnx").exists():
        raise InputError("error.onnx_missing", name=name)
    return engine().run(name, inputs, probes, backend=backend if backend in BACKENDS else "torch")
