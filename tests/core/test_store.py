"""The on-disk store of trained tokenizers: built once, loaded after, never trusted when damaged,
safe when several processes write at once, keyed by the code and data that make an entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokenizer_core import store
from tokenizer_core.registry import trained_tokenizer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "store"))
    return tmp_path / "store"


class Builds:
    """A build that counts its calls, and the dump/load pair for its payload."""

    def __init__(self, value: dict) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> dict:
        self.calls += 1
        return dict(self.value)


def cached(recipe: str, build: Builds) -> dict:
    return store.cached(recipe, build, json.dumps, json.loads)


def test_built_once_then_loaded(folder):
    build = Builds({"merges": [["a", "b"]]})
    assert cached("recipe one", build) == {"merges": [["a", "b"]]}
    assert cached("recipe one", build) == {"merges": [["a", "b"]]}
    assert build.calls == 1
    assert len(list(folder.glob("*.json"))) == 1
    other = Builds({"merges": []})
    assert cached("recipe two", other) == {"merges": []} and other.calls == 1  # its own entry


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # a writer that crashed half way
        lambda text: text.replace('[\\"a\\", \\"b\\"]', '[\\"a\\", \\"c\\"]'),  # edited payload
        lambda text: "not json at all",
        lambda text: json.dumps({"payload": "{}"}),  # no checksum
    ],
)
def test_a_damaged_entry_is_rebuilt_not_trusted(folder, damage):
    build = Builds({"merges": [["a", "b"]]})
    cached("recipe", build)
    (entry,) = folder.glob("*.json")
    entry.write_text(damage(entry.read_text(encoding="utf-8")), encoding="utf-8")
    assert cached("recipe", build) == {"merges": [["a", "b"]]}
    assert build.calls == 2
    assert cached("recipe", build) == {"merges": [["a", "b"]]} and build.calls == 2  # repaired


def test_a_payload_its_loader_refuses_is_rebuilt(folder):
    calls = []

    def load(payload: str) -> dict:
        data = json.loads(payload)
        if not calls:
            calls.append("refused")
            raise ValueError("model file's 'merges' should be a list")
        return data

    build = Builds({"merges": []})
    store.cached("recipe", build, json.dumps, json.loads)
    assert store.cached("recipe", build, json.dumps, load) == {"merges": []}
    assert build.calls == 2


def test_off_means_built_every_time(monkeypatch, tmp_path):
    monkeypatch.setenv(store.CACHE_ENV, "off")
    monkeypatch.chdir(tmp_path)
    build = Builds({"k": 1})
    cached("recipe", build)
    cached("recipe", build)
    assert build.calls == 2 and store.store_dir() is None


def test_a_store_that_cannot_be_written_still_serves(monkeypatch, tmp_path):
    # a folder that cannot be made (its parent is a file): works for root too, unlike chmod
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "a-file" / "store"))
    build = Builds({"k": 1})
    assert cached("recipe", build) == {"k": 1}
    assert cached("recipe", build) == {"k": 1} and build.calls == 2


def test_the_key_follows_the_code_and_data(monkeypatch, tmp_path):
    before = store.entry_key("recipe")
    assert store.entry_key("recipe") == before and store.entry_key("other") != before
    data = tmp_path / "data"
    data.mkdir()
    (data / "corpus.txt").write_text("one", encoding="utf-8")
    monkeypatch.setattr(store, "DATA", data)
    store.fingerprint.cache_clear()
    try:
        first = store.entry_key("recipe")
        (data / "corpus.txt").write_text("two", encoding="utf-8")
        store.fingerprint.cache_clear()
        assert store.entry_key("recipe") not in (first, before)
    finally:
        monkeypatch.undo()
        store.fingerprint.cache_clear()


def test_prune_removes_entries_of_other_fingerprints(folder):
    cached("kept", Builds({"k": 1}))
    stale = folder / "0123.json"
    stale.write_text(json.dumps({"fingerprint": "older code", "payload": "{}"}), encoding="utf-8")
    (folder / "junk.json").write_text("{", encoding="utf-8")
    assert store.prune() == 2
    assert [p.name for p in folder.glob("*.json")] == [f"{store.entry_key('kept')}.json"]


WRITER = """
import json, sys, time
from tokenizer_core import store
def build():
    time.sleep(0.3)  # all writers are building at once
    return {"merges": [[str(i), str(i + 1)] for i in range(2000)]}
result = store.cached("shared recipe", build, json.dumps, json.loads)
print(len(result["merges"]))
"""


def test_processes_writing_at_once_all_get_a_whole_entry(folder):
    env = {**os.environ, store.CACHE_ENV: str(folder)}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outputs = [w.communicate(timeout=120) for w in writers]
    assert [o.strip() for o, _ in outputs] == ["2000"] * 4, [e for _, e in outputs]
    entries = list(folder.glob("*.json"))
    assert len(entries) == 1 and not list(folder.glob(".writing-*"))  # no temporary file left
    record = json.loads(entries[0].read_text(encoding="utf-8"))
    assert len(json.loads(record["payload"])["merges"]) == 2000


def test_a_trained_tokenizer_from_the_store_equals_one_trained_now(folder):
    text = "Tokens, 你好世界, emoji 👩‍👩‍👧 and code: def f(x): return x ** 2\n" * 3
    fresh = trained_tokenizer("lg:bpe-en-zh")
    assert len(list(folder.glob("*.json"))) == 1
    script = (
        "from tokenizer_core.registry import trained_tokenizer; import json, sys\n"
        "t = trained_tokenizer('lg:bpe-en-zh')\n"
        f"print(json.dumps(t.encode_ordinary_ids({text!r})))\n"
    )
    env = {**os.environ, store.CACHE_ENV: str(folder)}
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True)
    assert json.loads(loaded.stdout) == fresh.encode_ordinary_ids(text)
    assert len(list(folder.glob("*.json"))) == 1  # loaded, not trained into a second entry
