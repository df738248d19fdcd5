"""Trained tokenizers on disk: trained once per installed version, loaded in milliseconds after.

A store is a folder of text files (model files, HF tokenizer.json) named by a key: the sha256 of
a recipe (what is trained, on which text, with which settings) and of a fingerprint of the code
and data that make it (every .py file of this package, every file under data/, and the versions
of `tokenizers` and `tiktoken`). Change any of them and the key changes, so a stale entry is
never read; `prune` deletes entries the current fingerprint no longer names.

Safe with two processes at once (two replicas warming the same folder): each writes a temporary
file in the folder and renames it into place, which POSIX makes atomic, so a reader sees a whole
file or none, and the last writer wins with an identical file. Each file carries the sha256 of
its payload: a file that was truncated or edited is rebuilt, never trusted.

Where: `TOKEX_CACHE_DIR` if set (replicas share one folder this way), else
`~/.cache/tokenization-explorer`. `TOKEX_CACHE_DIR=off` turns the store off (build every time).

Leaves out: what the recipes are (registry.py and the pages say) and memory caching (the app).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

CACHE_ENV = "TOKEX_CACHE_DIR"
OFF = "off"
PACKAGE = Path(__file__).resolve().parent
# The built-in data: `data/` beside the package in a checkout; inside the package, as
# `tokenizer_core/data`, once installed (`pip install .` copies it there: pyproject.toml).
DATA = PACKAGE / "data" if (PACKAGE / "data").is_dir() else PACKAGE.parent / "data"
_FORMAT = 1  # bump when the file layout below changes
T = TypeVar("T")


def store_dir() -> Path | None:
    """The folder entries live in, or None when the store is off."""
    configured = os.environ.get(CACHE_ENV, "")
    if configured.strip().lower() == OFF:
        return None
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "tokenization-explorer"


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """sha256 over the code and data that make every entry, and the libraries they call."""
    digest = hashlib.sha256(f"format {_FORMAT}\n".encode())
    for root, paths in ((PACKAGE, PACKAGE.rglob("*.py")), (DATA, DATA.rglob("*"))):
        for path in sorted(p for p in paths if p.is_file()):
            digest.update(f"{root.name}/{path.relative_to(root)}".encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    for library in ("tokenizers", "tiktoken", "regex", "sentencepiece"):
        digest.update(f"{library} {importlib.metadata.version(library)}\n".encode())
    return digest.hexdigest()


def entry_key(recipe: str) -> str:
    return hashlib.sha256(f"{fingerprint()}\n{recipe}".encode()).hexdigest()[:32]


def _path(folder: Path, recipe: str) -> Path:
    return folder / f"{entry_key(recipe)}.json"


def _read(path: Path) -> str | None:
    """The payload of a whole, unaltered entry; None for a missing or damaged one."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        payload = record["payload"]
        if hashlib.sha256(payload.encode("utf-8")).hexdigest() != record["sha256"]:
            return None
        return payload
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write(folder: Path, path: Path, recipe: str, payload: str) -> None:
    record = {
        "recipe": recipe,
        "fingerprint": fingerprint(),
        "sha256": hashlib.sha256(payload.encode("utf-8")).hexdigest(),
        "payload": payload,
    }
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".writing-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(record, file, ensure_ascii=False)
        os.replace(temporary, path)  # atomic: readers see the old file, or this whole one
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def cached(recipe: str, build: Callable[[], T], dump: Callable[[T], str],
           load: Callable[[str], T]) -> T:
    """What `recipe` makes: loaded from the store, or built and stored for next time.

    A stored payload that `load` refuses (ValueError, KeyError, TypeError: damaged in a way the
    checksum cannot see) is rebuilt, never returned. A store that cannot be written (read-only
    or full) only costs the rebuild.
    """
    folder = store_dir()
    if folder is None:
        return build()
    path = _path(folder, recipe)
    payload = _read(path)
    if payload is not None:
        try:
            return load(payload)
        except (ValueError, KeyError, TypeError):
            pass
    made = build()
    try:
        _write(folder, path, recipe, dump(made))
    except OSError:
        pass
    return made


def contains(recipe: str) -> bool:
    """Whether the store has an entry for `recipe` (so `cached` will most likely only load it:
    a page uses this to say what is still to be made). Not checked: use `cached` to read it."""
    folder = store_dir()
    return folder is not None and _path(folder, recipe).is_file()


def prune() -> int:
    """Delete entries of other fingerprints (older code or data); returns how many."""
    folder = store_dir()
    if folder is None or not folder.is_dir():
        return 0
    removed = 0
    for path in folder.glob("*.json"):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            stale = record.get("fingerprint") != fingerprint()
        except (OSError, ValueError, AttributeError):
            stale = True
        if stale:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
