"""The ViT page's bridge to ``models.vit``: held-out digits, upload preprocessing, one probe run per image, and the
numpy views (rollout, PCA, position similarity) computed from its results and from the learned weights.

Images travel between functions as the bytes of a (16, 16) float32 array, so every cached function has hashable
arguments only.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from app.shared import services
from app.shared.i18n import InputError
from app.shared.numbers import softmax
from app.shared.services import stack_layers
from models import vit
from models.data import digits, photos

NAME = "vit"
MODEL = services.checkpoint(NAME)  # the shipped ViT on handwritten digits
PROBES = ("patch_embed.patches", "patch_embed.embeddings", "blocks.*.attn.pattern")
FUSIONS = ("mean", "max", "min")  # "mean" is the ViT paper's (and Abnar & Zuidema's); max and min came later
MAX_UPLOAD_BYTES = digits.MAX_UPLOAD_BYTES
INK = 0.1  # a patch holds ink when its mean pixel is at least this (pixels in [0, 1], ink = 1)
# The guided experiment: a head that reads from the inked patches, and one that does not (measured on the held-out
# set by ``ink_attention``; tests/app/test_vit.py holds the page's claim to it).
TRY_LAYER, TRY_HEAD = 1, 0
TRY_OTHER_LAYER = 3
PVH_ROWS = ("data", "input", "size", "positions", "result")  # the rows of "In the paper vs here"
PVH_DEPARTURES = ("scratch", "mlp", "gray", "head")
PHOTOS = (*photos.SAMPLES, "upload")  # a real model's inputs: scikit-learn's bundled photos, or the reader's own
TOP_K = 5  # classes listed for a real model


@dataclass(frozen=True)
class HeldOut:
    image: np.ndarray  # (16, 16)
    label: int
    source_index: int  # position in sklearn's load_digits
    count: int  # size of the held-out set


@dataclass(frozen=True)
class Steps:
    """The preprocessing of an upload or a drawing, every step in [0, 1] with ink = 1."""

    gray: np.ndarray
    cropped: np.ndarray
    boxed: np.ndarray
    small: np.ndarray
    image: np.ndarray


@dataclass(frozen=True)
class Analysis:
    """One forward pass with probes. Shapes: N patches, P patch side, C width, L layers, H heads, T = N + 1."""

    image: np.ndarray  # (16, 16)
    patches: np.ndarray  # (N, P·P) the flattened patches, in the model's order
    embeddings: np.ndarray  # (N, C) after the linear projection E
    patterns: np.ndarray  # (L, H, T, T)
    probs: np.ndarray  # (K,)
    patch: int
    grid: int
    backend: str
    device: str
    ms: float
    classes: tuple[str, ...] = ()  # a real model's class names (its id2label); ours: the digits

    @property
    def prediction(self) -> int:
        return int(np.argmax(self.probs))

    def top(self, k: int = TOP_K) -> list[tuple[str, float]]:
        """The ``k`` likeliest classes, (name, probability), likeliest first."""
        order = np.argsort(-self.probs)[:k]
        return [(self.classes[i] if self.classes else str(i), float(self.probs[i])) for i in order]


@dataclass(frozen=True)
class Weights:
    """Views of the learned weights, the same for every image."""

    filters: np.ndarray  # (C, P, P) E's filters, one per model dimension, strongest first
    filter_pcs: np.ndarray  # (k, P, P) leading principal components of the filters (the paper's Figure 7, left)
    filter_variance: np.ndarray  # (k,) share of variance each component explains
    position_similarity: np.ndarray  # (h, w, h, w) cosine similarity of patch position embeddings
    horizontal_similarity: float  # mean cosine similarity of left/right neighbours
    vertical_similarity: float  # mean cosine similarity of up/down neighbours
    row_similarity: float  # mean cosine similarity of two different patches in the same row
    column_similarity: float  # ... in the same column


def image_key(image: np.ndarray) -> bytes:
    return np.ascontiguousarray(image, dtype=np.float32).tobytes()


def _image(key: bytes) -> np.ndarray:
    side = digits.SIZE
    a = np.frombuffer(key, dtype=np.float32)
    if a.size != side * side:
        raise InputError("vit.error.bad_image")
    return a.reshape(side, side).copy()


@st.cache_data(show_spinner=False, max_entries=8)
def _test_split() -> digits.Split:
    return digits.load_split("test")


@st.cache_data(show_spinner=False)
def drawing_facts() -> dict:
    """Measured on load_digits for the drawing hint and the preprocessing caption."""
    return {"ink": f"{digits.training_ink():.1f}", "bar": digits.crossbar_share(7)}


def held_out_count() -> int:
    return len(_test_split().labels)


def held_out(index: int) -> HeldOut:
    split = _test_split()
    if not 0 <= index < len(split.labels):
        raise InputError("vit.error.index", max=len(split.labels) - 1)
    return HeldOut(
        image=split.images[index],
        label=int(split.labels[index]),
        source_index=int(split.index[index]),
        count=len(split.labels),
    )


@st.cache_data(show_spinner=False, max_entries=64)
def preprocess(data: bytes) -> Steps:
    """Bytes of an uploaded or drawn picture -> every preprocessing step; bad input -> a translated InputError."""
    try:
        s = digits.preprocess_steps(digits.decode(data, max_bytes=MAX_UPLOAD_BYTES))
    except digits.ImageError as e:
        raise InputError(f"vit.error.{e.code}", max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)) from None
    return Steps(gray=s.gray, cropped=s.cropped, boxed=s.boxed, small=s.small, image=s.image)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(key: bytes, backend: str = "torch") -> Analysis:
    """Run the shipped ViT on one image (as ``image_key`` bytes), recording patches, embeddings and attention."""
    image = _image(key)
    res = MODEL.run({"images": image[None]}, PROBES, backend)
    c = MODEL.model.config
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern", c.n_layers)
    return Analysis(
        image=image,
        patches=res.probes["patch_embed.patches"][0],
        embeddings=res.probes["patch_embed.embeddings"][0],
        patterns=patterns,
        probs=softmax(res.outputs["logits"][0]),
        patch=c.patch_size,
        grid=c.grid,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


def cls_attention(a: Analysis, layer: int, head: int | None) -> np.ndarray:
    """(h, w): how much [CLS] attends to each patch in ``layer``, one head or (None) the mean over heads."""
    rows = a.patterns[layer, :, 0, 1:]  # (H, N)
    row = rows.mean(0) if head is None else rows[head]
    return row.reshape(a.grid, a.grid)


def cls_attention_all(a: Analysis) -> np.ndarray:
    """(L, H, h, w): [CLS] → patch attention of every layer and head."""
    L, H = a.patterns.shape[:2]
    return a.patterns[:, :, 0, 1:].reshape(L, H, a.grid, a.grid)


@st.cache_data(show_spinner=False, max_entries=64)
def rollout(key: bytes, backend: str, fusion: str, discard: float, name: str = NAME) -> tuple[np.ndarray, float]:
    """Rollout's (h, w) map of what [CLS] at the top draws from each patch, and the share left on [CLS] itself, for
    checkpoint ``name`` on the image ``key`` (a digit's, or a photo's for a real model)."""
    if fusion not in FUSIONS:
        raise InputError("vit.error.fusion")
    a = analyse_photo(key, backend, name) if is_real(name) else analyse(key, backend)
    r = vit.attention_rollout(a.patterns, head_fusion=fusion, discard_ratio=float(discard))
    return r[0, 1:].reshape(a.grid, a.grid), float(r[0, 0])


def embedding_pca(a: Analysis) -> tuple[np.ndarray, np.ndarray]:
    """This image's patch embeddings projected on their first two principal components, and the variance shares."""
    centred = a.embeddings - a.embeddings.mean(0, keepdims=True)
    _, s, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    share = s**2 / max((s**2).sum(), 1e-12)
    return centred @ vt[:2].T, share[:2]


@st.cache_data(show_spinner=False)
def weights(name: str = NAME) -> Weights:
    """The projection's filters and their principal components, and the position embeddings' similarities, of
    checkpoint ``name``. A colour model's filters and components are (…, P, P, c), channels last, ready to draw; it
    keeps its 64 strongest filters and 16 components (the paper's Figure 7 shows 28 of ViT-L/32's)."""
    model = services.checkpoint(name).model
    c = model.config
    E = model.patch_embed.proj.weight.detach().float().cpu().numpy()  # (C, c·P²): one filter per output dimension
    centred = E - E.mean(0, keepdims=True)
    _, s, vt = np.linalg.svd(centred.astype(np.float64), full_matrices=False)
    k = min(8 if c.channels == 1 else 16, vt.shape[0])
    order = np.argsort(-np.linalg.norm(E, axis=1))
    if c.channels == 1:
        filters = E[order].reshape(-1, c.patch_size, c.patch_size)
        pcs = vt[:k].reshape(k, c.patch_size, c.patch_size)
    else:  # a kernel's values run channel by channel, then row by row: (…, c, P, P) -> channels last
        filters = E[order[:64]].reshape(-1, c.channels, c.patch_size, c.patch_size).transpose(0, 2, 3, 1)
        pcs = vt[:k].reshape(k, c.channels, c.patch_size, c.patch_size).transpose(0, 2, 3, 1)
    pos = model.pos.weight.detach().float().cpu().numpy()[1:]  # [CLS]'s row 0 has no place on the grid
    sim = vit.position_similarity(pos, c.grid)
    g = c.grid
    rr, cc = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    dr = np.abs(rr.reshape(-1, 1) - rr.reshape(1, -1))
    dc = np.abs(cc.reshape(-1, 1) - cc.reshape(1, -1))
    flat = sim.reshape(g * g, g * g)
    other = ~np.eye(g * g, dtype=bool)
    same_row = (dr == 0) & other
    same_col = (dc == 0) & other
    return Weights(
        filters=filters,
        filter_pcs=pcs,
        filter_variance=(s**2 / (s**2).sum())[:k],
        position_similarity=sim,
        horizontal_similarity=float(flat[same_row & (dc == 1)].mean()),
        vertical_similarity=float(flat[same_col & (dr == 1)].mean()),
        row_similarity=float(flat[same_row].mean()),
        column_similarity=float(flat[same_col].mean()),
    )


def inked(a: Analysis) -> np.ndarray:
    """(N,) bool: the patches of this image that hold ink."""
    return a.patches.mean(1) >= INK


def ink_share(a: Analysis, layer: int, head: int | None) -> float:
    """The share of what [CLS] reads from patches (its weights on the N patches, renormalised) that lands on patches
    with ink, in ``layer``, for one head or (None) the mean of the heads."""
    row = cls_attention(a, layer, head).ravel()
    return float(row[inked(a)].sum() / max(row.sum(), 1e-12))


@dataclass(frozen=True)
class InkStats:
    """``ink_share`` over the whole held-out set, for the guided experiment's two heads."""

    images: int
    share: float  # mean share on inked patches at (TRY_LAYER, TRY_HEAD)
    favoured: int  # images where that share is above the share of inked patches
    other: float  # mean share at (TRY_OTHER_LAYER, TRY_HEAD)
    inked: float  # mean fraction of patches that hold ink


@st.cache_data(show_spinner=False)
def ink_attention() -> InkStats:
    """How much [CLS] reads from inked patches in the guided experiment's heads, on every held-out digit (one
    batched forward pass)."""
    split = _test_split()
    c = MODEL.model.config
    res = MODEL.run({"images": split.images}, ("blocks.*.attn.pattern",))
    ink = vit.patchify(split.images, c.patch_size).mean(-1) >= INK  # (B, N)

    def shares(layer: int) -> np.ndarray:
        row = res.probes[f"blocks.{layer}.attn.pattern"][:, TRY_HEAD, 0, 1:]  # (B, N)
        return (row * ink).sum(-1) / row.sum(-1)

    share, fraction = shares(TRY_LAYER), ink.mean(-1)
    return InkStats(
        images=len(split.labels),
        share=float(share.mean()),
        favoured=int((share > fraction).sum()),
        other=float(shares(TRY_OTHER_LAYER).mean()),
        inked=float(fraction.mean()),
    )


@st.cache_data(show_spinner=False)
def card_numbers() -> dict:
    """Training-set size, parameter count, held-out accuracy and the architecture, from the checkpoint's card and
    config (so the page's table stays true when the model is retrained)."""
    card, c = MODEL.card, MODEL.config
    return {
        "train": card["split"]["train"],
        "test": card["split"]["test"],
        "params": card["params"],
        "acc": card["metrics"]["test_accuracy"],
        "image": c["image_size"],
        "patch": c["patch_size"],
        "patches": (c["image_size"] // c["patch_size"]) ** 2,
        "layers": c["n_layers"],
        "dim": c["dim"],
        "heads": c["n_heads"],
        "mlp": c["mlp_ratio"] * c["dim"],
        "mlp_ratio": c["mlp_ratio"],
        "dropout": c.get("dropout", 0.0),
        "smoothing": card.get("training", {}).get("label_smoothing", 0.0),
        "pixels": c["patch_size"] ** 2,
    }


@st.cache_data(show_spinner=False)
def mistakes() -> tuple[int, ...]:
    """Held-out positions whose prediction is wrong (one batched forward pass)."""
    split = _test_split()
    logits = MODEL.run({"images": split.images}, ()).outputs["logits"]
    return tuple(int(i) for i in np.flatnonzero(logits.argmax(-1) != split.labels))


# ---- a real model (Google's ViT-B/16) on photos ----------------------------------------------------------------------
# A photo travels between functions as the bytes of a (S, S, 3) uint8 array, resized as the checkpoint's
# preprocessing says (S = its image size); ``analyse_photo`` normalises it.


def is_real(name: str) -> bool:
    return services.checkpoint(name).real


def _preprocess_of(name: str) -> dict:
    """The checkpoint's image preprocessing (its card's, written by the conversion): size, mean, std, rescale."""
    ck = services.checkpoint(name)
    side = ck.config.get("image_size", 224)
    pre = {"size": side, "mean": [0.5] * 3, "std": [0.5] * 3, "rescale": 1 / 255, "resample": "bilinear"}
    return pre | ck.card.get("preprocess", {})


@st.cache_data(show_spinner=False, max_entries=4)
def real_facts(name: str) -> dict:
    """The real checkpoint's sizes and preprocessing, for the page's texts."""
    c, pre = services.checkpoint(name).config, _preprocess_of(name)
    grid = c["image_size"] // c["patch_size"]
    return {
        "image": c["image_size"],
        "patch": c["patch_size"],
        "grid": grid,
        "patches": grid * grid,
        "tokens": grid * grid + 1,
        "values": c["channels"] * c["patch_size"] ** 2,
        "layers": c["n_layers"],
        "heads": c["n_heads"],
        "dim": c["dim"],
        "classes": c["n_classes"],
        "mean": ", ".join(f"{m:g}" for m in pre["mean"]),
        "std": ", ".join(f"{m:g}" for m in pre["std"]),
    }


@st.cache_data(show_spinner=False, max_entries=16)
def photo(source: str, name: str, data: bytes = b"") -> bytes:
    """A bundled photo (``source`` one of photos.SAMPLES) or an upload's bytes (``source`` "upload") as the model
    ``name`` takes it: the bytes of a (S, S, 3) uint8 array. Bad input -> a translated InputError."""
    if source not in PHOTOS:
        raise InputError("vit.error.bad_image")
    services.checkpoint(name).require()
    pre = _preprocess_of(name)
    try:
        if source == "upload":
            pixels = photos.from_upload(data, pre["size"], pre["resample"], max_bytes=MAX_UPLOAD_BYTES)
        else:
            pixels = photos.resized(photos.sample(source), pre["size"], pre["resample"])
    except digits.ImageError as e:
        code = e.code if e.code in ("empty", "too_large", "too_many_pixels", "not_an_image") else "bad_image"
        raise InputError(f"vit.error.{code}", max_mb=MAX_UPLOAD_BYTES // (1024 * 1024)) from None
    return np.ascontiguousarray(pixels, dtype=np.uint8).tobytes()


def _pixels(key: bytes, side: int) -> np.ndarray:
    a = np.frombuffer(key, dtype=np.uint8)
    if a.size != side * side * 3:
        raise InputError("vit.error.bad_image")
    return a.reshape(side, side, 3)


@functools.cache
def _classes(folder: str, stamp: int) -> tuple[str, ...]:
    return tuple(json.loads(Path(folder, "labels.json").read_text()))


def classes(name: str) -> tuple[str, ...]:
    """The real checkpoint's class names (labels.json, its config's id2label); numbers where it has none."""
    ck = services.checkpoint(name)
    path = ck.folder / "labels.json"
    if path.exists():
        return _classes(str(ck.folder), path.stat().st_mtime_ns)
    return tuple(str(i) for i in range(ck.config.get("n_classes", 0)))


@st.cache_resource(show_spinner=False, max_entries=4)  # ~25 MB each
def analyse_photo(key: bytes, backend: str, name: str) -> Analysis:
    """Run the real checkpoint ``name`` on one photo (``photo``'s bytes), recording patches, embeddings and every
    layer's attention (ViT-B/16: 12 × 12 heads × 197 × 197, 22 MB — shared read-only by every reader, not copied)."""
    ck = services.checkpoint(name)
    pre = _preprocess_of(name)
    pixels = _pixels(key, pre["size"])
    x = photos.normalise(pixels, pre["mean"], pre["std"], pre["rescale"])
    res = ck.run({"images": x[None]}, PROBES, backend)
    c = ck.model.config
    return services.read_only(
        Analysis(
            image=pixels.astype(np.float32) / 255.0,
            patches=res.probes["patch_embed.patches"][0],
            embeddings=res.probes["patch_embed.embeddings"][0],
            patterns=stack_layers(res.probes, "blocks.{}.attn.pattern", c.n_layers),
            probs=softmax(res.outputs["logits"][0]),
            patch=c.patch_size,
            grid=c.grid,
            backend=res.backend,
            device=res.device,
            ms=res.ms,
            classes=classes(name),
        )
    )


def attention_distance(a: Analysis) -> np.ndarray:
    """(L, H) mean attention distance in pixels (the paper's Figure 7, right): for every patch query, the distance
    to each patch it attends to, weighted by the attention (renormalised over the patches, [CLS] left out),
    averaged over the queries."""
    g, p = a.grid, a.patch
    rr, cc = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    xy = np.stack([rr.ravel(), cc.ravel()], 1) * p
    dist = np.linalg.norm(xy[:, None] - xy[None], axis=-1)  # (N, N) pixels between patch centres
    w = a.patterns[:, :, 1:, 1:]  # (L, H, N, N) patch -> patch
    w = w / np.maximum(w.sum(-1, keepdims=True), 1e-12)
    return (w * dist).sum(-1).mean(-1)


# ---- occlusion: one patch blanked at a time, the drop of the predicted class's probability ---------------------------

OCCLUSION_FILLS = vit.OCCLUSION_FILLS


@dataclass(frozen=True)
class Occlusion:
    """What blanking patches (through the ``patch_embed.patches`` probe) does to the predicted class."""

    drop: np.ndarray  # (h, w) p(class) intact minus p(class) with that one patch blanked
    predicted: int
    p: float  # the predicted class's probability, intact
    p_all: float  # ... with every patch blanked
    rollout: np.ndarray  # (h, w) attention rollout (mean fusion, nothing discarded), for the comparison
    correlation: float  # Pearson correlation of the two maps over the patches
    backend: str  # always torch: interventions run on the torch model
    device: str
    ms: float


def _occlusion_input(key: bytes, name: str):
    """The image as the torch model takes it, without a batch axis: (H, W) digits, (3, S, S) a real model's."""
    import torch

    if not is_real(name):
        return torch.from_numpy(_image(key))
    pre = _preprocess_of(name)
    x = photos.normalise(_pixels(key, pre["size"]), pre["mean"], pre["std"], pre["rescale"])
    return torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))


@st.cache_data(show_spinner=False, max_entries=32)
def occlusion(key: bytes, fill: str, name: str = NAME, backend: str = "torch") -> Occlusion:
    """Occlusion saliency of checkpoint ``name`` on the image ``key`` (a digit's, or a real model's photo), beside
    its attention rollout. ``fill``: what a blanked patch holds (``OCCLUSION_FILLS``)."""
    import time

    import torch

    from models.probe import intervene

    if fill not in OCCLUSION_FILLS:
        raise InputError("vit.error.fill")
    ck = services.checkpoint(name)
    ck.require()
    model = ck.model
    x = _occlusion_input(key, name)
    start = time.perf_counter()
    drop, k, p = vit.occlusion(model, x, fill, batch=16 if is_real(name) else 64)
    every = torch.ones(1, model.config.n_patches, dtype=torch.bool)
    with torch.inference_mode(), intervene({"patch_embed.patches": vit.blank_patches(every, fill)}):
        p_all = float(model(x[None]).softmax(-1)[0, k])
    ms = (time.perf_counter() - start) * 1e3
    roll, _ = rollout(key, backend, "mean", 0.0, name)
    a, b = drop.ravel().astype(np.float64), roll.ravel().astype(np.float64)
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else float("nan")
    return Occlusion(
        drop=drop,
        predicted=k,
        p=p,
        p_all=p_all,
        rollout=roll,
        correlation=corr,
        backend="torch",
        device=str(next(model.parameters()).device),
        ms=ms,
    )
