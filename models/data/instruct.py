"""Instructions and a preference rule for the alignment checkpoints (InstructGPT 2203.02155, DPO 2305.18290).

**The instruction.** Every prompt asks for one line in a speaker's voice, after the line spoken before it:

    MACBETH.
    So foul and fair a day I have not seen.

    Reply as BANQUO, in one line:

A demonstration (what supervised fine-tuning imitates) is the first line the play really gives that speaker, then
``<|endoftext|>``. The format is what SFT must teach: the pre-trained model has never seen a reply stop.

**The preference rule** (the stand-in for InstructGPT's labellers; never shown to the policy, only to the reward
model through preference pairs): a reply that keeps the format beats one that does not; between two that do, the
*warmer* one wins — warmth is the number of distinct kind words in it (love, sweet, gentle …) minus the number of
distinct harsh ones (death, blood, villain …). Equal scores are a tie. Distinct words only: saying "love" three
times is no warmer than once, which a reward model learnt from pairs need not know (over-optimisation).

Prompts come from speeches of the training plays (``split="train"``) or of the held-out validation plays
(``"validation"``), sampled with a seed.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from models.data import shakespeare

END = "<|endoftext|>"
INSTRUCTION = "Reply as {speaker}, in one line:\n"
MAX_WORDS = 12  # a well-formed reply has 1 … MAX_WORDS words
MAX_PROMPT_CHARS = 120  # the line replied to is cut to this many characters (prompts stay short)
CURVE_PROMPTS = 128  # held-out prompts PPO's curves are measured on (the ppo card's)
KIND = frozenset(
    "love loves loved lov'd loving sweet sweetly gentle gentler fair fairest kind kindly kindness good dear dearest "
    "grace gracious joy joys happy happiness bless blessed blessing heaven heavens noble honest true truth friend "
    "friends peace merry hope smile smiles comfort mercy virtue beauty beauteous delight tender thanks welcome".split()
)
HARSH = frozenset(
    "death dead die dies died dying blood bloody kill killed murder murderer villain villains curse cursed hate "
    "hated hateful foul vile woe grief sorrow tears fear fears hell damn damned poison traitor traitors "
    "slave slaves devil devils plague rogue knave fool wretch wretched".split()
)
_SPEAKER = re.compile(r"^([A-Z][A-Z' .-]{1,30})\.$")  # a speech header: "FIRST WITCH."
_WORD = re.compile(r"[a-z']+")


@dataclass(frozen=True)
class Example:
    previous: str  # who spoke the line replied to
    line: str  # that line, cut to MAX_PROMPT_CHARS
    speaker: str  # who replies
    reply: str  # the play's line (a demonstration), without END

    @property
    def prompt(self) -> str:
        """What the models read; ends with the instruction's newline, the reply follows."""
        return prompt_for(self.previous, self.line, self.speaker)


@dataclass(frozen=True)
class Judged:
    well_formed: bool
    kind: tuple[str, ...]  # the distinct kind words, sorted
    harsh: tuple[str, ...]
    score: float  # warmth if well formed, else -10 (always below any well-formed reply)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def judge(reply: str, ended: bool = True) -> Judged:
    """The rule on one reply: ``reply`` is the text before END, ``ended`` whether END was written."""
    w = words(reply)
    formed = ended and "\n" not in reply.strip(" ") and 1 <= len(w) <= MAX_WORDS
    kind, harsh = tuple(sorted(set(w) & KIND)), tuple(sorted(set(w) & HARSH))
    return Judged(formed, kind, harsh, float(len(kind) - len(harsh)) if formed else -10.0)


def prefer(a: Judged, b: Judged) -> int:
    """+1 if reply a wins, -1 if b wins, 0 for a tie."""
    return int(np.sign(a.score - b.score))


def prompt_for(previous_speaker: str, line: str, speaker: str) -> str:
    """The prompt replying to ``line`` of ``previous_speaker`` as ``speaker``."""
    return f"{previous_speaker}.\n{line[:MAX_PROMPT_CHARS]}\n\n" + INSTRUCTION.format(speaker=speaker)


def speeches(play: str) -> list[tuple[str, list[str]]]:
    """(speaker, lines) for each speech of a play: a header line "NAME." then its lines up to a blank line; stage
    directions in brackets are dropped."""
    out: list[tuple[str, list[str]]] = []
    for block in play.split("\n\n"):
        lines = [ln.strip() for ln in block.strip().split("\n") if ln.strip() and not ln.strip().startswith("[")]
        if len(lines) >= 2 and (m := _SPEAKER.match(lines[0])):
            out.append((m.group(1).strip(), lines[1:]))
    return out


@functools.cache
def all_examples(split: str) -> tuple[Example, ...]:
    """Every reply of one speaker to the line just before it from another, in the plays of ``split``, whose first
    line is a well-formed reply (the demonstrations keep the format they teach)."""
    found = []
    for play in shakespeare.plays(split).values():
        found_in_play = speeches(play)
        for (s1, lines1), (s2, lines2) in zip(found_in_play, found_in_play[1:]):
            reply = lines2[0]
            if s1 != s2 and judge(reply).well_formed:
                found.append(Example(s1, lines1[-1][:MAX_PROMPT_CHARS], s2, reply))
    return tuple(found)


def examples(split: str, n: int, seed: int) -> list[Example]:
    """``n`` examples of ``split`` drawn without replacement with ``seed`` (all of them if there are fewer)."""
    pool = all_examples(split)
    idx = np.random.default_rng(seed).permutation(len(pool))[:n]
    return [pool[i] for i in sorted(idx)]


# ---- a byte-level BPE's ids (models/data/bpe.py) --------------------------------------------------------------------


def encode(tok, text: str) -> list[int]:
    return tok.encode(text).ids


def end_id(tok) -> int:
    return tok.token_to_id(END)


def reply_text(tok, ids: list[int]) -> tuple[str, bool]:
    """A reply's ids (up to and including END, then padding) -> (its text before END, whether END was written)."""
    end = end_id(tok)
    ended = end in ids
    return tok.decode(ids[: ids.index(end)] if ended else ids), ended
