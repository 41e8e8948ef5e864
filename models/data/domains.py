"""Three distinguishable domains for a mixture-of-experts model to specialise on: English verse, code, arithmetic.

    shakespeare  the works of models/data/shakespeare.py (validation: its held-out plays)
    python       Python standard-library source: the top-level ``*.py`` files of the running interpreter's stdlib
                 folder, sorted by name; every 8th file is held out for validation
    arithmetic   generated lines ``a + b = c`` (also − and ×), from a seed; validation uses another seed

Every domain yields documents (strings). ``documents(domain, split)`` is deterministic for a given interpreter
(the stdlib files are part of it, so the card records its version). No network is used.
"""

from __future__ import annotations

import functools
import sys
import sysconfig
from pathlib import Path

import numpy as np

from models.data import bpe, shakespeare

DOMAINS = ("shakespeare", "python", "arithmetic")
SPLITS = ("train", "validation")
HOLD_OUT_EVERY = 8  # python: files with sorted index % 8 == 7 are validation
ARITHMETIC_SEEDS = {"train": 1, "validation": 2}
ARITHMETIC_DOCS = {"train": 3000, "validation": 200}
LINES_PER_DOC = 24


def stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def python_version() -> str:
    return sys.version.split()[0]


@functools.cache
def _python_files() -> tuple[Path, ...]:
    return tuple(sorted(stdlib_dir().glob("*.py"), key=lambda p: p.name))


def python_documents(split: str) -> list[str]:
    files = _python_files()
    chosen = [f for i, f in enumerate(files) if (i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1) == (split == "validation")]
    return [f.read_text(encoding="utf-8", errors="replace") for f in chosen]


def arithmetic_line(rng: np.random.Generator) -> str:
    op = "+-*"[int(rng.integers(3))]
    if op == "*":
        a, b = int(rng.integers(0, 100)), int(rng.integers(0, 100))
        return f"{a} * {b} = {a * b}"
    a, b = int(rng.integers(0, 1000)), int(rng.integers(0, 1000))
    return f"{a} {op} {b} = {a + b if op == '+' else a - b}"


def arithmetic_documents(split: str) -> list[str]:
    rng = np.random.default_rng(ARITHMETIC_SEEDS[split])
    return ["\n".join(arithmetic_line(rng) for _ in range(LINES_PER_DOC)) + "\n" for _ in range(ARITHMETIC_DOCS[split])]


@functools.cache
def _documents(domain: str, split: str) -> tuple[str, ...]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose one of {SPLITS}")
    if domain == "shakespeare":
        return tuple(shakespeare.plays(split).values())
    if domain == "python":
        return tuple(python_documents(split))
    if domain == "arithmetic":
        return tuple(arithmetic_documents(split))
    raise ValueError(f"unknown domain {domain!r}; choose one of {DOMAINS}")


def documents(domain: str, split: str = "train") -> list[str]:
    return list(_documents(domain, split))


# Short fixed samples, one per domain (held out of training), for the page's buttons and the golden test.
SAMPLES = {
    "shakespeare": "Thou art more lovely and more temperate, my lord; what say you to the king?",
    "python": "def parse(line):\n    if not line:\n        return None\n    return line.split(',')",
    "arithmetic": "417 + 286 = 703\n58 * 23 = 1334\n905 - 671 = 234",
}
SAMPLES["mixed"] = "To be or not: 12 + 30 = 42\nfor word in speech.split():\n    print(word)"


def summary() -> str:
    lines = [f"python {python_version()} stdlib: {stdlib_dir()} ({len(_python_files())} files)"]
    for domain in DOMAINS:
        for split in SPLITS:
            docs = documents(domain, split)
            lines.append(f"{domain:>12} {split:>10}: {len(docs):>5} documents, {sum(map(len, docs)):>10,} characters")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary())


# ---- token streams (a byte-level BPE of models/data/bpe.py) --------------------------------------------------------


@functools.cache
def _stream(tok_json: str, domain: str, split: str) -> np.ndarray:
    tok = bpe.load(tok_json)
    return np.concatenate([np.array([0, *tok.encode(d).ids], dtype=np.int64) for d in documents(domain, split)])


def stream(tok, domain: str, split: str) -> np.ndarray:
    """One domain's split as one id stream, each document after <|endoftext|> (id 0, as models.metrics encodes a
    document)."""
    return _stream(tok.to_str(), domain, split)


def validation_windows(tok, per_domain: int = 32, length: int = 128) -> tuple[np.ndarray, np.ndarray]:
    """Evenly spaced held-out windows (3·per_domain, length + 1) and their domain index (3·per_domain,), interleaved
    so that every 3 consecutive rows hold one window of each domain."""
    rows, labels = [], []
    per = [stream(tok, d, "validation") for d in DOMAINS]
    for j in range(per_domain):
        for d, ids in enumerate(per):
            s = (len(ids) - length - 1) * j // per_domain
            rows.append(ids[s : s + length + 1])
            labels.append(d)
    return np.stack(rows), np.array(labels)
