"""bench/ depends on app/, models/ and deploy/, never on tests/ (tests may import bench/, not the other way round),
and its two benchmarks share what they both need through bench/common.py instead of importing each other."""

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def imported(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function, and every name it hands import_module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
            found.update(a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
        elif isinstance(node, ast.JoinedStr) and any(
            isinstance(v, ast.Constant) and str(v.value).startswith("tests.") for v in node.values
        ):
            found.add("tests.<formatted>")
    return found


def test_bench_never_imports_tests():
    for path in sorted(BENCH.glob("*.py")):
        offending = sorted(m for m in imported(path) if m == "tests" or m.startswith("tests."))
        assert not offending, (path.name, offending)


def test_the_two_benchmarks_do_not_import_each_other():
    assert not {"bench.run", "bench.load"} & imported(BENCH / "load.py") - {"bench.load"}
    assert not {"bench.load", "bench.run"} & imported(BENCH / "run.py") - {"bench.run"}
    assert "bench.common" in imported(BENCH / "load.py") and "bench.common" in imported(BENCH / "run.py")


def test_further_moves_name_a_page_and_the_real_models_pages_have_one_with_it_picked():
    """``bench.moves`` and the browser table time a page's own move under the page's name and the further moves of
    ``bench.interactions.MOVES`` under theirs (issue 61: RoPE's d, Transformer-XL's segment, and the real model's
    pages with it picked, which the table did not time): each names a page that has its own move."""
    from bench.common import REAL, REAL_PAGES
    from bench.interactions import INTERACTIONS, MOVES, ROUTES

    assert {name: path for name, (path, _) in ROUTES.items() if name in INTERACTIONS} == {n: n for n in INTERACTIONS}
    for name, (path, move) in MOVES.items():
        assert path.split("?")[0] in INTERACTIONS and callable(move), name
    for page, param in REAL_PAGES.items():
        assert MOVES[f"{page}-{REAL}"][0] == f"{page}?{param}={REAL}"
    assert {"rope-d", "transformer-xl-segment"} <= MOVES.keys()
