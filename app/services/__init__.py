"""The only bridge from the pages to ``models/``: cached loaders and probe calls.

Pages call functions of ``app.services.<page>``; those take hashable arguments only (strings, numbers, tuples),
are cached with ``st.cache_data``, and return plain numpy arrays and dataclasses. The engine — one per process,
holding every loaded model and ONNX Runtime session — is shared across sessions with ``st.cache_resource``.

torch is imported on first use, not here: the entry point and the home page need none of it, so the app starts
(and the home page renders) without paying for the import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import streamlit as st

from app.i18n import InputError

if TYPE_CHECKING:
    from models.engine import Engine, Result

BACKENDS = ("torch", "onnx")  # models.engine.BACKENDS, without importing torch

__all__ = ["BACKENDS", "engine", "run", "InputError"]


@st.cache_resource(show_spinner=False)
def engine() -> Engine:
    from models.engine import Engine

    return Engine()


def run(name: str, inputs: dict[str, np.ndarray], probes: tuple[str, ...] = (), backend: str = "torch") -> Result:
    """``Engine.run`` with the failures a user can meet turned into translated messages."""
    from models import zoo

    if not (zoo.checkpoint_dir(name) / "model.safetensors").exists():
        raise InputError("error.model_missing", name=name)
    if backend == "onnx" and not (zoo.checkpoint_dir(name) / "model.onnx").exists():
        raise InputError("error.onnx_missing", name=name)
    return engine().run(name, inputs, probes, backend=backend if backend in BACKENDS else "torch")
