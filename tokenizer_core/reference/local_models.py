"""Tokenizers already on this machine: a models folder, and the local Hugging Face cache.

What it adds: `scan()` lists what is there, by name, with each file's size and sha256, and the
files it cannot offer with the reason (a Refusal, one sentence); `open_isolated()` loads one in
a worker process of its own (isolated.py: the same time limit as an uploaded tokenizer.json, and
a hostile file stalls nobody).

The models folder is TOKEX_MODELS_DIR, else `models/` beside app.py. In it:
- `NAME/` holding `tokenizer.json` (an HF folder; `tokenizer_config.json` and
  `special_tokens_map.json` are listed with it when present)  -> `local:NAME`
- `NAME.json`, a tokenizer.json under another name              -> `local:NAME`
- `NAME.model`, a SentencePiece model                           -> `local:NAME`
- `NAME.tiktoken`, tiktoken ranks, with `NAME.tiktoken.json` beside it (local_formats.py
  says its fields: the regex `pat_str` and `special_tokens`)    -> `local:NAME`
Hidden files are skipped; anything else is listed as not offered, with why.

The Hugging Face cache is HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub, read
by huggingface_hub's own cache scanner (`scan_cache_dir`), read-only: every model repo whose
snapshot (the one `refs/main` names, else the newest) has a tokenizer.json -> `hf:ORG/NAME`.
Nothing here downloads: the scanner reads the disk, and HF_HUB_OFFLINE is set before
huggingface_hub is imported, in case anything in it would look at the network.

Leaves out: caching (the app rescans per session; the command line per run), and the chat
templates the config files carry (chat_templates.py reads those).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..messages import N_, Refusal
from .isolated import IsolatedTokenizer, Kind
from .local_formats import SIDECAR_SUFFIX

MODELS_DIR_ENV = "TOKEX_MODELS_DIR"
LOCAL_PREFIX = "local:"
HF_PREFIX = "hf:"
# The bounds of an uploaded tokenizer.json (ui/common/limits.py; a test checks they agree).
MAX_FILE_BYTES = 20_000_000
LOAD_SECONDS = 10
CONFIG_FILES = ("tokenizer_config.json", "special_tokens_map.json")
_SUFFIX_KIND: dict[str, Kind] = {".json": "tokenizer.json", ".model": "sentencepiece",
                                 ".tiktoken": "tiktoken"}


@dataclass(frozen=True)
class LocalModel:
    """One tokenizer found on disk: `files` are what is read, the main one first; `entry` is
    what the listing names (the folder or file in the models folder, the cache's snapshot)."""

    name: str  # local:NAME or hf:ORG/NAME
    kind: Kind
    files: tuple[Path, ...]
    size: int  # bytes of all its files
    sha256: str  # of the main file
    origin: str  # "folder" or "hf-cache"
    entry: Path

    @property
    def path(self) -> Path:
        return self.files[0]


@dataclass(frozen=True)
class NotOffered:
    """A file or folder that is not offered, and why (a Refusal the interface can say)."""

    path: Path
    reason: Refusal


@dataclass(frozen=True)
class Scan:
    models: tuple[LocalModel, ...]
    not_offered: tuple[NotOffered, ...]
    folder: Path
    hf_cache: Path


def models_dir() -> Path:
    """TOKEX_MODELS_DIR, else `models/` beside app.py (the directory holding tokenizer_core)."""
    configured = os.environ.get(MODELS_DIR_ENV)
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "models"


def hf_cache_dir() -> Path:
    """HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _too_big(path: Path, size: int, max_bytes: int) -> NotOffered:
    return NotOffered(path, Refusal(N_("{file} is {size} bytes; the bound for a tokenizer file is "
                                       "{bound} bytes"), file=path.name, size=size,
                                    bound=max_bytes))


Hasher = Callable[[Path], str]  # a file's sha256 (the app passes one that remembers)


def _model(name: str, kind: Kind, files: list[Path], origin: str, entry: Path,
           max_bytes: int, hasher: Hasher) -> LocalModel | NotOffered:
    sizes = [f.stat().st_size for f in files]
    if sizes[0] > max_bytes:
        return _too_big(entry, sizes[0], max_bytes)
    return LocalModel(name, kind, tuple(files), sum(sizes), hasher(files[0]), origin, entry)


def _folder_entry(entry: Path, max_bytes: int, hasher: Hasher) -> LocalModel | NotOffered | None:
    """What one entry of the models folder is; None for what is skipped silently."""
    if entry.name.startswith(".") or entry.name.endswith(".tiktoken" + SIDECAR_SUFFIX):
        return None  # hidden, or a sidecar (read with its rank file)
    if entry.is_dir():
        main = entry / "tokenizer.json"
        if not main.is_file():
            return NotOffered(entry, Refusal(N_("the folder {file} holds no tokenizer.json"),
                                             file=entry.name))
        configs = [entry / c for c in CONFIG_FILES if (entry / c).is_file()]
        return _model(LOCAL_PREFIX + entry.name, "tokenizer.json", [main, *configs], "folder",
                      entry, max_bytes, hasher)
    kind = _SUFFIX_KIND.get(entry.suffix)
    if kind is None or not entry.is_file():
        return NotOffered(entry, Refusal(N_(
            "{file} is not a tokenizer file this app reads: a folder with tokenizer.json, a "
            ".json, a SentencePiece .model, or a .tiktoken with its .tiktoken.json sidecar"),
            file=entry.name))
    files = [entry]
    if kind == "tiktoken":
        sidecar = entry.with_name(entry.name + SIDECAR_SUFFIX)
        if not sidecar.is_file():
            return NotOffered(entry, Refusal(N_(
                "{file} has no sidecar {sidecar} naming its regex and special tokens (see "
                "docs/models.md)"), file=entry.name, sidecar=sidecar.name))
        files.append(sidecar)
    return _model(LOCAL_PREFIX + entry.stem, kind, files, "folder", entry, max_bytes, hasher)


def scan_folder(folder: Path, max_bytes: int = MAX_FILE_BYTES, hasher: Hasher = sha256_of,
                ) -> tuple[list[LocalModel], list[NotOffered]]:
    """The models folder's tokenizers, by name, and what it holds that is not offered."""
    models: dict[str, LocalModel] = {}
    skipped: list[NotOffered] = []
    if not folder.is_dir():
        return [], []
    for entry in sorted(folder.iterdir()):
        try:
            found = _folder_entry(entry, max_bytes, hasher)
        except OSError as error:  # unreadable, or gone while we looked
            found = NotOffered(entry, Refusal(N_("{file} could not be read: {error}"),
                                              file=entry.name, error=error.strerror or str(error)))
        if isinstance(found, LocalModel) and found.name in models:
            found = NotOffered(entry, Refusal(N_(
                "{file} would be named {name}, which {other} already is; rename one of them"),
                file=entry.name, name=found.name, other=models[found.name].entry.name))
        if isinstance(found, LocalModel):
            models[found.name] = found
        elif found is not None:
            skipped.append(found)
    return list(models.values()), skipped


def _chosen_revision(repo: Any) -> Any | None:
    """The snapshot `refs/main` names, else the newest one."""
    revisions = sorted(repo.revisions, key=lambda r: r.last_modified, reverse=True)
    for revision in revisions:
        if "main" in revision.refs:
            return revision
    return revisions[0] if revisions else None


def scan_hf_cache(cache: Path, max_bytes: int = MAX_FILE_BYTES, hasher: Hasher = sha256_of,
                  ) -> tuple[list[LocalModel], list[NotOffered]]:
    """Tokenizers in the local Hugging Face cache, found by huggingface_hub's scanner."""
    if not cache.is_dir():
        return [], []
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never the network, whatever is called
    from huggingface_hub import scan_cache_dir
    from huggingface_hub.errors import CacheNotFound, CorruptedCacheException

    try:
        info = scan_cache_dir(cache)
    except (CacheNotFound, CorruptedCacheException, OSError) as error:
        return [], [NotOffered(cache, Refusal(N_("the Hugging Face cache {file} could not be "
                                                 "read: {error}"), file=str(cache),
                                              error=str(error)))]
    models: list[LocalModel] = []
    skipped = [NotOffered(Path(getattr(w, "repo_path", cache)), Refusal(
        N_("the Hugging Face cache scanner skipped an entry: {error}"), error=str(w)))
        for w in info.warnings]
    for repo in sorted(info.repos, key=lambda r: r.repo_id):
        revision = _chosen_revision(repo) if repo.repo_type == "model" else None
        if revision is None:
            continue
        files = {f.file_name: f.file_path for f in revision.files
                 if f.file_path.parent == revision.snapshot_path}
        if "tokenizer.json" not in files:
            continue  # a model without a fast tokenizer: nothing to offer, nothing to report
        paths = [files["tokenizer.json"], *(files[c] for c in CONFIG_FILES if c in files)]
        models.append(_model(HF_PREFIX + repo.repo_id, "tokenizer.json", paths, "hf-cache",
                             revision.snapshot_path, max_bytes, hasher))
    return ([m for m in models if isinstance(m, LocalModel)],
            skipped + [m for m in models if isinstance(m, NotOffered)])


def scan(folder: Path | None = None, hf_cache: Path | None = None,
         max_bytes: int = MAX_FILE_BYTES, hasher: Hasher = sha256_of) -> Scan:
    """Both places, now: the models folder first, then the Hugging Face cache."""
    folder = models_dir() if folder is None else folder
    hf_cache = hf_cache_dir() if hf_cache is None else hf_cache
    local, local_skipped = scan_folder(folder, max_bytes, hasher)
    cached, cache_skipped = scan_hf_cache(hf_cache, max_bytes, hasher)
    return Scan(tuple(local + cached), tuple(local_skipped + cache_skipped), folder, hf_cache)


def payload(model: LocalModel) -> Any:
    """What the worker loads: a file's bytes, or (ranks, sidecar) for a tiktoken file."""
    if model.kind == "tiktoken":
        return model.files[0].read_bytes(), model.files[1].read_bytes()
    return model.files[0].read_bytes()


def open_isolated(model: LocalModel, timeout: float = LOAD_SECONDS) -> IsolatedTokenizer:
    """The tokenizer, loaded in a worker process of its own; ValueError (a Refusal) saying why
    if it does not load, cannot encode isolated.PROBE_TEXT, or takes over `timeout` seconds."""
    return IsolatedTokenizer(payload(model), model.name, timeout=timeout, kind=model.kind)


def find(name: str, found: Scan | None = None) -> LocalModel:
    """One tokenizer by its name (local:NAME or hf:ORG/NAME); ValueError listing what there is."""
    found = scan() if found is None else found
    for model in found.models:
        if model.name == name:
            return model
    there = ", ".join(m.name for m in found.models) or "none"
    raise ValueError(
        f"no tokenizer named {name!r} in the models folder {str(found.folder)!r} (set "
        f"{MODELS_DIR_ENV} to use another) or the Hugging Face cache {str(found.hf_cache)!r}; "
        f"found: {there}"
    )
