"""The README stays true: its bounds table lists every bound the code enforces, with its value."""

from __future__ import annotations

from pathlib import Path

import tokenizer_core.bounds as core_bounds
import ui.limits as app_limits

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _constants(module) -> dict[str, int]:
    return {name: value for name, value in vars(module).items() if name.isupper() and isinstance(value, int)}


def test_every_bound_appears_in_the_readme_with_its_value():
    section = README.split("## Bounds", 1)[1].split("\n## ", 1)[0]
    for module in (app_limits, core_bounds):
        for name, value in _constants(module).items():
            assert f"{value:,}" in section, f"{module.__name__}.{name} = {value:,} is not in README's Bounds"
