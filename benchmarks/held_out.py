"""Held-out texts for the benchmarks: text this project neither ships nor trains anything on.

None of it is in the repository: it is read from Debian packages installed on this machine, and
a loader returns None where its files are missing (the benchmark then says "skipped").

  Chinese      the translations (msgstr) in the gettext catalogs /usr/share/locale/<locale>/
               LC_MESSAGES/*.mo (git, coreutils, PostgreSQL, bash, apt, ...): each distinct
               translation that holds a CJK character once, catalogs in file-name order,
               entries in catalog order, joined by newlines, the first 1,000,000 bytes (whole
               entries). Interface strings, not prose: short lines, `%s`, some Latin words.
               Three texts: zh_CN A-Z (file-name order), zh_CN Z-A (reverse order: it starts
               with xz, xkeyboard-config, wget, ..., PostgreSQL; the zh_CN catalogs hold 1.74 MB
               of such text, so the two share 261 KB, about a quarter) and zh_TW A-Z
               (Traditional characters, other translators; 12 KB in common with zh_CN A-Z).
  English      Vim's help files, /usr/share/vim/vim90/doc/*.txt in file-name order, the first
               1,000,000 bytes (whole lines): English prose with commands and tables.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path
from typing import Callable

HELD_OUT_BYTES = 1_000_000
LOCALES = Path("/usr/share/locale")
VIM_HELP = Path("/usr/share/vim/vim90/doc")
CJK = re.compile("[\u4e00-\u9fff]")


def first_bytes(parts: list[str], limit: int = HELD_OUT_BYTES) -> str:
    """Whole parts joined by newlines, as many as fit in `limit` bytes."""
    kept, size = [], 0
    for part in parts:
        size += len(part.encode()) + 1
        if size > limit:
            break
        kept.append(part)
    return "\n".join(kept)


def _big_enough(text: str) -> str | None:
    return text if len(text.encode()) > HELD_OUT_BYTES * 0.9 else None


def catalog_text(locale: str, reverse: bool = False) -> str | None:
    """~1 MB of a locale's translations from the catalogs installed here (see the docstring)."""
    entries: dict[str, None] = {}
    for path in sorted((LOCALES / locale / "LC_MESSAGES").glob("*.mo"), reverse=reverse):
        with path.open("rb") as file:
            catalog = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]
        for msgid, text in catalog.items():
            if msgid and isinstance(text, str) and CJK.search(text):
                entries.setdefault(text, None)
    return _big_enough(first_bytes(list(entries)))


def english_held_out() -> str | None:
    """~1 MB of English: Vim's help files installed here (see the docstring)."""
    lines: list[str] = []
    for path in sorted(VIM_HELP.glob("*.txt")):
        lines += path.read_text("utf-8", errors="replace").split("\n")
    return _big_enough(first_bytes(lines))


# name -> loader, in the order the tables list them
HELD_OUT: dict[str, Callable[[], str | None]] = {
    "zh_CN catalogs A-Z": lambda: catalog_text("zh_CN"),
    "zh_CN catalogs Z-A": lambda: catalog_text("zh_CN", reverse=True),
    "zh_TW catalogs A-Z": lambda: catalog_text("zh_TW"),
    "English, Vim help": english_held_out,
}
