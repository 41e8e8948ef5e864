"""Multi-token prediction (MTP): a LLaMA-style decoder with one extra module that predicts the token after next.

Paper: DeepSeek-V3, DeepSeek-AI 2024 (2412.19437) §2.2. The main model predicts t_{i+1} from t_{≤i} as usual. The MTP
module of depth k = 1 takes the main model's representation h_i of position i and the embedding of the *next* token
t_{i+1}, and predicts t_{i+2}; it keeps the causal chain (each prediction still sees every token before the one it
predicts), unlike parallel heads that guess t_{i+2} from h_i alone:

    h'_i   = M [RMSNorm(h_i) ; RMSNorm(Emb(t_{i+1}))]        M: (C, 2C), the module's projection (eq. 21)
    h^1    = TRM(h'_{1:T})                                  one Transformer block of the main model's kind, causal
    P_{i+2} = OutHead(h^1_i)                                 OutHead and Emb shared with the main model (eq. 23)
    L = L_main + λ · L_MTP ,  L_MTP = CE(P_{i+2}, t_{i+2})  λ = 0.3 for the first 10T of 14.8T tokens, then 0.1

Because the module reads t_{i+1}, its prediction of t_{i+2} rests on the same tokens as the main model's at position
i + 1 (its loss sits near the main head's, not above it); what it adds in training is a second target that the main
model's h_i must serve. The paper drops the module at inference, or uses it to draft: the main model's greedy next
token a at the last position plus the module's guess for the token after it, checked by the next forward of the main
model, is speculative decoding (§2.2 "MTP in Inference"; §5.4.3: acceptance 85-90 %, 1.8× tokens per second).
``speculative_greedy`` runs that loop over any forward.

What the paper fixes and what it leaves open: eq. 21 normalises both inputs of M with RMSNorm, and for k = 1 it calls
h_i "the representation given by the main model", without saying whether that is taken before or after the main
model's final RMSNorm; eq. 23 applies OutHead to h^1_i and names no norm between the block and the head.

Departures: the main model is our LLaMA decoder (models/llama.py, dense SwiGLU, grouped-query attention, output tied
to the embedding), not DeepSeek-V3's MoE with MLA. Our choices where the paper is silent: h_i is the residual stream
after the last block and *before* the main model's final RMSNorm (RMSNorm(h_i) in eq. 21 then plays that role), and
the module has its own final RMSNorm before the shared output head, as the main model has. We did not check either
against DeepSeek's released code. Sizes are ours.

``forward(tokens)`` returns both heads: ``logits`` (B, T, V) for t_{i+1} and ``mtp_logits`` (B, T, V) for t_{i+2}.
The module at position i < T − 1 reads the input's own t_{i+1}; at the last position it reads the main model's
greedy choice there (the token a speculative decoder would emit), so one forward drafts a token two ahead.

Glossary (shape letters): B batch, T positions, C model width, V vocabulary.

Probes: those of models/llama.py for the main model, ``mtp.block.attn.{q,k,v,scores,pattern,context}`` and
``mtp.block.resid`` for the module.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models import llama
from models.layers import RMSNorm, gpt2_init
from models.llama import Config
from models.probe import name_probes

PRESETS = llama.PRESETS
PROBES = (*llama.PROBES, "mtp.block.attn.pattern")

# λ of the paper's schedule: 0.3 for the first 10T of its 14.8T training tokens, then 0.1.
LAMBDA = ((10 / 14.8, 0.3), (1.0, 0.1))


def mtp_weight(progress: float) -> float:
    """λ at ``progress`` (0..1) of training, the paper's two values at the paper's switch point."""
    return next(w for end, w in LAMBDA if progress < end or end == 1.0)


class MTPModule(nn.Module):
    """One MTP module (depth 1): M [RMSNorm(h) ; RMSNorm(Emb(t_next))], one LLaMA block, a final RMSNorm."""

    def __init__(self, c: Config):
        super().__init__()
        self.h_norm, self.e_norm = RMSNorm(c.dim), RMSNorm(c.dim)
        self.proj = nn.Linear(2 * c.dim, c.dim, bias=False)  # M_k
        self.block = llama.Block(c)
        self.norm = RMSNorm(c.dim)

    def forward(self, h: torch.Tensor, e_next: torch.Tensor, mask, rope) -> torch.Tensor:
        x = self.proj(torch.cat([self.h_norm(h), self.e_norm(e_next)], dim=-1))  # (B, T, C)
        return self.norm(self.block(x, mask, rope))


class MTPDecoder(llama.Llama):
    """models.llama.Llama plus one MTP module; the output head (the tied embedding) is shared."""

    def __init__(self, c: Config):
        super().__init__(c)
        self.mtp = MTPModule(c)
        self.mtp.apply(gpt2_init)  # after the main model's init: its weights start as llama's for the same seed
        for proj in (self.mtp.block.attn.wo, self.mtp.block.mlp.w2):
            nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)

    def forward(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:  # type: ignore[override]
        """tokens (B, T) -> (logits (B, T, V) for t_{i+1}, mtp_logits (B, T, V) for t_{i+2})."""
        h = self.trunk(tokens)  # (B, T, C)
        logits = self.norm(h) @ self.embed.weight.T
        following = torch.cat([tokens[:, 1:], logits[:, -1:].argmax(-1)], dim=1)  # t_{i+1}; greedy at the end
        mask, rope = self.positions(tokens.shape[1], 0, tokens.device)
        mtp = self.mtp(h, self.embed(following), mask, rope) @ self.embed.weight.T
        return logits, mtp

    def new_cache(self):
        raise NotImplementedError("the MTP decoder runs whole sequences (speculative_greedy re-runs the prefix)")


def build(config: dict) -> MTPDecoder:
    return MTPDecoder(Config(**config))


# ---- speculative decoding with the MTP module as the drafter ---------------------------------------------------------


@dataclass
class Speculation:
    tokens: list[int]  # the generated tokens (the prompt not included)
    drafted: list[bool]  # per generated token: was it a draft the main model accepted
    proposals: list[tuple[int, int, bool]]  # (position in tokens, drafted id, accepted) per draft checked
    forwards: int  # main-model forwards used

    @property
    def acceptance(self) -> float:
        return sum(a for *_, a in self.proposals) / max(1, len(self.proposals))

    @property
    def tokens_per_forward(self) -> float:
        return len(self.tokens) / max(1, self.forwards)


def speculative_greedy(
    forward: Callable[[list[int]], tuple[np.ndarray, np.ndarray]], prompt: list[int], n_new: int, context: int
) -> Speculation:
    """Greedy decoding of the main model, drafting with the MTP head. ``forward(ids)`` returns the (T, V) main and
    MTP logits of one sequence (a wrapper of ``MTPDecoder.forward`` or of its ONNX session); at most ``context``
    tokens are fed (the last ones).

    Each forward runs the confirmed tokens plus the pending draft d. The main model's choice a at the last confirmed
    position is always kept. If a = d, the draft is accepted and the main model's choice after d comes with it (two
    tokens from one forward) and the MTP head, reading that choice, drafts the next one. If a ≠ d, only a is kept,
    and the next forward runs without a draft (its MTP output drafts again). The tokens are exactly those of plain
    greedy decoding; only the number of forwards changes.
    """
    seq, draft = list(prompt), None
    out = Speculation([], [], [], 0)

    def emit(token: int, was_draft: bool) -> None:
        seq.append(token)
        out.tokens.append(token)
        out.drafted.append(was_draft)

    while len(out.tokens) < n_new:
        fed = (seq + ([draft] if draft is not None else []))[-context:]
        main, mtp = forward(fed)
        out.forwards += 1
        last = len(fed) - 1 - (draft is not None)  # the last confirmed position in ``fed``
        a = int(main[last].argmax())
        if draft is None:
            emit(a, False)
            draft = int(mtp[last].argmax())
            continue
        accepted = a == draft
        out.proposals.append((len(out.tokens), draft, accepted))
        if not accepted:
            emit(a, False)
            draft = None
            continue
        emit(a, True)
        if len(out.tokens) < n_new:
            emit(int(main[last + 1].argmax()), False)
            draft = int(mtp[last + 1].argmax())
    del out.tokens[n_new:], out.drafted[n_new:]
    return out


def plain_greedy(
    forward: Callable[[list[int]], tuple[np.ndarray, np.ndarray]], prompt: list[int], n_new: int, context: int
) -> list[int]:
    """Greedy decoding of the main head alone, one forward per token (what ``speculative_greedy`` must equal)."""
    seq = list(prompt)
    for _ in range(n_new):
        seq.append(int(forward(seq[-context:])[0][-1].argmax()))
    return seq[len(prompt) :]
