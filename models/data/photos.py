"""Colour photos for a real image classifier (Google's ViT-B/16): scikit-learn's two bundled sample photos
(``load_sample_images``: a temple in China, a flower; 427×640, no network) or an upload, resized and normalised as the
checkpoint's own preprocessing says (its card's ``preprocess``, from the repository's preprocessor_config.json).

An upload is read by ``digits.decode`` (size, pixel-count and format checks, ``ImageError`` with a code a page
translates), then made RGB on white (transparency composited) and resized to the model's side, aspect ratio not
kept — what ViTImageProcessor does (resize to 224×224, no crop).
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image

from models.data.digits import ImageError, decode

SAMPLES = ("china", "flower")  # load_sample_images' files, china.jpg and flower.jpg
RESAMPLE = {"nearest": Image.Resampling.NEAREST, "bilinear": Image.Resampling.BILINEAR}


@functools.cache
def _samples() -> dict[str, np.ndarray]:
    from sklearn.datasets import load_sample_images

    bundle = load_sample_images()
    return {name.rsplit("/", 1)[-1].removesuffix(".jpg"): image for name, image in zip(bundle.filenames, bundle.images)}


def sample(name: str) -> Image.Image:
    """One of ``SAMPLES`` as a PIL RGB image, at its full size."""
    if name not in SAMPLES:
        raise ImageError("bad_sample", name)
    return Image.fromarray(_samples()[name])


def rgb(image: Image.Image) -> Image.Image:
    """Any PIL image as RGB; transparent pixels become white paper."""
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert("RGB")
    return image.convert("RGB")


def resized(image: Image.Image, side: int, resample: str = "bilinear") -> np.ndarray:
    """(side, side, 3) uint8: the picture as the model's preprocessing resizes it."""
    if min(image.size) < 1:
        raise ImageError("bad_shape", str(image.size))
    method = RESAMPLE.get(resample, Image.Resampling.BICUBIC)
    return np.asarray(rgb(image).resize((side, side), method), dtype=np.uint8)


def from_upload(data: bytes, side: int, resample: str = "bilinear", *, max_bytes: int) -> np.ndarray:
    """Bytes of an uploaded picture -> (side, side, 3) uint8; ``ImageError`` for empty, huge or unreadable data."""
    return resized(decode(data, max_bytes=max_bytes), side, resample)


def normalise(pixels: np.ndarray, mean, std, rescale: float = 1 / 255) -> np.ndarray:
    """(H, W, 3) uint8 -> (3, H, W) float32: scaled by ``rescale`` to [0, 1], then (x − mean) / std per channel."""
    x = pixels.astype(np.float32) * np.float32(rescale)
    x = (x - np.asarray(mean, dtype=np.float32)) / np.asarray(std, dtype=np.float32)
    return np.ascontiguousarray(x.transpose(2, 0, 1))
