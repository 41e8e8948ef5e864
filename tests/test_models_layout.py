"""The model-zoo half of the design's layout (docs/), checked on the source: an architecture file holds the architecture
only (no data generator, optimiser, training loop or progress bar), recipes live in models/recipes/, and no module
reads a training setting from the environment (settings are ``--set`` flags recorded on the card)."""

import re
from pathlib import Path

from models import recipes as registry

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
INFRASTRUCTURE = {
    "__init__",
    "probe",
    "zoo",
    "engine",
    "train",
    "training",
    "evaluate",
    "export",
    "sampling",
    "metrics",
    "scaling",  # scaling-law fits (numpy, scipy): no model
    "rl",  # GRPO's objective and advantages on arrays: no model
    "reasoning",  # completing the chain task's problems with a decoder, its held-out sets: no model of its own
    "dynamics",  # the dynamics model's training, shared by its recipe and the live trainer: it builds models.gpt
}
ARCHITECTURES = sorted(p for p in MODELS.glob("*.py") if p.stem not in INFRASTRUCTURE)
FORBIDDEN = re.compile(
    r"^\s*(from|import) (models\.data\b|models\.training\b|models\.recipes\b|tqdm\b|torch\.optim\b)"
    r"|AdamW|\bRecipe\(|^TRAIN\w* = ",
    flags=re.M,
)


def test_there_are_architecture_files():
    assert {p.stem for p in ARCHITECTURES} >= {"gpt", "bert", "vit", "switch", "llama", "mamba", "transformer"}


def test_architecture_files_hold_no_training_code():
    bad = {p.name: sorted({m.group(0).strip() for m in FORBIDDEN.finditer(p.read_text())}) for p in ARCHITECTURES}
    assert {k: v for k, v in bad.items() if v} == {}


def test_every_recipe_builds_from_an_architecture_file():
    for name, recipe in registry.recipes().items():
        assert (MODELS / f"{recipe.arch}.py") in ARCHITECTURES, name


def test_no_module_reads_training_settings_from_the_environment():
    # Locations only: TE_CHECKPOINTS (zoo), TE_DATA (the corpus folder), TE_PRETRAINED (converted real models) and
    # HF_HUB_CACHE (the Hugging Face cache, huggingface_hub's own variable); HF_ENDPOINT (the Hub to download from),
    # TE_OFFLINE and HF_HUB_OFFLINE (a host that forbids downloads: models/data/pretrained.py).
    allowed = {
        "TE_CHECKPOINTS",
        "TE_DATA",
        "TE_PRETRAINED",
        "HF_HUB_CACHE",
        "HF_ENDPOINT",
        "TE_OFFLINE",
        "HF_HUB_OFFLINE",
    }
    for path in MODELS.rglob("*.py"):
        for name in re.findall(r"os\.environ(?:\.get)?[\[(]\s*[\"'](\w+)|getenv\(\s*[\"'](\w+)", path.read_text()):
            assert set(name) - {""} <= allowed, (path, name)
        assert not re.search(r"os\.environ(?![\[.(]|\.get)", path.read_text()), path


def test_only_the_zoo_the_engine_and_the_data_read_the_environment():
    """Locations only, in the modules that resolve them: a model, a recipe or a metric takes its settings as
    arguments."""
    readers = {
        str(path.relative_to(MODELS))
        for path in MODELS.rglob("*.py")
        if re.search(r"\bos\.environ\b|\bgetenv\(", path.read_text())
    }
    assert {r for r in readers if r not in ("zoo.py", "engine.py") and not r.startswith("data/")} == set()
