"""The README stays true: its bounds table lists every bound the code enforces, with its value."""

from __future__ import annotations

import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LIMIT_MODULES = ["tokenizer_core.bounds"] + sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "ui").rglob("limits.py")
)


def _bounds_rows() -> list[str]:
    section = README.split("## Bounds", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("|")]


def _shown(value: object) -> list[str]:
    if isinstance(value, tuple):
        return [f"{value[0]:,}", f"{value[-1]:,}"]
    return [f"{value:,}"]


def test_every_limit_is_a_row_with_its_value():
    rows = _bounds_rows()
    for module_name in LIMIT_MODULES:
        module = importlib.import_module(module_name)
        path = module_name.replace(".", "/") + ".py"
        for name, value in vars(module).items():
            if not name.isupper() or isinstance(value, (str, bool)):
                continue
            matching = [row for row in rows if f"`{name}`" in row]
            assert matching, f"{path}: {name} has no row in README's Bounds table"
            # a name used in two modules (MAX_MERGES, MAX_UPLOAD_BYTES) must match one of its rows
            assert any(all(v in row for v in _shown(value)) for row in matching), (
                f"{path}: {name} = {value!r}, but README's row says otherwise"
            )
