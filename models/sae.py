"""A sparse autoencoder (SAE): a dictionary of directions that a layer's activations are sparse sums of.

Paper: Gao et al. 2024, "Scaling and evaluating sparse autoencoders" (arXiv 2406.04093): the TopK autoencoder,
which sets the sparsity directly (k features per token) instead of tuning an L1 penalty. The idea of reading a
model through such a dictionary: Bricken et al. 2023, "Towards Monosemanticity" (ReLU + L1); a later variant with a
learnt threshold per feature: Rajamanoharan et al. 2024, "Jumping Ahead" (arXiv 2407.14435, JumpReLU).

    x' = s · x                                          (s: one fixed scalar for the whole layer, see below)
    z  = TopK(W_enc (x' − b_pre) + b_enc)               (keep the k largest pre-activations, ReLU them, zero the rest)
    x̂' = W_dec z + b_pre  ;  x̂ = x̂' / s                (each column W_dec[:, i] has unit norm: feature i's direction)
    L  = ‖x' − x̂'‖² + α · ‖e − W_dec z_aux‖²          (AuxK: e = x' − x̂', z_aux = TopK_{k_aux} of the pre-
                                                         activations of the features dead for a while; α = 1/32)

Glossary (shape letters): B batch, T positions, d the layer's width (192 for our GPT), n features (the dictionary's
size), k features kept per token.

The input scale ``s`` makes the mean squared norm of the training activations equal to d (one number for every
input, stored in ``Config.scale``; the JumpReLU paper likewise fixes the scale of its inputs with one constant): the
learning rate and the numbers on the card do not then depend on how large this model's stream happens to be.
``forward`` takes and gives the stream in the model's own units.

Where this departs from the paper: the paper's TopK equation has no encoder bias; here ``b_enc`` is kept (a
per-feature offset, as its ReLU baseline has) — it only shifts which features make the top k. ``b_pre`` starts at the
training activations' mean (the paper: their geometric median), W_enc starts as W_decᵀ (as in the paper).

Why TopK: it fixes L0 at k by construction, and measured better here than ReLU + L1 (Bricken et al.): at 400 steps
on the same vectors, TopK with k = 32 explained 0.963 of the held-out variance, ReLU + L1 with λ = 1 only 0.586
while keeping 108 features on per token (JumpReLU was not tried). What TopK gave on the held-out plays (``gpt-sae``,
4,096 features, k = 32): fraction of variance explained 0.994, the LM's loss +0.054 nats per token with x̂ spliced
in (of 5.99 nats that zeroing the stream costs), 9.8 % of the features silent on all 127,705 validation tokens.
docs/training/sae.md has the sweep and what was tried.

Splicing: ``splice()`` gives the override that replaces the stream at ``Config.hook`` (a probe of models/gpt.py or
models/llama.py, ``blocks.{i}.resid``) by x̂, through ``models.probe.intervene`` — the project's intervention
mechanism — optionally with an edit of z (switch a feature off, scale it) and the reconstruction error kept.
``activations()`` reads the stream there through the same mechanism, ending the forward at the hook.

A preset (``PRESETS``) names the base model and the hook: ``shipped`` is ``gpt-sae`` (our GPT after block 1),
``smollm2`` is ``smollm2-sae`` (SmolLM2-135M-Instruct after block 14 of 30, width 576, 4,608 features, k = 32), both
trained by models/recipes/sae.py. SmolLM2's stream there carries massive activations (the first token of a context:
norm about 24,000 against about 160 elsewhere); ``Config.passthrough_norm`` leaves those out (see ``reads``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models.probe import Override, intervene


@dataclass
class Config:
    d_in: int = 192  # the width of the stream it reads
    n_features: int = 4096
    k: int = 32  # features kept per token
    hook: str = "blocks.1.resid"  # the probe it reads and replaces: the stream after block 1 of 4
    model: str = "gpt"  # the checkpoint whose stream it reads (ours, or a real one: ``smollm2-135m``)
    scale: float = 1.0  # s: the stream is multiplied by it before encoding (mean ‖s·x‖² = d_in on training data)
    # a vector whose norm (model units) exceeds this is not read: it passes a splice unchanged, fires no feature and
    # is left out of training and of the reconstruction measures (0: every vector is read). SmolLM2's stream after
    # block 14 holds a few "massive activations" (norm about 24,000 against about 160: the first token of every
    # window, the attention sink) that no 576-wide dictionary of unit directions should spend features on.
    passthrough_norm: float = 0.0


PRESETS = {
    "tiny": Config(d_in=32, n_features=96, k=4, hook="blocks.0.resid", model="gpt"),
    "shipped": Config(),
    # SmolLM2-135M-Instruct after block 14 of its 30 (width 576); 4,608 = 8 × 576 features: the largest float16
    # dictionary under 12 MB (2 · 576 · 4,608 · 2 bytes = 10.6 MB); d_in is the base model's width when trained
    "smollm2": Config(
        d_in=576, n_features=4608, k=32, hook="blocks.14.resid", model="smollm2-135m", passthrough_norm=2000.0
    ),
}


class SAE(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.W_enc = nn.Parameter(torch.empty(c.n_features, c.d_in))  # (n, d)
        self.b_enc = nn.Parameter(torch.zeros(c.n_features))  # (n,)
        self.W_dec = nn.Parameter(torch.empty(c.d_in, c.n_features))  # (d, n): column i is feature i's direction
        self.b_pre = nn.Parameter(torch.zeros(c.d_in))  # (d,)
        nn.init.normal_(self.W_dec)
        with torch.no_grad():
            self.normalise_decoder()
            self.W_enc.copy_(self.W_dec.T)

    # ---- the paper's equations -------------------------------------------------------------------------------------

    def pre_activations(self, x: torch.Tensor) -> torch.Tensor:
        """(..., d) stream -> (..., n): W_enc (s·x − b_pre) + b_enc."""
        x = x.to(self.W_enc.dtype) * self.config.scale
        return (x - self.b_pre) @ self.W_enc.T + self.b_enc

    def encode(self, x: torch.Tensor) -> torch.Tensor:
        """(..., d) stream -> z (..., n): the k largest pre-activations, ReLU'd; every other feature 0 (and every
        feature 0 on a vector the dictionary does not read: ``reads``)."""
        z = top_k(self.pre_activations(x), self.config.k)
        return z if self.config.passthrough_norm <= 0 else z * self.reads(x)[..., None]

    def decode(self, z: torch.Tensor) -> torch.Tensor:
        """z (..., n) -> x̂ (..., d) in the stream's units: (W_dec z + b_pre) / s."""
        return (z @ self.W_dec.T + self.b_pre) / self.config.scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(..., d) -> x̂ (..., d)."""
        return self.decode(self.encode(x))

    @torch.no_grad()
    def normalise_decoder(self) -> None:
        """Every decoder column to unit norm (after each optimiser step, as in the paper)."""
        self.W_dec /= self.W_dec.norm(dim=0, keepdim=True).clamp_min(1e-12)

    def reads(self, x: torch.Tensor) -> torch.Tensor:
        """(..., d) stream -> (...,) bool: the vectors the dictionary reads (``Config.passthrough_norm``)."""
        if self.config.passthrough_norm <= 0:
            return torch.ones(x.shape[:-1], dtype=torch.bool, device=x.device)
        return x.float().norm(dim=-1) <= self.config.passthrough_norm

    def direction(self, i: int) -> torch.Tensor:
        """Feature i's unit direction in the (scaled) stream, (d,)."""
        return self.W_dec[:, i]

    # ---- reading and splicing our GPT ----------------------------------------------------------------------------

    def splice(
        self,
        edit: Callable[[torch.Tensor], torch.Tensor] | None = None,
        *,
        keep_error: bool = False,
        replace: Callable[[torch.Tensor], torch.Tensor] | None = None,
    ) -> dict[str, Override]:
        """The ``models.probe.intervene`` argument that replaces the stream at ``Config.hook`` by x̂.

        ``edit``: z -> z' before decoding (a feature switched off or scaled); ``keep_error``: add back the
        reconstruction error x − x̂ of the unedited z, so only the edit changes the stream (with no edit: the clean
        run); ``replace``: x -> what flows on instead of x̂ (``lambda x: x`` gives exactly the clean model). A vector
        the dictionary does not read (``reads``) flows on unchanged."""

        def fn(x: torch.Tensor, name: str) -> torch.Tensor:
            if replace is not None:
                return replace(x)
            z = self.encode(x)
            if keep_error:  # x plus what the edit changes in x̂: exactly x when the edit changes nothing
                out = x if edit is None else (x + (self.decode(edit(z)) - self.decode(z))).to(x.dtype)
            else:
                out = self.decode(edit(z) if edit is not None else z).to(x.dtype)
            return out if self.config.passthrough_norm <= 0 else torch.where(self.reads(x)[..., None], out, x)

        return {self.config.hook: fn}


def top_k(pre: torch.Tensor, k: int) -> torch.Tensor:
    """(..., n) -> (..., n): the k largest entries of each row through a ReLU, the rest 0."""
    values, indices = pre.topk(k, dim=-1)
    return torch.zeros_like(pre).scatter(-1, indices, torch.relu(values))


class _Reached(Exception):
    """Raised by the override at the hook: carries the stream there and ends the forward."""


def activations(model: nn.Module, tokens: torch.Tensor, hook: str) -> torch.Tensor:
    """The stream (B, T, d) of ``model`` (models.gpt.GPT, models.llama.Llama: anything with ``trunk``) at probe
    ``hook`` for tokens (B, T). The forward stops there: an override (``models.probe.intervene``) at the hook hands
    the tensor out by raising, so the blocks after it never run (SmolLM2 after block 14: half the cost)."""

    def stop(x: torch.Tensor, name: str) -> torch.Tensor:
        raise _Reached(x.detach())

    with torch.inference_mode(), intervene({hook: stop}):
        try:
            model.trunk(tokens)
        except _Reached as reached:
            return reached.args[0]
    raise ValueError(f"the model has no probe {hook!r}")


def logit_weights(model: nn.Module, direction: torch.Tensor) -> torch.Tensor:
    """The direct logit weights (V,) of a direction u (d,) in the stream: W_U (γ ⊙ u), the final norm's gain γ
    applied and its normalisation left out, the tokens u promotes (+) and suppresses (−) when added to the last
    stream. Ours (models.gpt.GPT): γ of ``ln_f``, W_U = E (tied); a LLaMA (models.llama.Llama): γ of the final
    RMSNorm ``norm``, W_U = E, or ``head`` where the output matrix is its own."""
    gain = model.ln_f.weight if hasattr(model, "ln_f") else model.norm.weight
    head = getattr(model, "head", None)
    return (model.embed.weight if head is None else head.weight) @ (gain * direction)


HIST_BINS = 24  # a feature's activation histogram in the index: bars from 0 to its largest activation


@torch.inference_mode()
def feature_index(
    dictionary: SAE, model: nn.Module, docs: list, top: int = 8, window: int = 256, batch: int = 16
) -> dict[str, torch.Tensor]:
    """What a feature browser needs, from held-out documents (each a 1-D array of ids): every document read in
    consecutive windows of ``window`` tokens (each window its own context), and for each feature how many tokens it
    fired on, its ``top`` strongest tokens, strongest first, and how strongly it fired where it fired.

    Returns tensors: ``tokens`` (N,) the documents' ids one after the other (int16; int32 where an id needs it, as
    SmolLM2's 49,152 do), ``doc_starts`` (D,) int32 where each begins; ``fired`` (n,) int32; ``top_position`` (n, top)
    int32 into ``tokens`` (−1 where the feature fired on fewer tokens), ``top_activation`` (n, top) float16 (0 there).
    Ties keep the earlier token. ``histogram`` (n, HIST_BINS) int32: the tokens it fired on, by activation in
    HIST_BINS equal bars from 0 to its largest activation (``numpy.histogram``'s bars: each half-open but the last); a
    row sums to ``fired``. A vector the dictionary does not read (``SAE.reads``) fires nothing."""
    n = dictionary.config.n_features
    starts = np.cumsum([0] + [len(d) for d in docs[:-1]])
    pieces = []  # (global start, ids of one window)
    for start, doc in zip(starts, docs):
        pieces += [(int(start) + i, np.asarray(doc[i : i + window])) for i in range(0, len(doc), window)]
    fired = torch.zeros(n, dtype=torch.int64)
    which, values = [], []  # every (feature, activation) where a feature fired: the histograms, once its top is known
    best_act = torch.full((top, n), -1.0)
    best_pos = torch.full((top, n), -1, dtype=torch.int64)
    by_length: dict[int, list] = {}
    for piece in pieces:
        by_length.setdefault(len(piece[1]), []).append(piece)
    for length, group in sorted(by_length.items()):
        for b in range(0, len(group), batch):
            rows = group[b : b + batch]
            tokens = torch.as_tensor(np.stack([ids for _, ids in rows]), dtype=torch.int64)
            z = dictionary.encode(activations(model, tokens, dictionary.config.hook)).reshape(-1, n)  # (R·L, n)
            pos = torch.as_tensor([s + i for s, _ in rows for i in range(length)], dtype=torch.int64)
            fired += (z > 0).sum(0)
            on = z.nonzero()
            which.append(on[:, 1])
            values.append(z[on[:, 0], on[:, 1]])
            vals, idx = z.topk(min(top, len(z)), dim=0)  # (top, n)
            acts = torch.cat([best_act, vals])
            where = torch.cat([best_pos, pos[idx]])
            # strongest first; among equals the earlier position (a stable order whatever the batching)
            order = torch.argsort(where, dim=0)
            acts, where = acts.gather(0, order), where.gather(0, order)
            keep = torch.sort(acts, dim=0, descending=True, stable=True).indices[:top]
            best_act, best_pos = acts.gather(0, keep), where.gather(0, keep)
    none = best_act <= 0
    histogram = np.zeros((n, HIST_BINS), dtype=np.int32)
    if which:
        f, v = torch.cat(which).numpy(), torch.cat(values).float().numpy()
        order = np.argsort(f, kind="stable")
        f, v = f[order], v[order]
        bounds = np.searchsorted(f, np.arange(n + 1))
        tops = best_act[0].float().numpy()
        for i in np.nonzero(bounds[1:] > bounds[:-1])[0]:
            histogram[i] = np.histogram(v[bounds[i] : bounds[i + 1]], bins=HIST_BINS, range=(0.0, float(tops[i])))[0]
    ids = np.concatenate(docs)
    return {
        "tokens": torch.as_tensor(ids, dtype=torch.int16 if ids.max(initial=0) < 2**15 else torch.int32),
        "doc_starts": torch.as_tensor(starts, dtype=torch.int32),
        "fired": fired.to(torch.int32),
        "top_position": best_pos.masked_fill(none, -1).T.contiguous().to(torch.int32),
        "top_activation": best_act.masked_fill(none, 0).T.contiguous().half(),
        "histogram": torch.as_tensor(histogram),
    }


def build(config: dict) -> SAE:
    return SAE(Config(**config))
