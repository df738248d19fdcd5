"""The core stays pure: no Streamlit, plotly or pandas import, no print, and no local package
named like one it might shadow."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import tokenizer_core

CORE = Path(tokenizer_core.__file__).parent


def test_importing_every_core_module_pulls_in_no_app_library():
    # every module of every sub-package, not only the top level (import-linter checks the source;
    # this checks what importing really pulls in, third-party imports included)
    modules = [
        m.name for m in pkgutil.walk_packages([str(CORE)], "tokenizer_core.")
        if not m.name.endswith("__main__")
    ]
    assert len(modules) > 30, modules
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in ('streamlit', 'plotly', 'pandas') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_no_print_in_the_core():
    paths = sorted(CORE.rglob("*.py"))
    assert any(p.parent != CORE for p in paths), "the sub-packages were not searched"
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"]
        assert not calls, f"{path.relative_to(CORE)} calls print()"


def test_no_local_package_shadows_hf_tokenizers():
    import tokenizers

    assert "site-packages" in tokenizers.__file__ or "dist-packages" in tokenizers.__file__
    assert not (CORE.parent / "tokenizers").exists()
