"""The layering rules of the design (docs/), checked on the source: models/ never imports Streamlit; app/ has one
folder per page (page.py, strings.py, and its service and views), shared parts in app/shared/; a page never imports
torch or models/ (its service does) nor a service's private names; app/shared/ never imports a page; nothing loads a
pickle."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.catalog import APP_DIR, SHARED, available_papers, page_folders

ROOT = Path(__file__).resolve().parents[1]
OLD_FOLDERS = ("page_scripts", "services", "views", "i18n")  # before one folder per page


def _sources(folder: Path):
    return [(p, p.read_text()) for p in folder.rglob("*.py")]


NOT_PAGE_CODE = {"service.py", "views.py", "strings.py", "__init__.py"}
MAX_PAGE_LINES = 150  # a page script is the paper's outline: header, intro, input, one call per section


def _page_scripts() -> list[Path]:
    """Every page script and the modules of its sections (``sections.py``, or one module per story): the code a
    page runs in the browser's session, as opposed to its service, views and strings."""
    return sorted(p for folder in page_folders() for p in folder.glob("*.py") if p.name not in NOT_PAGE_CODE)


def _imports(tree: ast.AST):
    """(module, names) of every import: ``import a.b`` -> ("a.b", []), ``from a import b`` -> ("a", ["b"])."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, [alias.name for alias in node.names]


def test_models_never_import_streamlit():
    bad = [p for p, s in _sources(ROOT / "models") if re.search(r"^\s*(import|from) streamlit", s, flags=re.M)]
    assert not bad


def test_every_page_folder_has_its_page_and_strings_and_the_old_folders_are_gone():
    folders = page_folders()
    assert {f.name for f in folders} >= {"home", *(p.module for p in available_papers())}
    for folder in folders:
        for name in ("page.py", "strings.py", "__init__.py"):
            assert (folder / name).exists(), folder / name
    assert (APP_DIR / SHARED / "__init__.py").exists()
    for old in OLD_FOLDERS:
        assert not (APP_DIR / old).exists(), f"app/{old}/ should be gone: each page's files sit in its own folder"
    assert not (APP_DIR / "ui.py").exists()
    # Every folder of app/ is a page or app/shared/ (no page without its page.py, no stray folders), or app/static/:
    # the files Streamlit serves, which app/shared/kept_chart.py fills at run time (ignored by git).
    stray = [
        d.name
        for d in APP_DIR.iterdir()
        if d.is_dir()
        and not d.name.startswith(("_", "."))
        and d.name not in (SHARED, "static")
        and not (d / "page.py").exists()
    ]
    assert not stray, stray


def test_pages_never_import_torch_or_models():
    bad = [
        (p, module)
        for p in _page_scripts()
        for module, _ in _imports(ast.parse(p.read_text()))
        if module.split(".")[0] in ("torch", "models")
    ]
    assert not bad


def test_pages_use_no_private_names_of_a_service():
    """A page calls its service's public functions only: ``svc._helper`` or ``from ...service import _helper`` means
    the helper belongs in the service's interface (or in the service itself)."""
    bad = []
    for path in _page_scripts():
        tree = ast.parse(path.read_text())
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if node.module.endswith(".service") and alias.name.startswith("_"):
                        bad.append((path, f"{node.module}.{alias.name}"))
                    if alias.name == "service" or node.module.endswith(".service") and alias.name != "*":
                        aliases.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                aliases |= {a.asname for a in node.names if a.name.endswith(".service") and a.asname}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                bad.append((path, f"{node.value.id}.{node.attr}"))
    assert not bad, bad


def test_a_figure_and_its_download_are_one_call():
    """``ui.figure(fig, data, name, key=...)`` draws a figure with its download; a page does not write them apart."""
    bad = []
    for path in _page_scripts():
        for node in ast.walk(ast.parse(path.read_text())):
            body = getattr(node, "body", None)
            if not isinstance(body, list):
                continue
            calls = [
                s.value.func.attr
                if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute)
                else None
                for s in body
            ]
            bad += [(path, s.lineno) for s, a, b in zip(body, calls, calls[1:]) if (a, b) == ("plot", "download")]
    assert not bad, bad


def test_shared_never_imports_a_page():
    pages = {f.name for f in page_folders()}
    bad = []
    for path in (APP_DIR / SHARED).rglob("*.py"):
        for module, names in _imports(ast.parse(path.read_text())):
            parts = module.split(".")
            if parts[0] == "app" and (len(parts) > 1 and parts[1] in pages or module == "app" and set(names) & pages):
                bad.append((path, module, names))
    assert not bad, bad


def test_nothing_loads_pickles():
    pattern = re.compile(r"torch\.load\(|pickle\.load|joblib\.load")
    bad = [p for folder in ("app", "models", "bench") for p, s in _sources(ROOT / folder) if pattern.search(s)]
    assert not bad


def test_checkpoints_are_safetensors_only():
    ckpts = ROOT / "models" / "checkpoints"
    suffixes = {p.suffix for p in ckpts.rglob("*") if p.is_file()}
    assert suffixes <= {".json", ".safetensors", ".onnx"}, suffixes


def test_the_app_never_imports_a_recipe():
    """Recipes are training code (data generators, optimisers, torch.distributed): a service reads what it needs from
    the architecture modules, models/metrics.py, models/data/ or the checkpoint's card, never from models/recipes/."""
    bad = []
    for path, source in _sources(APP_DIR):
        for module, names in _imports(ast.parse(source)):
            if (
                module == "models.recipes"
                or module.startswith("models.recipes.")
                or (module == "models" and "recipes" in names)
            ):
                bad.append((str(path.relative_to(ROOT)), module, names))
    assert not bad, bad


@pytest.mark.parametrize("name", ["gpt", "mamba-lm", "llama"])
def test_loading_a_checkpoint_imports_no_recipe(name):
    """zoo.load builds the model from the module its config.json names: a fresh interpreter that loads a checkpoint
    has imported nothing of models/recipes/."""
    if not (ROOT / "models" / "checkpoints" / name / "model.safetensors").exists():
        pytest.skip(f"{name} is not shipped here")
    code = f"import models.zoo as z; z.load({name!r}); import sys; print([m for m in sys.modules if 'recipes' in m])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_page_script_reads_like_an_outline():
    """``page.py`` holds the header, the intro, the shared input and one call per section; the sections live beside
    it. Past this many lines, a reader no longer finds the paper's outline in it."""
    long = {
        p.parent.name: n for p in APP_DIR.glob("*/page.py") if (n := len(p.read_text().splitlines())) > MAX_PAGE_LINES
    }
    assert not long, long
