"""The tokenizers of the models folder and the local Hugging Face cache, for every picker.

What it adds to tokenizer_core.reference.local_models: the folder is scanned once per session
(a new session, or the *Look again* button, sees a new file; nothing keeps the listing longer),
each file is loaded in its own worker process once per server and version (its sha256 is in the
key) and shared by every session, like the built-in tokenizers, and a file that does not load
is kept as its reason, so no session waits out its time limit again. `folder_ui` lists both
places: what is offered with its size and sha256, and what is not, with why.

Leaves out: the pickers themselves (catalog.choices lists these names after the built-in ones).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

from tokenizer_core.reference.isolated import IsolatedTokenizer
from tokenizer_core.reference.local_models import (
    LocalModel,
    Scan,
    open_isolated,
    scan,
    sha256_of,
)
from ui.common.i18n import _, explain, number
from ui.common.lazy_expander import lazy_expander
from ui.common.limits import MAX_FOUND_MODELS, MAX_TOKENIZER_JSON_BYTES, MAX_TOKENIZER_JSON_SECONDS
from ui.common.safe_text import literal
from ui.common.table_view import show_table

_SCAN_KEY = "found_models_scan"
_KINDS = {"tokenizer.json": "HF tokenizer.json", "sentencepiece": "SentencePiece .model",
          "tiktoken": "tiktoken ranks + sidecar"}


def _close(outcome: IsolatedTokenizer | ValueError) -> None:
    if isinstance(outcome, IsolatedTokenizer):
        outcome.close()


@st.cache_resource(max_entries=MAX_FOUND_MODELS, on_release=_close, show_spinner=False)
def _opened(name: str, sha256: str, size: int, _model: LocalModel) -> IsolatedTokenizer | ValueError:
    """The file loaded in its worker, or why it does not load (kept: see the module's note)."""
    try:
        return open_isolated(_model, timeout=MAX_TOKENIZER_JSON_SECONDS)
    except (ValueError, OSError) as error:
        return error if isinstance(error, ValueError) else ValueError(str(error))


def _outcome(model: LocalModel) -> IsolatedTokenizer | ValueError:
    return _opened(model.name, model.sha256, model.size, model)


@st.cache_data(max_entries=4 * MAX_FOUND_MODELS, show_spinner=False)
def _sha256(path: str, size: int, modified_ns: int) -> str:
    return sha256_of(Path(path))


def _remembered_sha256(path: Path) -> str:
    """A file's sha256, hashed again only when its size or modification time changed (a
    session's scan of a cache of large files would otherwise read them all)."""
    stat = path.stat()
    return _sha256(str(path), stat.st_size, stat.st_mtime_ns)


def _load_all(models: tuple[LocalModel, ...]) -> None:
    """Start every worker not started yet, two at a time: each start is mostly a new Python
    importing the core, and the first session waits for all of them."""
    context = get_script_run_ctx()

    def load(model: LocalModel) -> None:
        add_script_run_ctx(threading.current_thread(), context)  # the caches need the run's
        _outcome(model)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(load, models))


def current() -> Scan:
    """This session's listing of both places: scanned on its first use, or after rescan()."""
    found = st.session_state.get(_SCAN_KEY)
    if found is None:
        found = scan(max_bytes=MAX_TOKENIZER_JSON_BYTES, hasher=_remembered_sha256)
        st.session_state[_SCAN_KEY] = found
        if found.models:
            with st.spinner(_("Loading the tokenizers of the models folder…")):
                _load_all(found.models[:MAX_FOUND_MODELS])
    return found


def rescan() -> None:
    """The *Look again* button: the next run scans both places again."""
    st.session_state.pop(_SCAN_KEY, None)


def _offered() -> dict[str, LocalModel]:
    models = current().models[:MAX_FOUND_MODELS]
    return {m.name: m for m in models if isinstance(_outcome(m), IsolatedTokenizer)}


def names() -> list[str]:
    """The names the pickers offer: every file found that loads, in the listing's order."""
    return list(_offered())


def is_found(name: str) -> bool:
    return name in _offered()


def model(name: str) -> LocalModel:
    return _offered()[name]


def get(name: str) -> IsolatedTokenizer:
    outcome = _outcome(model(name))
    assert isinstance(outcome, IsolatedTokenizer), "names() offers only files that load"
    return outcome


def description(name: str) -> str:
    """Where the tokenizer comes from, its size and sha256 (the help beside its name)."""
    found = model(name)
    place = (_("From the models folder") if found.origin == "folder"
             else _("From the Hugging Face cache (read-only)"))
    return _("{place}: {path}, {kind}, {size} bytes, sha256 {sha256}. It runs in a process of "
             "its own, with a time limit of {seconds} s.", place=place,
             path=literal(str(found.entry)), kind=_KINDS[found.kind], size=number(found.size),
             sha256=found.sha256, seconds=number(MAX_TOKENIZER_JSON_SECONDS))


def _not_offered() -> list[tuple[str, str]]:
    """(file, reason) of everything found and not offered, in the session's language."""
    found = current()
    rows = [(str(n.path), explain(n.reason)) for n in found.not_offered]
    for m in found.models[:MAX_FOUND_MODELS]:
        outcome = _outcome(m)
        if isinstance(outcome, ValueError):
            rows.append((str(m.entry), explain(outcome)))
    rows += [(str(m.entry), _("More than {bound} tokenizers were found; this one is not offered.",
                             bound=number(MAX_FOUND_MODELS)))
             for m in found.models[MAX_FOUND_MODELS:]]
    return rows


def folder_ui(prefix: str) -> None:
    """An expander listing the models folder and the Hugging Face cache: what is offered, with
    size and sha256, what is not, with why, and a button to look again (drawn while open)."""
    box = lazy_expander(_("Tokenizers on this machine (models folder, Hugging Face cache)"),
                        key=f"{prefix}_found_box")
    if not box.open:
        return  # closed: nothing of it is sent (its table, its button)
    found = current()
    with box:
        st.caption(_("Put a tokenizer in {folder} (set TOKEX_MODELS_DIR to use another folder): "
                     "a folder with tokenizer.json, a SentencePiece .model, or a .tiktoken file "
                     "with its .tiktoken.json sidecar. Tokenizers already in the Hugging Face "
                     "cache {cache} are offered too; nothing is downloaded.",
                     folder=literal(str(found.folder)), cache=literal(str(found.hf_cache))))
        offered = _offered()
        if offered:
            show_table(pd.DataFrame({
                _("Name"): list(offered),
                _("Kind"): [_KINDS[m.kind] for m in offered.values()],
                # as text in the session's locale: the grid's own number format has no locale
                _("Bytes"): [number(m.size) for m in offered.values()],
                "sha256": [m.sha256 for m in offered.values()],
            }))
        else:
            st.info(_("No tokenizer found in either place."), icon="📂")
        for path, reason in _not_offered():
            st.warning(literal(_("Not offered: {file}. {reason}", file=path, reason=reason)),
                       icon="⚠️")
        st.button(_("Look again"), key=f"{prefix}_rescan", on_click=rescan,
                  help=_("Scan the models folder and the Hugging Face cache again, for files "
                         "added since this session began."))

