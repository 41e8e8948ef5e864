"""The table of real checkpoints (models/pretrained) against the conversions and the places it resolves."""

from __future__ import annotations

import importlib

import pytest

from models import pretrained, zoo


def test_every_known_checkpoint_has_a_conversion_into_an_architecture_of_ours():
    for known in pretrained.TABLE:
        module = pretrained.conversion(known.arch)
        assert module.ARCH == known.arch and module.HF_ARCHITECTURES and callable(module.from_hf), known.key
        assert callable(importlib.import_module(f"models.{known.arch}").build), known.key
        assert known.repos and all(r.count("/") <= 1 for r in known.repos), known.key
        assert known.paper == "" or known.paper[4] == ".", known.key  # an arXiv id (2502.02737) or none


def test_real_keys_resolve_to_their_conversion_folder_and_ours_do_not(tmp_path, monkeypatch):
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path))
    assert zoo.checkpoint_dir("gpt2") == tmp_path / "gpt2"
    assert zoo.checkpoint_dir("gpt") == zoo.checkpoints_root() / "gpt"
    assert not set(zoo.available()) & set(pretrained.KNOWN)  # the warm-up loads ours only
    with pytest.raises(ValueError):
        pretrained.conversion("../x")


def test_how_to_get_names_a_command_for_every_key():
    assert pretrained.how_to_get("smollm2-135m") == "python -m models.data.pretrained"
    assert pretrained.how_to_get("vit-base-patch16-224").endswith("model.safetensors preprocessor_config.json")
    assert "tokenizer.json" in pretrained.how_to_get("t5-small")
