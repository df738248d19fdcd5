"""Uploaded tokenizer.json files, driven by AppTest (issue 9, items 5 and 6d).

- A file that loads but cannot encode is refused at the door with the same message as one that
  does not load, never a traceback.
- An upload lives in its own session: encoding it leaves nothing in Streamlit's process-wide
  caches, so nothing of it outlives the session.
"""

from __future__ import annotations

import os
from pathlib import Path

from streamlit.runtime.caching import cache_data_api, cache_resource_api

from tests.hostile_tokenizers import plain_bpe, split_on, wordpiece_without_unk
from ui.common.limits import MAX_UPLOADED_TOKENIZERS

from .conftest import open_page, shown, uploader

PAGE = "pages/playground.py"
NOT_A_TOKENIZER = "is not a tokenizer.json that HF tokenizers"


def upload(app, name: str, json_text: str):
    data = json_text.encode("utf-8")
    return uploader(app, "pg_hf_upload").set_value((name, data, "application/json")).run()


def errors(app) -> list[str]:
    return [shown(e.value) for e in app.error]


def test_a_file_that_loads_but_cannot_encode_is_refused_like_one_that_does_not_load(app):
    open_page(app, PAGE)
    upload(app, "broken.json", '{"hello": 1}')
    (does_not_load,) = errors(app)
    upload(app, "no-unk.json", wordpiece_without_unk())
    assert not app.exception, [e.value for e in app.exception]
    (cannot_encode,) = errors(app)
    assert NOT_A_TOKENIZER in does_not_load and NOT_A_TOKENIZER in cannot_encode
    assert "Missing [UNK] token" in cannot_encode  # HF's own reason, quoted
    assert not [n for n in app.multiselect(key="pg_tokenizers").value if n.startswith("hf:")]


def global_cache_entries() -> set[tuple[str, str]]:
    """(function's name, key) of every entry in Streamlit's process-wide caches (session id None).

    subtle: reads Streamlit's private cache registries; the public API can only clear them.
    """
    entries: set[tuple[str, str]] = set()
    for registry in (cache_resource_api._resource_caches, cache_data_api._data_caches):
        for cache in registry._function_caches.get(None, {}).values():
            entries |= {(cache.display_name, key) for key in list(cache._mem_cache)}
    return entries


def test_an_uploaded_tokenizer_leaves_nothing_in_process_wide_caches(app):
    open_page(app, PAGE)
    app.multiselect(key="pg_tokenizers").set_value([]).run()
    before = global_cache_entries()
    # Uploading selects it, alone: its panel, numbers and token table are all drawn in this run.
    # (One run only: AppTest re-sends a multiselect's value through its labels, read outside the
    # session, so a later run would drop the upload from the selection.)
    upload(app, "mine.json", plain_bpe())
    assert any("Added mine.json" in shown(s.value) for s in app.success)
    (chosen,) = app.multiselect(key="pg_tokenizers").value
    assert chosen.startswith("hf:") and app.selectbox(key="pg_table").value == chosen
    assert not app.exception and len(app.metric) == 1 and not app.error
    added = global_cache_entries() - before
    assert not added, f"the upload is kept process-wide (beyond its session): {sorted(added)}"


def test_a_session_keeps_its_last_few_uploads_and_ends_the_older_workers(app):
    open_page(app, PAGE)
    patterns = [r"\s+", r"\d+", r"[,.]", r"-", r":"][: MAX_UPLOADED_TOKENIZERS + 1]
    for n, pattern in enumerate(patterns):
        upload(app, f"file{n}.json", split_on(pattern))
        assert not app.exception and not app.error
    (message,) = [shown(s.value) for s in app.success]
    assert f"keeps its last {MAX_UPLOADED_TOKENIZERS} tokenizer.json files" in message
    assert "file0.json was removed" in message
    kept = [filename for filename, _ in app.session_state["uploaded_tokenizers"].values()]
    assert kept == [f"file{n}.json" for n in range(1, len(patterns))]
    assert len(my_workers()) == MAX_UPLOADED_TOKENIZERS  # the dropped file's worker has ended


def my_workers() -> list[int]:
    """Pids of this process's live isolated-tokenizer workers (AppTest runs the app in here)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == os.getpid() and state != "Z" and b"reference.isolated" in cmdline:
            found.append(int(entry.name))
    return found
