"""Operation chains: a verifiable arithmetic task whose difficulty is the number of steps (the Reasoning page).

A problem is a start digit and ``k`` operations applied left to right, keeping only the last digit (arithmetic modulo
10). Each operation is ``+d`` or ``-d`` (d = 1 … 9) or ``*d`` with d ∈ {3, 7, 9} (the multipliers that are units
modulo 10), so every step is a bijection of the ten digits and the answer is uniform over 0 … 9: chance is 0.1 at
every length.

    question     3+4*3-5             start 3, then +4, ×3, −5
    prompt       3+4*3-5__________:  what the model reads: the question in eight operation slots, then ``:``
    direct       =6.                 the answer only
    cot          3,7,1,6=6.          the start copied, the running value after each operation (the scratchpad),
                                     then the answer

One step of the chain is a lookup any small model learns; the answer alone asks for ``k`` of them in one forward pass,
which is what chain-of-thought (Wei et al. 2022, 2201.11903) removes: each written value is read back by the next
step. Difficulty ``k`` is the number of operations.

A completion is well formed when it is zero or more digits separated by commas, then ``=``, one digit and ``.``
(``FORMAT``); the reward rule (``reward``) checks the answer after ``=`` against the true one, with a small bonus for
the format, as DeepSeek-R1 (2501.12948) rewards accuracy and format by rule rather than by a learned model.

Held-out problems: a chain of two or more operations whose question's CRC-32 is 0 modulo ``HOLD_OUT_EVERY`` is never
trained on (``held_out``); every training generator skips it and every evaluation draws only such problems. Single
operations are the table every chain is built from (210 of them): all are trained, and evaluated as they are.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

OPS = ("+", "-", "*")
MULTIPLIERS = (3, 7, 9)  # units modulo 10: multiplying by them is a bijection of the digits
ALPHABET = "0123456789+-*:=,._"  # every character of a prompt or completion
SLOT = "_"  # fills the operation slots a shorter question leaves empty in its prompt
PAD = 0  # id 0 pads; the characters are 1 … len(ALPHABET)
VOCAB = len(ALPHABET) + 1
END = "."
HOLD_OUT_EVERY = 10
MAX_STEPS = 8  # the longest chain any model here is asked
PROMPT_LENGTH = 1 + 2 * MAX_STEPS + 1  # every prompt: start digit, MAX_STEPS operation slots, ":" (18)
CONTEXT = PROMPT_LENGTH + 2 * MAX_STEPS + 4  # a prompt and the longest scratchpad completion (38)
FORMAT = re.compile(r"^(?:\d(?:,\d)*)?=(\d)\.$")
FORMAT_BONUS = 0.1  # reward of a well-formed completion with a wrong answer; a right one earns 1 + this

STYLES = ("direct", "cot")


@dataclass(frozen=True)
class Problem:
    start: int
    ops: tuple[tuple[str, int], ...]  # ("+", 4), ("*", 3), …

    @property
    def k(self) -> int:
        return len(self.ops)

    @property
    def question(self) -> str:
        """The problem as people write it: ``3+4*3-5``."""
        return f"{self.start}" + "".join(f"{op}{d}" for op, d in self.ops)

    @property
    def prompt(self) -> str:
        """What the model reads: the question in MAX_STEPS operation slots (the empty ones filled with ``_``), then
        ``:`` — ``3+4*3-5__________:``. Every prompt has one length, so the i-th operation, the ``:`` and the i-th
        written value sit at the same positions whatever ``k`` is (docs/training/reasoning.md, runs 7 and 8)."""
        return self.question + SLOT * (2 * (MAX_STEPS - self.k)) + ":"

    def values(self) -> list[int]:
        """The running value after each operation (the last one is the answer)."""
        out, x = [], self.start
        for op, d in self.ops:
            x = apply(x, op, d)
            out.append(x)
        return out

    @property
    def answer(self) -> int:
        return self.values()[-1] if self.ops else self.start

    def completion(self, style: str) -> str:
        """The target text after the prompt: ``=6.`` (direct) or ``3,7,1,6=6.`` (cot).

        The scratchpad starts by copying the start digit, so that every step, the first included, reads the value
        written just before it and its operation at one fixed distance back (18 and 17 tokens): with rotary
        positions that is one rule for every step, and the single-operation curriculum trains exactly it
        (docs/training/reasoning.md, runs 10–13: without the copy the second step was the one never learnt)."""
        if style == "direct":
            return f"={self.answer}{END}"
        if style == "cot":
            return ",".join(map(str, [self.start, *self.values()])) + f"={self.answer}{END}"
        raise ValueError(f"unknown style {style!r}; known: {', '.join(STYLES)}")


def apply(x: int, op: str, d: int) -> int:
    """One operation on a digit, keeping the last digit."""
    if op == "+":
        return (x + d) % 10
    if op == "-":
        return (x - d) % 10
    if op == "*":
        return (x * d) % 10
    raise ValueError(f"unknown operation {op!r}")


def held_out(problem: Problem) -> bool:
    return problem.k >= 2 and zlib.crc32(problem.question.encode()) % HOLD_OUT_EVERY == 0


def draw(rng: np.random.Generator, k: int) -> Problem:
    """One problem of ``k`` operations, uniformly: start digit, then for each step an operation and its operand."""
    ops = []
    for _ in range(k):
        op = OPS[int(rng.integers(3))]
        d = int(MULTIPLIERS[int(rng.integers(3))]) if op == "*" else int(rng.integers(1, 10))
        ops.append((op, d))
    return Problem(int(rng.integers(10)), tuple(ops))


def problems(rng: np.random.Generator, k: int, n: int, *, split: str) -> list[Problem]:
    """``n`` problems of ``k`` operations from one split: "train" never yields a held-out problem, "held_out" only
    those (distinct within the list when that many exist); for k = 1, where nothing is held out, "held_out" draws
    from the whole table."""
    if split not in ("train", "held_out"):
        raise ValueError(f"unknown split {split!r}")
    if k == 1:
        split = "train"
    out: list[Problem] = []
    seen: set[str] = set()
    total = 10 * 21**k  # start digits × (9 + 9 + 3 operations) per step
    distinct = split == "held_out" and n <= total // HOLD_OUT_EVERY // 2
    while len(out) < n:
        p = draw(rng, k)
        if held_out(p) != (split == "held_out") or (distinct and p.prompt in seen):
            continue
        seen.add(p.prompt)
        out.append(p)
    return out


def parse(prompt: str) -> Problem:
    """The problem a prompt text states (``3+4*3-5`` with or without the slots and the closing ``:``); ValueError if
    it states none: a start digit, then 1 … MAX_STEPS operations, each ``+``/``-`` and a digit 1–9 or ``*`` and 3, 7
    or 9."""
    text = prompt.strip().removesuffix(":").rstrip(SLOT)
    m = re.fullmatch(r"(\d)((?:[+\-*]\d)+)", text)
    if not m:
        raise ValueError("not a start digit followed by operations such as +4 or *3")
    ops = tuple((s[0], int(s[1])) for s in re.findall(r"[+\-*]\d", m.group(2)))
    if len(ops) > MAX_STEPS:
        raise ValueError(f"more than {MAX_STEPS} operations")
    for op, d in ops:
        if (op == "*" and d not in MULTIPLIERS) or d == 0:
            raise ValueError(f"operation {op}{d} is not one of the task's (+/-1…9, *3, *7, *9)")
    return Problem(int(m.group(1)), ops)


# ---- the reward rule -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    well_formed: bool
    answer: int | None  # the digit after ``=``, where the completion is well formed
    correct: bool
    reward: float


def written_values(completion: str) -> list[int | None]:
    """The running values a cot completion wrote after the start it copies, before ``=`` (``3,7,1,6=6.`` -> [7, 1,
    6]; None where a step is not one digit)."""
    head = completion.split("=", 1)[0]
    written = [int(v) if len(v) == 1 and v.isdigit() else None for v in head.split(",")] if head else []
    return written[1:]


def judge(completion: str, problem: Problem) -> Judgement:
    """The rule: 1 for the right answer in a well-formed completion, plus FORMAT_BONUS for the form alone; nothing
    for anything else (a right digit in a malformed completion earns nothing). The steps are not checked: only the
    answer is verifiable, as in R1's rule-based accuracy reward."""
    m = FORMAT.match(completion)
    if not m:
        return Judgement(False, None, False, 0.0)
    answer = int(m.group(1))
    correct = answer == problem.answer
    return Judgement(True, answer, correct, float(correct) + FORMAT_BONUS)


# ---- characters <-> ids ----------------------------------------------------------------------------------------------


def encode(text: str) -> list[int]:
    return [ALPHABET.index(c) + 1 for c in text]


def decode(ids) -> str:
    return "".join(ALPHABET[i - 1] for i in ids if 0 < i <= len(ALPHABET))


def batch(problems_: list[Problem], style: str | Sequence[str], length: int = CONTEXT) -> tuple[np.ndarray, np.ndarray]:
    """Training rows for next-token prediction: ids (n, length + 1), prompt then completion then padding, and a mask
    (n, length) of the positions whose next token is scored (the completion's tokens only, not the prompt). ``style``
    is one for every row, or one per row."""
    styles = [style] * len(problems_) if isinstance(style, str) else list(style)
    if len(styles) != len(problems_):
        raise ValueError(f"{len(styles)} styles for {len(problems_)} problems")
    ids = np.zeros((len(problems_), length + 1), dtype=np.int64)
    mask = np.zeros((len(problems_), length), dtype=bool)
    for r, (p, st) in enumerate(zip(problems_, styles)):
        prompt, completion = encode(p.prompt), encode(p.completion(st))
        row = prompt + completion
        if len(row) > length + 1:
            raise ValueError(f"{p.prompt}{p.completion(st)} is longer than {length + 1}")
        ids[r, : len(row)] = row
        mask[r, len(prompt) - 1 : len(row) - 1] = True
    return ids, mask
