"""The layout rules that import-linter does not check: no module imports a private name of
another package, no module is over 250 lines, and the documented layout matches the tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pipelines.graph import mermaid

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("service", "pipelines", "ingestion", "prompts")
MAX_LINES = 250


def _modules(*tops: str) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py"))


def _private_imports(path: Path) -> list[str]:
    """`from a.b import _x` or `import a._b` where the private part is not in this package."""
    own = path.relative_to(ROOT).parts[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            names = [alias.name for alias in node.names]
            private = [p for p in parts[1:] if p.startswith("_") and not p.startswith("__")]
            private += [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and parts[0] != own:
                found.append(f"{node.module}: {', '.join(private)}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] != own and any(p.startswith("_") for p in parts[1:]):
                    found.append(alias.name)
    return found


@pytest.mark.parametrize(
    "path", _modules(*PACKAGES, "bench", "tests"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_private_name_of_another_package_is_imported(path: Path) -> None:
    assert _private_imports(path) == []


def test_the_private_import_check_can_fail(tmp_path: Path) -> None:
    module = ROOT / "service" / "_layout_probe.py"
    module.write_text("from starlette._utils import get_route_path\nimport jwt._x\n")
    try:
        assert _private_imports(module) == ["starlette._utils: _utils", "jwt._x"]
    finally:
        module.unlink()


@pytest.mark.parametrize("path", _modules(*PACKAGES), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_250_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_LINES


def _packages() -> list[str]:
    """Every package folder below the top-level packages, as `service/http/`."""
    return sorted(
        f"{p.parent.relative_to(ROOT)}/"
        for top in PACKAGES
        for p in (ROOT / top).rglob("__init__.py")
        if p.parent != ROOT / top
    )


@pytest.mark.parametrize("document", ["README.md", "docs/architecture.md"])
def test_the_documented_layout_names_every_package(document: str) -> None:
    text = (ROOT / document).read_text()
    assert [p for p in _packages() if f"{Path(p).name}/" not in text] == []


def test_the_readme_draws_the_graph_that_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    drawn = re.search(r"```mermaid\n(.*?)```", readme, re.DOTALL)
    assert drawn is not None
    assert drawn.group(1).strip() == mermaid().strip()
