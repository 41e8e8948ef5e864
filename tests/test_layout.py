"""The layering rules of DESIGN.md, checked on the source: models/ never imports Streamlit, page scripts never
import torch or models/ (they go through app/services), and nothing loads a pickle."""

import re
from pathlib import Path

from app.catalog import PAGES_DIR

ROOT = Path(__file__).resolve().parents[1]


def _sources(folder: Path):
    return [(p, p.read_text()) for p in folder.rglob("*.py")]


def test_models_never_import_streamlit():
    bad = [p for p, s in _sources(ROOT / "models") if re.search(r"^\s*(import|from) streamlit", s, flags=re.M)]
    assert not bad


def test_pages_never_import_torch_or_models():
    bad = [p for p, s in _sources(PAGES_DIR) if re.search(r"^\s*(import|from) (torch|models)\b", s, flags=re.M)]
    assert not bad


def test_nothing_loads_pickles():
    pattern = re.compile(r"torch\.load\(|pickle\.load|joblib\.load")
    bad = [p for folder in ("app", "models", "bench") for p, s in _sources(ROOT / folder) if pattern.search(s)]
    assert not bad


def test_checkpoints_are_safetensors_only():
    ckpts = ROOT / "models" / "checkpoints"
    suffixes = {p.suffix for p in ckpts.rglob("*") if p.is_file()}
    assert suffixes <= {".json", ".safetensors", ".onnx"}, suffixes
