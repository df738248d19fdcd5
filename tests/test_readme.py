"""The README stays short and true: a newcomer's page that links docs/, whose bounds table lists
every bound the code enforces, with its value."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
README_ZH = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
BOUNDS = (ROOT / "docs" / "bounds.md").read_text(encoding="utf-8")
LIMIT_MODULES = ["tokenizer_core.bounds"] + sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "ui").rglob("limits.py")
)


def _bounds_rows() -> list[str]:
    return [line for line in BOUNDS.splitlines() if line.startswith("|")]


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
            assert matching, f"{path}: {name} has no row in docs/bounds.md's table"
            # a name used in two modules (MAX_MERGES, MAX_UPLOAD_BYTES) must match one of its rows
            assert any(all(v in row for v in _shown(value)) for row in matching), (
                f"{path}: {name} = {value!r}, but docs/bounds.md's row says otherwise"
            )


def test_readme_is_what_a_newcomer_reads_in_two_minutes():
    # issue 23: the README had grown to 919 lines; the detail lives in docs/
    assert len(README.splitlines()) <= 150
    assert "http://localhost:8501" in README


def test_every_relative_link_in_readme_and_docs_exists():
    for page in [ROOT / "README.md", ROOT / "README.zh-CN.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), f"{page.name} links {target}, which is missing"


def test_readme_links_every_doc():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{doc.name}" in README, f"README does not link docs/{doc.name}"


def _commands(readme: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", readme, flags=re.DOTALL)


def test_the_chinese_readme_gives_the_same_two_commands_and_is_linked_from_the_top():
    # issue 20: the classroom reads Chinese first; a newcomer there runs exactly what CI runs
    assert len(_commands(README)) == 2
    assert _commands(README_ZH) == _commands(README)
    assert "[中文](README.zh-CN.md)" in README.split("\n## ")[0]
    assert "[English](README.md)" in README_ZH.split("\n## ")[0]


def test_the_chinese_readme_names_the_pages_as_the_interface_does():
    from ui.common.i18n import translations

    zh = translations("zh")
    for title in ["Playground", "Merge steps", "Unigram & SentencePiece", "Compression",
                  "Languages", "Sequences", "Vocabulary", "Practice", "Presentation mode"]:
        assert zh.gettext(title) != title, f"{title!r} has no Chinese in the catalog"
        assert zh.gettext(title) in README_ZH, f"README.zh-CN.md does not say {zh.gettext(title)}"
