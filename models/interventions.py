"""Knock-outs and activation patching, through the probe points (``models.probe.intervene``).

A knock-out asks what a part of the model is *needed* for: run the same input with one head's output (or a whole
layer's attention or MLP output) replaced, and see which predictions get worse. Zero ablation writes zeros; mean
ablation writes, at each position t, the part's mean over positions 0..t of this input (a running mean), which keeps
the typical size of what flows on and takes away most of what depends on the token at t. The mean stops at t so that
a causal decoder stays causal: a mean over the whole input would hand every position a summary of later tokens. At
position 0 the running mean is the part's own output (nothing is taken away there). A bidirectional encoder reads
the whole input anyway: ``causal=False`` averages over all its positions.

Activation patching (causal tracing) asks where the information that decides an answer *lives*. Two prompts that
differ in a few tokens: a clean one the model answers with ``answer`` and a corrupted one it answers otherwise
(``wrong``). Run the corrupted prompt, but copy the residual stream at one (layer, position) from the clean run; the
logit difference ld = logit[answer] − logit[wrong] at the last position then moves back toward the clean run's by

    restored(l, p) = (ld_patched(l, p) − ld_corrupted) / (ld_clean − ld_corrupted)       (0 = corrupted, 1 = clean)

Where restored is near 1, the stream at (l, p) alone carries what the clean answer needs. Causal tracing: Meng et al.
2022, "Locating and Editing Factual Associations in GPT" (arXiv 2202.05262) — they corrupt with noise on the subject's
embeddings; here the corruption is another prompt of the same length, as in path and activation patching of Wang et
al. 2022, "Interpretability in the Wild: a Circuit for Indirect Object Identification in GPT-2 small" (2211.00593).

Names: layer 0 of the stream is ``embedded`` (before block 0), layer l ≥ 1 is ``blocks.{l−1}.resid``; a head's output
before W_o is ``blocks.{i}.attn.context`` (B, H, T, D); what attention and the MLP write into the stream are
``blocks.{i}.attn_out`` and ``blocks.{i}.mlp_out`` (B, T, C). ``models.gpt.GPT`` and ``models.llama.Llama`` (and so
the real SmolLM2 converted into it) name them alike; both have ``trunk`` (tokens -> x_L) and ``unembed``.
``models.bert`` uses the same blocks. The encoder–decoders (``models.transformer``, ``models.t5``) keep their layers in
``encoder.layers`` and ``decoder.layers``, each with a ``self_attn`` (and, in the decoder, a ``cross_attn``): a head's
output is ``<stack>.{i}.self_attn.context``, what each attention writes is ``self_attn_out`` / ``cross_attn_out``,
the MLP's ``mlp_out`` (``knock_out``'s ``stack`` and ``attn``; ``encoder_decoder_knock_out`` names them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import torch
from torch import nn

from models.layers import causal_mask
from models.probe import Override, intervene, trace

PARTS = ("head", "attn", "mlp")  # one head's output, a layer's whole attention output, its MLP output
MODES = ("zero", "mean")
STACKS = ("encoder", "decoder")  # an encoder–decoder's two sides
CROSS_PARTS = ("cross_head", "cross")  # a decoder layer's cross-attention: one head, or the whole of it


# ---- overrides -------------------------------------------------------------------------------------------------------


def zero_head(h: int) -> Override:
    """Head ``h`` of a (B, H, T, D) probe (``attn.context``) writes zeros."""

    def fn(x: torch.Tensor, name: str) -> torch.Tensor:
        x = x.clone()
        x[:, h] = 0
        return x

    return fn


def running_mean(x: torch.Tensor) -> torch.Tensor:
    """Along the second-to-last axis (positions), position t holds the mean of positions 0..t: causal."""
    n = torch.arange(1, x.shape[-2] + 1, device=x.device, dtype=x.dtype).unsqueeze(-1)
    return x.cumsum(dim=-2) / n


def _average(x: torch.Tensor, causal: bool) -> torch.Tensor:
    """The mean over positions (the second-to-last axis) that each position gets: running (``causal``) or whole."""
    return running_mean(x) if causal else x.mean(dim=-2, keepdim=True).expand_as(x)


def mean_head(h: int, causal: bool = True) -> Override:
    """Head ``h`` of a (B, H, T, D) probe writes, at position t, its mean over positions 0..t of this input
    (``causal``), or over all of them."""

    def fn(x: torch.Tensor, name: str) -> torch.Tensor:
        x = x.clone()
        x[:, h] = _average(x[:, h], causal)
        return x

    return fn


def zero() -> Override:
    """The whole probe writes zeros (a layer's ``attn_out`` or ``mlp_out``: that sublayer knocked out)."""
    return lambda x, name: torch.zeros_like(x)


def mean(causal: bool = True) -> Override:
    """The whole (B, T, C) probe writes, at position t, its mean over positions 0..t (``causal``), or over all."""
    return lambda x, name: _average(x, causal).clone()


def knock_out(
    layer: int,
    part: str,
    mode: str = "zero",
    head: int = 0,
    *,
    stack: str = "blocks",
    attn: str = "attn",
    causal: bool = True,
) -> dict[str, Override]:
    """The ``intervene`` argument that knocks out ``part`` (``PARTS``) of block ``layer`` by ``mode`` (``MODES``).
    ``stack``: the path of the model's list of blocks; ``attn``: which attention of the block ``head`` and ``attn``
    mean (its probes are ``{attn}.context`` and ``{attn}_out``); ``causal``: mean ablation's running mean (a
    decoder), else the mean over the whole input (a bidirectional encoder such as BERT's)."""
    if part not in PARTS or mode not in MODES:
        raise ValueError(f"part must be one of {PARTS}, mode one of {MODES}")
    if part == "head":
        return {f"{stack}.{layer}.{attn}.context": zero_head(head) if mode == "zero" else mean_head(head, causal)}
    probe = f"{attn}_out" if part == "attn" else "mlp_out"
    return {f"{stack}.{layer}.{probe}": zero() if mode == "zero" else mean(causal)}


def encoder_decoder_knock_out(
    stack: str, layer: int, part: str, mode: str = "zero", head: int = 0
) -> dict[str, Override]:
    """``knock_out`` in an encoder–decoder (``models.transformer``, ``models.t5``): ``stack`` ``"encoder"`` or
    ``"decoder"``; ``part`` one of ``PARTS`` (a head or the whole of the layer's self-attention, its MLP) or, in
    the decoder, ``CROSS_PARTS`` (a head or the whole of its cross-attention). Mean ablation averages over positions
    0..t in the decoder, over the whole source in the encoder (which reads all of it)."""
    if stack not in STACKS or part not in PARTS + (CROSS_PARTS if stack == "decoder" else ()):
        raise ValueError(f"stack must be one of {STACKS}; part one of {PARTS}, or in the decoder {CROSS_PARTS}")
    attn = "cross_attn" if part in CROSS_PARTS else "self_attn"
    plain = {"cross_head": "head", "cross": "attn"}.get(part, part)
    return knock_out(layer, plain, mode, head, stack=f"{stack}.layers", attn=attn, causal=stack == "decoder")


@torch.inference_mode()
def teacher_forced(model: nn.Module, src, tgt_in, targets) -> tuple[np.ndarray, np.ndarray]:
    """An encoder–decoder (``models.transformer``, ``models.t5``) reading source ``src`` and decoder input ``tgt_in``
    (1, T), each position's target given: (−log p(target) per position (T,), the top id per position (T,)). Run it
    inside ``intervene(encoder_decoder_knock_out(...))`` for the knocked-out numbers."""
    device = next(model.parameters()).device
    logits = model(_tensor(src, device), _tensor(tgt_in, device))[0].double()  # (T, V)
    logp = torch.log_softmax(logits, -1)
    rows = torch.arange(logits.shape[0], device=device)
    loss = -logp[rows, torch.as_tensor(np.asarray(targets, dtype=np.int64), device=device)]
    return loss.cpu().numpy(), logits.argmax(-1).cpu().numpy()


def patch_from(clean: dict[str, torch.Tensor] | torch.Tensor, positions: Iterable[int]) -> Override:
    """Copy the clean run's tensor at ``positions`` (the second-to-last axis) into every row of the probe;
    ``clean``: one tensor (1, ..., T, C), or the clean trace by probe name (one override for several probes)."""
    pos = list(positions)

    def fn(x: torch.Tensor, name: str) -> torch.Tensor:
        src = clean[name] if isinstance(clean, dict) else clean
        if not pos:
            return x
        x = x.clone()
        x[..., pos, :] = src[..., pos, :].to(x.dtype)
        return x

    return fn


def patch_each(clean: torch.Tensor, positions: Sequence[int]) -> Override:
    """Row b of the batch gets the clean run's (1, T, C) tensor at position ``positions[b]`` only: one forward
    patches every position at once."""
    rows = torch.arange(len(positions))
    cols = torch.as_tensor(list(positions))

    def fn(x: torch.Tensor, name: str) -> torch.Tensor:
        x = x.clone()
        x[rows, cols] = clean[0, cols].to(x.dtype)
        return x

    return fn


# ---- activation patching ---------------------------------------------------------------------------------------------


def stream_names(model: nn.Module) -> list[str]:
    """The residual stream's probes, layer 0 (before block 0) to L (after the last block)."""
    return ["embedded"] + [f"blocks.{i}.resid" for i in range(len(model.blocks))]


def last_logits(model: nn.Module, tokens: torch.Tensor) -> torch.Tensor:
    """(B, T) -> the logits at the last position (B, V), unembedding that position only."""
    return model.unembed(model.trunk(tokens)[:, -1])


def run_blocks(model: nn.Module, x: torch.Tensor, first: int) -> torch.Tensor:
    """The residual stream x (B, T, C) at layer ``first`` (0 = before block 0) through blocks ``first`` … L − 1 ->
    x_L, with the model's own causal mask (and, for a rotary decoder, its RoPE angles of positions 0 … T − 1)."""
    T = x.shape[1]
    if hasattr(model, "positions"):  # a rotary decoder (models/llama.py): mask and angles
        mask, rope = model.positions(T, 0, x.device)
        for block in model.blocks[first:]:
            x = block(x, mask, rope)
        return x
    mask = causal_mask(T, T, device=x.device)
    for block in model.blocks[first:]:
        x = block(x, mask)
    return x


def _tensor(ids, device) -> torch.Tensor:
    return torch.as_tensor(np.asarray(ids, dtype=np.int64), device=device).reshape(1, -1)


def logit_difference(logits: torch.Tensor, answer_id: int, wrong_id: int) -> torch.Tensor:
    return (logits[..., answer_id] - logits[..., wrong_id]).double()


@torch.inference_mode()
def clean_run(model: nn.Module, clean_ids, corrupted_ids) -> tuple[dict[str, torch.Tensor], torch.Tensor, torch.Tensor]:
    """The clean run's residual stream (by probe name), and both runs' last logits (V,)."""
    device = next(model.parameters()).device
    clean, corrupted = _tensor(clean_ids, device), _tensor(corrupted_ids, device)
    if clean.shape != corrupted.shape:
        raise ValueError(f"the clean and corrupted inputs differ in length: {clean.shape[1]} and {corrupted.shape[1]}")
    with trace(*stream_names(model)) as t:
        clean_logits = last_logits(model, clean)[0]
    return dict(t.items()), clean_logits, last_logits(model, corrupted)[0]


@torch.inference_mode()
def restored(
    model: nn.Module, clean_ids, corrupted_ids, answer_id: int, wrong_id: int, layer: int, positions: Iterable[int]
) -> float:
    """The restored logit difference when the stream at ``layer`` (0 = before block 0) and every position of
    ``positions`` is copied from the clean run into the corrupted one (all positions of the last layer: 1; none: 0)."""
    streams, clean_logits, corrupted_logits = clean_run(model, clean_ids, corrupted_ids)
    name = stream_names(model)[layer]
    with intervene({name: patch_from(streams, positions)}):
        patched = last_logits(model, _tensor(corrupted_ids, next(model.parameters()).device))[0]
    ld = [logit_difference(x, answer_id, wrong_id) for x in (clean_logits, corrupted_logits, patched)]
    return float((ld[2] - ld[1]) / (ld[0] - ld[1]))


@torch.inference_mode()
def activation_patching(
    model: nn.Module,
    clean_ids,
    corrupted_ids,
    answer_id: int,
    wrong_id: int,
    progress: Callable[[float], None] | None = None,
    layers: Sequence[int] | None = None,
) -> np.ndarray:
    """(L + 1, T) restored logit difference for every (layer, position): row 0 the stream before block 0, row l
    after block l − 1. One batched forward of T rows per layer (row p patches position p). ``progress(fraction)``
    after each layer. Blocks below the patched layer are the corrupted run's (patching there changes nothing
    below), so each row starts from the corrupted stream at its layer and runs only the blocks above it
    (``run_blocks``; ``restored``, through ``intervene``, gives the same numbers). Raises ValueError when the clean
    and corrupted runs give the same logit difference. ``layers``: only these rows (a deep model on a CPU: every
    third layer costs a third of the work), (len(layers), T)."""
    streams, clean_logits, corrupted_logits = clean_run(model, clean_ids, corrupted_ids)
    ld_clean = logit_difference(clean_logits, answer_id, wrong_id)
    ld_corrupted = logit_difference(corrupted_logits, answer_id, wrong_id)
    if torch.isclose(ld_clean, ld_corrupted, rtol=0, atol=1e-6):
        raise ValueError("the clean and corrupted runs give the same logit difference: nothing to restore")
    names = stream_names(model)
    device = next(model.parameters()).device
    T = len(clean_ids)
    with trace(*names) as t:
        model.trunk(_tensor(corrupted_ids, device))
    rows, cols = torch.arange(T), torch.arange(T)
    chosen = list(range(len(names)) if layers is None else layers)
    out = np.zeros((len(chosen), T))
    for row, layer in enumerate(chosen):
        name = names[layer]
        x = t[name].expand(T, -1, -1).clone()  # (T, T, C): row p is the corrupted stream ...
        x[rows, cols] = streams[name][0, cols]  # ... with position p copied from the clean run
        ld = logit_difference(model.unembed(run_blocks(model, x, layer)[:, -1]), answer_id, wrong_id)
        out[row] = ((ld - ld_corrupted) / (ld_clean - ld_corrupted)).cpu().numpy()
        if progress is not None:
            progress((row + 1) / len(chosen))
    return out


def copied_token(ids: Sequence[int]) -> int | None:
    """The token an induction head would copy next: the one after the latest earlier occurrence of the last token
    (``[A B … A]`` -> B), or None when the last token has not occurred before."""
    ids = list(ids)
    for i in range(len(ids) - 2, -1, -1):
        if ids[i] == ids[-1]:
            return ids[i + 1]
    return None
