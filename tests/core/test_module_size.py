"""Every module of the core is under 500 lines (STYLE.md: one idea per module; minbpe's are 74-165).

A module that grows past it is split by idea, each part saying what it adds and what it leaves
out, as trainers/bpe.py became bpe.py, bpe_chain.py and training.py (issue 23, item 14).
"""

from __future__ import annotations

from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "tokenizer_core"
MAX_LINES = 500


def test_every_core_module_is_under_500_lines():
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) > 50  # the core was found, not an empty folder
    sizes = {str(p.relative_to(CORE)): len(p.read_text(encoding="utf-8").splitlines())
             for p in modules}
    assert {name: n for name, n in sizes.items() if n >= MAX_LINES} == {}
