"""The house's arrows hold: import-linter's contracts (.importlinter) and nothing imports pages/."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # every contract was read and checked: a config that silently lost one would pass too
    assert "4 kept, 0 broken" in result.stdout, result.stdout


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_pages_are_the_top_layer_nothing_imports_them():
    # pages/ holds Streamlit scripts, not a package, so import-linter cannot see them
    for folder in ("tokenizer_core", "ui", "pages"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            bad = {m for m in _imported_modules(path) if m == "pages" or m.startswith("pages.")}
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"

