"""Vision Transformer: "An Image is Worth 16x16 Words" (Dosovitskiy et al. 2020, arXiv 2010.11929).

An image is cut into a grid of P×P patches; each patch is flattened and projected linearly to a width-C vector
(eq. 1). A learnable [CLS] vector goes first, a learned position embedding is added to every one of the N + 1
tokens, and a pre-LN Transformer encoder (eqs. 2–3) mixes them. The class is read from the final [CLS] vector
(eq. 4) by a linear head.

    z₀ = [x_class; x¹E; …; xᴺE] + E_pos                 (1)  patches x¹…xᴺ flattened to P² values, E: (P², C)
    z'ℓ = MSA(LN(zℓ₋₁)) + zℓ₋₁                          (2)
    zℓ = MLP(LN(z'ℓ)) + z'ℓ                             (3)
    y = LN(z⁰_L)                                         (4)  the final [CLS] vector; logits = head(y)

The shipped checkpoint reads scikit-learn's handwritten digits upsampled to 16×16, with 4×4 patches: a 4×4 grid of
16 "words" per image, plus [CLS]; ``models/recipes/vit.py`` trains it. Its images have one channel, given as
(B, H, W). Google's released weights (``google/vit-base-patch16-224``, converted by models/pretrained/vit.py) need
options whose defaults are ours: ``channels`` (3: images (B, 3, H, W), channels first, each patch flattened channel
by channel as a convolution's kernel is), ``norm_eps`` (every LayerNorm's ε: 1e-12 there) and ``activation``.

Shape letters:
    B  batch                     H, W  image height and width (pixels)
    P  patch side (pixels)       h, w  patch grid height and width (H/P, W/P)     c  channels (1: no axis)
    N  patches, h·w              T     tokens, N + 1 ([CLS] first)
    C  model width               K     classes (10 digits)

Probes (module paths): ``patch_embed.patches`` (B, N, c·P·P) the flattened patches the model sees;
``patch_embed.embeddings`` (B, N, C) after the linear projection E; ``tokens`` (B, T, C) [CLS] + patches with
positions added; per block ``blocks.{i}.attn.{q,k,v,scores,pattern,context}`` (pattern (B, heads, T, T)),
``blocks.{i}.mlp.act`` and ``blocks.{i}.resid`` (B, T, C); ``cls`` (B, C) the final, normed [CLS] vector the head
reads.

Occlusion (Zeiler & Fergus 2013, arXiv 1311.2901): ``occlusion`` blanks one patch at a time through the
``patch_embed.patches`` probe (``models.probe.intervene``) and measures how much the predicted class's probability
drops: a saliency map read off the output, beside attention rollout's map read off the attention.

Numpy helpers for the explorer (no torch needed by their callers): ``patchify``/``unpatchify``,
``attention_rollout`` (Abnar & Zuidema 2020, arXiv 2005.00928) and ``position_similarity``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from einops import rearrange
from torch import nn

from models.layers import LayerNorm, LearnedPositions, PreNormBlock
from models.probe import Probe, intervene, name_probes


@dataclass
class Config:
    image_size: int = 16
    patch_size: int = 4  # 16×16 pixels in 4×4 patches: a 4×4 grid, 16 tokens plus [CLS]
    n_classes: int = 10
    dim: int = 64
    n_heads: int = 4
    n_layers: int = 4
    mlp_ratio: int = 2  # hidden width of the MLP = mlp_ratio · dim; the paper uses 4, 2 suffices at this size
    dropout: float = 0.1  # on the residual branches during training: 1,438 images are very little data for a ViT
    channels: int = 1  # 1: images (B, H, W), the digits; c > 1: (B, c, H, W), channels first (RGB: 3)
    activation: str = "gelu"  # the MLP's (models/layers/ffn.py names)
    norm_eps: float = 1e-5  # every LayerNorm's ε (Google's ViT: 1e-12)

    @property
    def grid(self) -> int:
        return self.image_size // self.patch_size

    @property
    def n_patches(self) -> int:
        return self.grid**2


PRESETS = {
    "tiny": Config(image_size=8, patch_size=4, dim=16, n_heads=2, n_layers=1),
    "shipped": Config(),
}


# ---- patches (numpy and torch share one einops pattern) ------------------------------------------------------

_PATCHIFY = "b (h p1) (w p2) -> b (h w) (p1 p2)"
_PATCHIFY_CHANNELS = "b c (h p1) (w p2) -> b (h w) (c p1 p2)"
_UNPATCHIFY = "b (h w) (p1 p2) -> b (h p1) (w p2)"


def patchify(images: np.ndarray | torch.Tensor, patch: int) -> np.ndarray | torch.Tensor:
    """(B, H, W) -> (B, N, P·P): patches in reading order (row by row), each flattened row by row.
    (B, c, H, W) -> (B, N, c·P·P): each patch flattened channel by channel, then row by row."""
    return rearrange(images, _PATCHIFY if images.ndim == 3 else _PATCHIFY_CHANNELS, p1=patch, p2=patch)


def unpatchify(patches: np.ndarray | torch.Tensor, patch: int, grid: int) -> np.ndarray | torch.Tensor:
    """(B, N, P·P) -> (B, H, W), the inverse of ``patchify``."""
    return rearrange(patches, _UNPATCHIFY, h=grid, w=grid, p1=patch, p2=patch)


# ---- modules ---------------------------------------------------------------------------------------------------


class PatchEmbedding(nn.Module):
    """Flatten each P×P patch and project it to width C: the paper's E, a (c·P², C) matrix (plus a bias)."""

    def __init__(self, c: Config):
        super().__init__()
        self.patch_size = c.patch_size
        self.proj = nn.Linear(c.channels * c.patch_size**2, c.dim)
        self.patches, self.embeddings = Probe(), Probe()

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        patches = self.patches(patchify(images, self.patch_size))  # (B, N, c·P·P)
        return self.embeddings(self.proj(patches))  # (B, N, C)


class ViT(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        if c.image_size % c.patch_size:
            raise ValueError("image_size must be a multiple of patch_size")
        self.config = c
        self.patch_embed = PatchEmbedding(c)
        self.cls_token = nn.Parameter(torch.randn(1, 1, c.dim) * 0.02)  # the learnable x_class
        self.pos = LearnedPositions(c.n_patches + 1, c.dim)  # row 0 belongs to [CLS], rows 1.. to the patches
        # Pre-LN encoder blocks, eqs. 2–3 of the paper; unmasked: every token sees every token.
        self.blocks = nn.ModuleList(
            PreNormBlock(
                c.dim, c.n_heads, c.mlp_ratio * c.dim, activation=c.activation, dropout=c.dropout, eps=c.norm_eps
            )
            for _ in range(c.n_layers)
        )
        self.ln_f = LayerNorm(c.dim, eps=c.norm_eps)
        self.head = nn.Linear(c.dim, c.n_classes)
        self.tokens, self.cls = Probe(), Probe()
        name_probes(self)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        """images (B, H, W) in [0, 1], ink bright (or (B, c, H, W) with ``channels`` c > 1) -> logits (B, K)."""
        e = self.patch_embed(images)  # (B, N, C)
        cls = self.cls_token.expand(e.shape[0], -1, -1)  # (B, 1, C)
        x = self.tokens(self.pos(torch.cat([cls, e], dim=1)))  # (B, T, C)
        for block in self.blocks:
            x = block(x)
        z = self.cls(self.ln_f(x[:, 0]))  # (B, C)
        return self.head(z)  # (B, K)


def build(config: dict) -> ViT:
    return ViT(Config(**config))


OCCLUSION_FILLS = ("zero", "mean")  # a blanked patch: zeros (the digits' background; a real model's mean colour,
# its inputs being normalised), or the image's mean patch


def blank_patches(which: torch.Tensor, fill: str = "zero"):
    """An override for the ``patch_embed.patches`` probe: in image b of the batch, the patches where ``which[b]``
    (a (B, N) bool tensor) is True are replaced by zeros or (``fill="mean"``) by the image's mean patch."""
    if fill not in OCCLUSION_FILLS:
        raise ValueError(f"fill must be one of {OCCLUSION_FILLS}, not {fill!r}")

    def blank(patches: torch.Tensor, name: str) -> torch.Tensor:  # (B, N, c·P·P)
        value = torch.zeros_like(patches) if fill == "zero" else patches.mean(1, keepdim=True).expand_as(patches)
        return torch.where(which.to(patches.device).unsqueeze(-1), value, patches)

    return blank


@torch.inference_mode()
def occlusion(model: ViT, image: torch.Tensor, fill: str = "zero", batch: int = 64) -> tuple[np.ndarray, int, float]:
    """Blank each patch of ``image`` (one image, no batch axis) in turn: the drop of the predicted class's
    probability, (h, w), the predicted class and its probability on the intact image. Runs ``batch`` occluded
    copies per forward."""
    n, g = model.config.n_patches, model.config.grid
    probs = model(image[None]).softmax(-1)[0]
    k = int(probs.argmax())
    drops = []
    for start in range(0, n, batch):
        rows = torch.arange(start, min(n, start + batch))
        which = torch.zeros(len(rows), n, dtype=torch.bool)
        which[torch.arange(len(rows)), rows] = True
        with intervene({"patch_embed.patches": blank_patches(which, fill)}):
            p = model(image[None].expand(len(rows), *image.shape)).softmax(-1)[:, k]
        drops.append(probs[k] - p)
    return torch.cat(drops).reshape(g, g).float().cpu().numpy(), k, float(probs[k])


# ---- views of the learned weights and of attention (numpy) -----------------------------------------------------


def position_similarity(pos: np.ndarray, grid: int) -> np.ndarray:
    """Patch position embeddings (N, C) ([CLS]'s row removed) -> (h, w, h, w) cosine similarities.

    ``out[i, j]`` is the h×w map of how similar the embedding of patch (i, j) is to every patch position: the
    paper's Figure 7 (centre) lays these maps out as a grid of grids.
    """
    unit = pos / np.linalg.norm(pos, axis=1, keepdims=True).clip(1e-12)
    sim = unit @ unit.T  # (N, N)
    return sim.reshape(grid, grid, grid, grid)


def attention_rollout(patterns: np.ndarray, *, head_fusion: str = "mean", discard_ratio: float = 0.0) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema 2020): how much each input token flows into each token at the top.

    Args:
        patterns: (L, heads, T, T) attention of every layer for one image, rows = queries.
        head_fusion: "mean", "max" or "min" over heads.
        discard_ratio: fraction of the smallest fused weights per layer set to zero ([CLS]'s own column is kept).
    Returns:
        (T, T): row t = what token t at the top attends to, through all layers, with the residual path counted as
        an identity: Ã = ½(A + I), rows renormalised, and Ã_L · … · Ã_1.
    """
    fuse = {"mean": np.mean, "max": np.max, "min": np.min}
    if head_fusion not in fuse:
        raise ValueError(f"head_fusion must be one of {sorted(fuse)}")
    if not 0.0 <= discard_ratio < 1.0:
        raise ValueError("discard_ratio must be in [0, 1)")
    T = patterns.shape[-1]
    rollout = np.eye(T)
    for layer in patterns.astype(np.float64):
        a = fuse[head_fusion](layer, axis=0)  # (T, T)
        if discard_ratio > 0:
            flat = a.copy().reshape(-1)
            k = int(flat.size * discard_ratio)
            if k:
                drop = np.argpartition(flat, k - 1)[:k]
                drop = drop[drop % T != 0]  # never discard attention to [CLS]
                flat[drop] = 0.0
            a = flat.reshape(T, T)
        a = 0.5 * (a + np.eye(T))
        a = a / a.sum(axis=-1, keepdims=True)
        rollout = a @ rollout
    return rollout


# ---- inference --------------------------------------------------------------------------------------------------


def predict(model: ViT, images: np.ndarray) -> np.ndarray:
    """images (B, H, W) -> the predicted class of each (B,)."""
    with torch.no_grad():
        return model(torch.from_numpy(images)).argmax(-1).numpy()
