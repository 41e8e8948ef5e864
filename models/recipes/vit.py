"""How the ``vit`` checkpoint is trained and evaluated: scikit-learn's handwritten digits upsampled to 16×16
(``models.data.digits``, a fixed stratified split), random affine augmentation, label smoothing, test accuracy.

    python -m models.train vit [--set steps=6000 ...]
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import recipes as registry
from models import vit
from models.data import digits
from models.recipes.common import initial_model
from models.training import fit, schedule

SETTINGS = {
    "steps": 6000,
    "batch": 128,
    "lr": 2e-3,
    "warmup": 200,
    "weight_decay": 0.05,
    "label_smoothing": 0.1,
    # Augmentation: 1,438 training images are very little data for a ViT.
    "rotation_deg": 12,  # random rotation within ±this
    "scale_range": 0.1,  # random scaling within 1 ± this
    "shift_px": 1.5,  # random shift within ±this many pixels, in each direction
}


def augment(
    images: torch.Tensor,
    gen: torch.Generator,
    rotation_deg: float = 12,
    scale_range: float = 0.1,
    shift_px: float = 1.5,
) -> torch.Tensor:
    """Random rotations (±``rotation_deg``), scalings (1 ± ``scale_range``) and shifts (±``shift_px``) of a
    (B, H, W) batch."""
    B, H, W = images.shape
    angle = (torch.rand(B, generator=gen) * 2 - 1) * (rotation_deg * np.pi / 180)
    scale = (1 - scale_range) + 2 * scale_range * torch.rand(B, generator=gen)
    shift = (torch.rand(B, 2, generator=gen) * 2 - 1) * (shift_px * 2 / H)  # in [-1, 1] grid units
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, (B, 1, H, W), align_corners=False)
    return F.grid_sample(images[:, None], grid, align_corners=False, padding_mode="zeros")[:, 0]


def train(run: registry.Run) -> registry.Trained:
    hp = run.settings
    torch.manual_seed(run.seed)
    model, config = initial_model(run, vit.build, asdict(vit.PRESETS["shipped"]))
    data = digits.load_split("train")
    images, labels = torch.from_numpy(data.images), torch.from_numpy(data.labels)
    gen = torch.Generator().manual_seed(run.seed)
    shape = {k: hp[k] for k in ("rotation_deg", "scale_range", "shift_px")}

    def batches():
        while True:
            idx = torch.randint(0, len(labels), (hp["batch"],), generator=gen)
            yield augment(images[idx], gen, **shape), labels[idx]

    def loss(model: vit.ViT, batch: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
        x, y = batch
        return F.cross_entropy(model(x), y, label_smoothing=hp["label_smoothing"])

    trainer = fit(
        model,
        batches(),
        loss,
        **schedule(hp),
        desc="vit",
    )
    return registry.Trained(
        model,
        config,
        data=digits.split_description() + "; upsampled bilinearly to 16×16",
        card={
            "task": "classify handwritten digits 0–9 from 4×4 patches of a 16×16 image",
            "split": {
                "seed": digits.SPLIT_SEED,
                "test_fraction": digits.TEST_FRACTION,
                "train": len(labels),
                "test": len(digits.load_split("test").labels),
                "stratified": True,
            },
        },
        stages=[trainer.summary("classify")],
    )


def evaluate(model: vit.ViT, out: Path) -> dict:
    test = digits.load_split("test")
    pred = vit.predict(model, test.images)
    return {"test_accuracy": round(float((pred == test.labels).mean()), 4), "test_images": int(len(test.labels))}


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {"images": digits.load_split("test").images[:2]}


RECIPES = [
    registry.Recipe(
        name="vit",
        arch="vit",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"test_accuracy": {"min": 0.97}},
        probes=("patch_embed.patches", "patch_embed.embeddings", "tokens", "blocks.*.attn.pattern", "cls"),
        dynamic_axes={"images": {0: "B"}},
        defaults=SETTINGS,
    ),
]
