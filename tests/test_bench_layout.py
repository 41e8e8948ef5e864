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
