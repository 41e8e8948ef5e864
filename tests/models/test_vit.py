"""The Vision Transformer of 2010.11929 (models/vit.py, models/recipes/vit.py), its shipped checkpoint, and upload
preprocessing."""

from __future__ import annotations

import io
from dataclasses import asdict

import numpy as np
import pytest
import torch
from PIL import Image

from models import recipes as registry
from models import vit, zoo
from models.data import digits
from models.engine import Engine
from models.probe import trace
from models.recipes import vit as recipe
from tests.models.tolerance import assert_close

# Eight fixed held-out images (positions in the test split) and the classes the shipped checkpoint predicts for them.
GOLDEN_POSITIONS = [0, 45, 90, 135, 180, 225, 270, 315]
GOLDEN_PREDICTIONS = [3, 4, 6, 2, 0, 8, 1, 9]  # position 0 is a 5 that the model reads as 3


@pytest.fixture(scope="module")
def tiny() -> vit.ViT:
    torch.manual_seed(0)
    return vit.build(asdict(vit.PRESETS["tiny"])).eval()


@pytest.fixture(scope="module")
def shipped() -> vit.ViT:
    return zoo.load("vit")


@pytest.fixture(scope="module")
def test_split() -> digits.Split:
    return digits.load_split("test")


# ---- patches and shapes ----------------------------------------------------------------------------------------


def test_patchify_then_unpatchify_is_identity():
    rng = np.random.default_rng(0)
    images = rng.random((3, 12, 12)).astype(np.float32)  # B=3, a 3×3 grid of 4×4 patches
    patches = vit.patchify(images, 4)
    assert patches.shape == (3, 9, 16)
    np.testing.assert_array_equal(vit.unpatchify(patches, 4, 3), images)
    # Patch 5 is row 1, column 2 of the grid, flattened row by row.
    np.testing.assert_array_equal(patches[1, 5], images[1, 4:8, 8:12].reshape(-1))
    t = torch.from_numpy(images)
    assert torch.equal(vit.unpatchify(vit.patchify(t, 4), 4, 3), t)


def test_tiny_shapes_probes_and_parameter_count(tiny):
    c = tiny.config  # 8×8 image, 4×4 patches: N=4, T=5, C=16, 2 heads
    images = torch.rand(3, 8, 8)
    with trace("*") as t:
        logits = tiny(images)
    assert logits.shape == (3, 10)
    assert t["patch_embed.patches"].shape == (3, 4, 16)
    assert t["patch_embed.embeddings"].shape == (3, 4, c.dim)
    assert t["tokens"].shape == (3, 5, c.dim)
    assert t["blocks.0.attn.pattern"].shape == (3, 2, 5, 5)
    assert t["cls"].shape == (3, c.dim)
    torch.testing.assert_close(t["blocks.0.attn.pattern"].sum(-1), torch.ones(3, 2, 5))
    # [CLS] goes first: token 0 is the learned x_class plus position 0, the same for every image.
    torch.testing.assert_close(t["tokens"][:, 0], (tiny.cls_token[0, 0] + tiny.pos.weight[0]).expand(3, -1))
    assert zoo.parameter_count(tiny) == 2_794  # pinned: a changed layer shows up here


def test_shipped_parameter_count():
    assert zoo.parameter_count(vit.build(asdict(vit.PRESETS["shipped"]))) == 136_906


def test_attention_rollout():
    rng = np.random.default_rng(1)
    raw = rng.random((3, 4, 5, 5))
    patterns = raw / raw.sum(-1, keepdims=True)  # L=3 layers, 4 heads, T=5
    for fusion in ("mean", "max", "min"):
        for discard in (0.0, 0.5, 0.9):
            r = vit.attention_rollout(patterns, head_fusion=fusion, discard_ratio=discard)
            assert r.shape == (5, 5) and (r >= 0).all()
            np.testing.assert_allclose(r.sum(-1), 1.0, atol=1e-12)
    # Layers that attend only to themselves leave every token where it was.
    np.testing.assert_allclose(vit.attention_rollout(np.broadcast_to(np.eye(5), (2, 4, 5, 5))), np.eye(5))
    with pytest.raises(ValueError):
        vit.attention_rollout(patterns, head_fusion="median")


def test_position_similarity_layout():
    rng = np.random.default_rng(2)
    pos = rng.normal(size=(9, 6))
    sim = vit.position_similarity(pos, 3)
    assert sim.shape == (3, 3, 3, 3)
    for i in range(3):
        for j in range(3):
            assert sim[i, j, i, j] == pytest.approx(1.0)
    unit = pos / np.linalg.norm(pos, axis=1, keepdims=True)
    assert sim[0, 1, 2, 0] == pytest.approx(unit[1] @ unit[6])


# ---- the shipped checkpoint ------------------------------------------------------------------------------------


def test_checkpoint_meets_its_bar(shipped, test_split):
    card = zoo.read_card("vit")
    metrics = recipe.evaluate(shipped, zoo.checkpoint_dir("vit"))
    assert metrics["test_accuracy"] >= 0.97
    assert metrics == card["metrics"]
    assert card["params"] == zoo.parameter_count(shipped)
    assert (zoo.checkpoint_dir("vit") / "model.safetensors").stat().st_size < 5e6


def test_golden_predictions(shipped, test_split):
    pred = vit.predict(shipped, test_split.images[GOLDEN_POSITIONS])
    assert pred.tolist() == GOLDEN_PREDICTIONS


def test_the_learned_positions_are_2d(shipped):
    """Neighbouring patches have more similar position embeddings than distant ones (the paper's Figure 7)."""
    g = shipped.config.grid
    sim = vit.position_similarity(shipped.pos.weight[1:].detach().numpy(), g)
    near, far = [], []
    for i in range(g):
        for j in range(g):
            for k in range(g):
                for m in range(g):
                    d = abs(i - k) + abs(j - m)
                    (near if d == 1 else far if d >= 3 else []).append(sim[i, j, k, m])
    assert np.mean(near) > np.mean(far)


def test_onnx_parity(test_split):
    """ONNX Runtime against torch on three held-out images: logits and every exported probe."""
    engine = Engine(device="cpu")
    images = test_split.images[[3, 4, 5]]
    probes = registry.recipe("vit").probes
    ref = engine.run("vit", {"images": images}, probes, backend="torch")
    got = engine.run("vit", {"images": images}, probes, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)
    assert set(got.probes) == set(ref.probes) and "blocks.3.attn.pattern" in got.probes
    for name in ref.probes:
        assert_close(got.probes[name], ref.probes[name], 1e-4, err_msg=name)


# ---- uploads and drawings --------------------------------------------------------------------------------------


def _digit_on_paper(index: int, scale: int = 20) -> np.ndarray:
    """A load_digits digit drawn large, dark ink on white paper, as uint8."""
    from sklearn.datasets import load_digits

    im8 = load_digits().images[index] / 16.0
    return ((1 - np.kron(im8, np.ones((scale, scale)))) * 255).astype(np.uint8)


def _png(image: Image.Image, fmt: str = "PNG") -> bytes:
    buf = io.BytesIO()
    image.save(buf, format=fmt)
    return buf.getvalue()


def test_preprocessing_recovers_training_digits(shipped, test_split):
    """Held-out digits photographed as dark ink on paper come back close enough to be classified the same."""
    positions = GOLDEN_POSITIONS
    images = np.stack(
        [digits.preprocess_image(Image.fromarray(_digit_on_paper(int(test_split.index[p])))) for p in positions]
    )
    assert images.shape == (8, 16, 16) and images.dtype == np.float32
    assert images.min() >= 0 and 0.9 < images.max() <= 1.0
    agree = vit.predict(shipped, images) == np.array(GOLDEN_PREDICTIONS)
    assert agree.sum() >= 7


def test_grayscale_rgb_rgba_and_bytes_agree():
    paper = _digit_on_paper(5)
    gray = digits.preprocess_image(Image.fromarray(paper, mode="L"))
    rgb = digits.preprocess_image(Image.fromarray(np.stack([paper] * 3, -1), mode="RGB"))
    np.testing.assert_allclose(rgb, gray, atol=1e-2)
    # Black strokes on a transparent canvas (what a drawing widget returns).
    rgba = np.zeros((*paper.shape, 4), dtype=np.uint8)
    rgba[..., 3] = 255 - paper
    np.testing.assert_allclose(digits.preprocess_image(Image.fromarray(rgba, mode="RGBA")), gray, atol=1e-2)
    # The same picture inverted (white ink on black), as a file, as JPEG, and as a float array.
    np.testing.assert_allclose(digits.preprocess_image(_png(Image.fromarray(255 - paper))), gray, atol=1e-2)
    jpeg = digits.preprocess_image(_png(Image.fromarray(paper), "JPEG"))
    assert np.abs(jpeg - gray).mean() < 0.05
    np.testing.assert_allclose(digits.preprocess_image(paper / 255.0), gray, atol=1e-2)
    sixteen = digits.preprocess_image(Image.fromarray(paper.astype(np.uint16) * 257))
    np.testing.assert_allclose(sixteen, gray, atol=1e-2)


def test_tiny_images():
    with pytest.raises(digits.ImageError) as e:
        digits.preprocess_image(Image.new("L", (1, 1), 255))  # nothing but background
    assert e.value.code == "no_ink"
    dot = np.zeros((5, 5), dtype=np.uint8)
    dot[2, 2] = 255
    out = digits.preprocess_image(Image.fromarray(dot))
    assert out.shape == (16, 16) and np.isfinite(out).all() and out.max() == pytest.approx(1.0)
    with pytest.raises(digits.ImageError):
        digits.preprocess_steps(np.ones((3, 40)))  # one flat colour: no ink to find


def test_huge_images():
    big = Image.new("L", (3000, 2000), 255)
    big.paste(0, (1200, 500, 1500, 1500))  # a dark vertical stroke: a "1"
    out = digits.preprocess_steps(big)
    assert max(out.gray.shape) <= 256 and out.image.shape == (16, 16)
    with pytest.raises(digits.ImageError) as e:
        digits.decode(_png(Image.new("1", (8000, 6000))))  # 48 Mpx: refused before decoding
    assert e.value.code == "too_many_pixels"
    with pytest.raises(digits.ImageError) as e:
        digits.decode(b"\x89PNG" + bytes(digits.MAX_UPLOAD_BYTES))
    assert e.value.code == "too_large"


def test_phone_photos_are_scaled_down_on_arrival():
    """A 48-megapixel JPEG of several MB (what phones take) is read, at most WORKING_SIDE a side, and its digit
    found; the same pixel count as a PNG is still refused above."""
    rng = np.random.default_rng(0)
    photo = (200 + rng.integers(0, 40, size=(6000, 8000), dtype=np.uint8)).astype(np.uint8)  # grainy paper
    photo[1500:4500, 3800:4300] = 20  # a dark vertical stroke: a "1"
    buf = io.BytesIO()
    Image.fromarray(photo).convert("RGB").save(buf, "JPEG", quality=90)
    assert len(buf.getvalue()) > 3 * 1024 * 1024  # several MB, as a phone's
    im = digits.decode(buf.getvalue())
    assert max(im.size) <= digits.WORKING_SIDE and im.size[0] > im.size[1]
    steps = digits.preprocess_steps(im)
    assert steps.image.shape == (16, 16) and steps.image.max() > 0.9  # the stroke survives the downscaling


@pytest.mark.parametrize("data", [b"", b"hello, not an image", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"GIF89a\x01\x00"])
def test_bad_bytes_raise_a_clear_error(data):
    with pytest.raises(digits.ImageError) as e:
        digits.preprocess_image(data)
    assert isinstance(e.value, ValueError) and e.value.code in {"empty", "not_an_image"}


def test_truncated_png_is_refused():
    data = _png(Image.fromarray(_digit_on_paper(3)))
    with pytest.raises(digits.ImageError):
        digits.preprocess_image(data[: len(data) // 2])


def test_split_is_fixed_and_disjoint():
    train, test = digits.load_split("train"), digits.load_split("test")
    assert len(train.labels) == 1438 and len(test.labels) == 359
    assert not set(train.index) & set(test.index)
    assert test.index[:5].tolist() == digits.load_split("test").index[:5].tolist()
    assert np.bincount(test.labels).min() >= 35  # stratified: every class held out


@pytest.mark.gpu
def test_gpu_backends_match_the_cpu(test_split):
    """On a CUDA host both backends run on the GPU and agree with the CPU reference."""
    images = test_split.images[:8]
    probes = ("blocks.*.attn.pattern",)
    ref = Engine(device="cpu").run("vit", {"images": images}, probes, backend="torch")
    gpu = Engine(device="cuda")
    for backend in ("torch", "onnx"):
        got = gpu.run("vit", {"images": images}, probes, backend=backend)
        assert got.device == "cuda", backend
        assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-3)
        assert_close(got.probes["blocks.3.attn.pattern"], ref.probes["blocks.3.attn.pattern"], 1e-3)


def _drawn(strokes, width: int = 18) -> Image.Image:
    """A digit as the drawing pad makes it: black strokes on a white 240 × 240 canvas."""
    from PIL import ImageDraw

    im = Image.new("RGBA", (240, 240), (255, 255, 255, 255))
    draw = ImageDraw.Draw(im)
    for s in strokes:
        draw.line(s, fill=(0, 0, 0, 255), width=width, joint="curve")
    return im


SEVEN = [[(75, 55), (165, 55), (110, 195)]]
SEVEN_WITH_BAR = [*SEVEN, [(100, 125), (160, 125)]]
ONE = [[(105, 70), (125, 50), (125, 195)]]


def test_thin_strokes_are_evened_to_the_training_ink():
    assert digits.training_ink() == pytest.approx(digits.TRAINING_INK, abs=0.1)
    assert digits.crossbar_share(7) == pytest.approx(0.65, abs=0.01) and digits.crossbar_share(3) < 0.05
    for strokes in (SEVEN, ONE):
        thin = digits.preprocess_steps(_drawn(strokes, width=10)).small.sum()
        heavy = digits.preprocess_steps(_drawn(strokes, width=40)).small.sum()
        # a thin pen is widened towards the training ink; a heavy one is left as it is, above it
        assert 0.8 * digits.TRAINING_INK <= thin <= 1.2 * digits.TRAINING_INK
        assert heavy > digits.TRAINING_INK


@pytest.mark.skipif("vit" not in zoo.available(), reason="needs the vit checkpoint")
def test_the_shipped_vit_reads_a_drawn_seven_with_its_crossbar():
    """A 7 as most of the dataset's writers wrote it (with a crossbar) is read as 7 at any pen width, and a thick
    plain 7 too; the page's hint says a plain thin one may be read as 3 (what the model did before the evening)."""
    model = zoo.load("vit")
    for strokes, width in ((SEVEN_WITH_BAR, 10), (SEVEN_WITH_BAR, 18), (SEVEN, 30)):
        x = torch.from_numpy(digits.preprocess_steps(_drawn(strokes, width)).image)[None]
        with torch.no_grad():
            assert int(model(x).argmax()) == 7, (strokes, width)
