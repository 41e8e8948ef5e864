"""Handwritten digits for the ViT: scikit-learn's bundled ``load_digits``, upsampled, with a split fixed by a seed.

The 1,797 images are 8×8, values 0..16: the UCI "optdigits" set, where a 32×32 binary bitmap of a digit (scaled so
the digit fills the height of the box) was cut into 4×4 blocks and the set pixels of each block counted. We scale
them to [0, 1] and upsample them bilinearly to 16×16, so a 4×4 patch grid has 16 patches.

``preprocess_image`` turns any picture of a digit (an upload, a canvas drawing) into the same kind of 16×16 array,
by redoing those steps: grayscale, ink bright on dark, crop to the ink, fit the digit into a 32×32 box (full height,
at most 24 pixels wide), centre, average 4×4 blocks down to 8×8, then the same upsampling as the training data. Each
step is returned too, so a page can show the preprocessing.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

SIZE = 16  # side of the images the model sees
SOURCE_SIZE = 8  # side of load_digits' images
MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # larger files are refused before decoding (phone photos are a few MB)
MAX_UPLOAD_PIXELS = 40_000_000  # width × height to decode above this is refused (decompression bombs)
WORKING_SIDE = 1024  # an upload is scaled down on arrival to at most this many pixels a side
MIN_SIDE = 1


class ImageError(ValueError):
    """An input that cannot be read as a digit image. ``code`` names the reason, for a translated message."""

    def __init__(self, code: str, detail: str = ""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


@dataclass(frozen=True)
class Split:
    """Images (N, 16, 16) float32 in [0, 1] and labels (N,) int64 of one part of the split."""

    images: np.ndarray
    labels: np.ndarray
    index: np.ndarray  # positions in load_digits, so an image can be named by its source index


def upsample(images8: np.ndarray, size: int = SIZE) -> np.ndarray:
    """(N, 8, 8) or (8, 8) in [0, 1] -> (N, size, size) or (size, size) float32, bilinear (PIL)."""
    single = images8.ndim == 2
    batch = images8[None] if single else images8
    out = np.stack(
        [
            np.asarray(Image.fromarray(im.astype(np.float32), mode="F").resize((size, size), Image.Resampling.BILINEAR))
            for im in batch
        ]
    )
    out = np.clip(out, 0.0, 1.0).astype(np.float32)
    return out[0] if single else out


def _load() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    d = load_digits()
    return (d.images / 16.0).astype(np.float32), d.target.astype(np.int64)


def split_indices(n_total: int, labels: np.ndarray, seed: int, test_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """A stratified split: the same fraction of every class goes to test, chosen by ``seed``."""
    rng = np.random.default_rng(seed)
    train, test = [], []
    for c in np.unique(labels):
        idx = np.flatnonzero(labels == c)
        rng.shuffle(idx)
        n_test = int(round(len(idx) * test_fraction))
        test.extend(idx[:n_test])
        train.extend(idx[n_test:])
    return np.sort(np.array(train)), np.sort(np.array(test))


SPLIT_SEED = 0
TEST_FRACTION = 0.2


def load_split(part: str, *, seed: int = SPLIT_SEED, test_fraction: float = TEST_FRACTION) -> Split:
    """``part`` is "train" or "test"; the split is stratified and fixed by ``seed``."""
    images8, labels = _load()
    train, test = split_indices(len(labels), labels, seed, test_fraction)
    idx = {"train": train, "test": test}[part]
    return Split(images=upsample(images8[idx]), labels=labels[idx], index=idx)


def split_description(seed: int = SPLIT_SEED, test_fraction: float = TEST_FRACTION) -> str:
    images8, labels = _load()
    train, test = split_indices(len(labels), labels, seed, test_fraction)
    return (
        f"sklearn load_digits, stratified split with numpy seed {seed}: {len(train)} train / {len(test)} test "
        f"images ({test_fraction:.0%} of each class held out)"
    )


# ---- uploads and drawings -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preprocessed:
    """Every step of ``preprocess_image``, each an array in [0, 1] with ink = 1."""

    gray: np.ndarray  # the input as grayscale, inverted when its background was bright (at most 256 px a side)
    cropped: np.ndarray  # cut to the ink's bounding box
    boxed: np.ndarray  # (32, 32) the ink's height fills the box (width at most 24), centred
    small: np.ndarray  # (8, 8) 4×4 block means, like load_digits
    image: np.ndarray  # (16, 16) what the model sees


def decode(data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES) -> Image.Image:
    """Bytes of a common image format -> PIL image at most WORKING_SIDE pixels a side. A JPEG (a phone photo) is
    decoded at a reduced scale to begin with (PIL's draft mode), so a 48-megapixel photo costs what a 1-megapixel
    one does; other formats are decoded whole, up to MAX_UPLOAD_PIXELS. Raises ImageError for empty, huge or
    unreadable data."""
    if not data:
        raise ImageError("empty")
    if len(data) > max_bytes:
        raise ImageError("too_large", f"{len(data)} bytes > {max_bytes}")
    try:
        with Image.open(io.BytesIO(data)) as im:
            if im.format == "JPEG":
                im.draft(im.mode, (WORKING_SIDE, WORKING_SIDE))  # scale 1/2, 1/4 or 1/8 while decoding
            if im.width * im.height > MAX_UPLOAD_PIXELS:
                raise ImageError("too_many_pixels", f"{im.width}×{im.height}")
            im.load()
            out = im.copy()
        out.thumbnail((WORKING_SIDE, WORKING_SIDE))
        return out
    except ImageError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError, SyntaxError) as e:
        raise ImageError("not_an_image", type(e).__name__) from e


def _to_gray(image: Image.Image | np.ndarray) -> np.ndarray:
    """Any PIL image or array -> 2-D float array in [0, 1]; transparent pixels count as background."""
    if isinstance(image, np.ndarray):
        a = np.asarray(image, dtype=np.float64)
        if a.ndim == 3 and a.shape[2] in (3, 4):
            alpha = a[..., 3:4] / (255.0 if a.max() > 1 else 1.0) if a.shape[2] == 4 else None
            a = a[..., :3].mean(axis=2)
            if alpha is not None:
                scale = 255.0 if a.max() > 1 else 1.0
                # Composite onto white: an RGBA drawing on a transparent canvas reads as ink on paper.
                a = a * alpha[..., 0] + scale * (1 - alpha[..., 0])
        if a.ndim != 2 or a.size == 0:
            raise ImageError("bad_shape", str(np.shape(image)))
        if not np.isfinite(a).all():
            raise ImageError("bad_values")
        if a.max() > 1.0:
            a = a / 255.0
        return np.clip(a, 0.0, 1.0)
    im = ImageOps.exif_transpose(image)
    if im.mode in ("I", "I;16", "I;16B", "I;16L", "F"):  # 16/32-bit grayscale: scale by its own range
        a = np.asarray(im, dtype=np.float64)
        low, high = float(a.min()), float(a.max())
        return (a - low) / (high - low) if high > low else np.zeros_like(a)
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        im = Image.alpha_composite(white, rgba)
    return np.asarray(im.convert("L"), dtype=np.float64) / 255.0


def _limit(gray: np.ndarray, side: int = 256) -> np.ndarray:
    """Shrink so that no side exceeds ``side`` (keeps the work bounded for huge pictures)."""
    h, w = gray.shape
    if max(h, w) <= side:
        return gray
    scale = side / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(
        Image.fromarray(gray.astype(np.float32), mode="F").resize(size, Image.Resampling.BOX), dtype=np.float64
    )


def preprocess_steps(image: Image.Image | np.ndarray) -> Preprocessed:
    """A picture of one digit -> every step towards the (16, 16) model input. Raises ImageError when it has no ink."""
    gray = _limit(_to_gray(image))

    # Training digits are bright ink on a dark background; most pictures are dark ink on paper. Decide by the
    # border, which is background in any sensible picture of a single digit.
    def border(a: np.ndarray) -> np.ndarray:
        return np.concatenate([a[0], a[-1], a[:, 0], a[:, -1]])

    if np.median(border(gray)) > 0.5:
        gray = 1.0 - gray
    gray = np.clip(gray - np.median(border(gray)), 0.0, None)  # the background level becomes 0
    peak = gray.max()
    if peak < 0.1:
        raise ImageError("no_ink")
    gray = gray / peak
    ink = gray > 0.2
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    cropped = gray[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]

    boxed = _thicken(_fit_box(cropped, 32, max_width=24))
    small = _pool(boxed)
    return Preprocessed(
        gray=gray.astype(np.float32),
        cropped=cropped.astype(np.float32),
        boxed=boxed.astype(np.float32),
        small=small.astype(np.float32),
        image=upsample(small),
    )


# The ink of a load_digits image, sum(pixels) / 16 over its 8 × 8 grid: the median over all 1,797 images (every digit's
# median lies within 18.9 … 20.6; tests/models/test_vit.py measures it). A pen or a drawing pad writes thinner
# strokes than the dataset's writers (a drawn 7 carried about 12), and a thin 7 without the dataset's usual crossbar
# was read as 3; the strokes are thickened until the ink comes near this.
TRAINING_INK = 19.5


def training_ink() -> float:
    """The median ink of load_digits' images (what TRAINING_INK records)."""
    images, _ = _load()
    return float(np.median(images.sum(axis=(1, 2))))


def crossbar_share(digit: int = 7) -> float:
    """The share of load_digits' images of ``digit`` with a crossbar: a row among the middle two (3 and 4) with
    at least four cells more than half inked. For 7 it is 0.65 (for 3, 0.02)."""
    images, labels = _load()
    middle = images[labels == digit][:, 3:5, :] > 0.5
    return float((middle.sum(axis=2).max(axis=1) >= 4).mean())


def _pool(boxed: np.ndarray) -> np.ndarray:
    """(32, 32) -> (8, 8) by 4 × 4 means, as load_digits was made from 32 × 32 bitmaps; brightest cell = 1."""
    small = boxed.reshape(8, 4, 8, 4).mean(axis=(1, 3))
    return small / max(small.max(), 1e-6)


def _thicken(boxed: np.ndarray, most: int = 4) -> np.ndarray:
    """Grey dilation (3 × 3 maximum) of the fitted digit, repeated while it brings the 8 × 8 ink nearer
    TRAINING_INK, at most ``most`` times; a digit already as heavy as the training ones is left as it is."""
    h, w = boxed.shape
    best, ink = boxed, _pool(boxed).sum()
    for _ in range(most):
        if ink >= TRAINING_INK:
            break
        p = np.pad(best, 1)
        wider = np.max([p[i : i + h, j : j + w] for i in range(3) for j in range(3)], axis=0)
        wider_ink = _pool(wider).sum()
        if abs(wider_ink - TRAINING_INK) >= abs(ink - TRAINING_INK):
            break
        best, ink = wider, wider_ink
    return best


def _fit_box(cropped: np.ndarray, box: int, max_width: int) -> np.ndarray:
    """Scale so the height fills ``box`` (the width at most ``max_width``), keep the aspect, centre on black.

    In load_digits every digit spans all 8 rows but never the first column and rarely the last: its width stays
    within about 6 of the 8 columns, so a wide drawing is fitted into 24 of the 32 pixels.
    """
    h, w = cropped.shape
    scale = min(box / h, max_width / w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    resized = np.asarray(
        Image.fromarray(cropped.astype(np.float32), mode="F").resize((nw, nh), Image.Resampling.BILINEAR)
    )
    out = np.zeros((box, box), dtype=np.float64)
    top, left = (box - nh) // 2, (box - nw) // 2
    out[top : top + nh, left : left + nw] = np.clip(resized, 0.0, 1.0)
    return out


def preprocess_image(image: Image.Image | np.ndarray | bytes) -> np.ndarray:
    """A picture of a digit (PIL image, array, or file bytes) -> (16, 16) float32 in [0, 1], like the training data."""
    if isinstance(image, bytes | bytearray):
        image = decode(bytes(image))
    return preprocess_steps(image).image
