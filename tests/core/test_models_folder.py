"""The models folder and the local Hugging Face cache (#21), with real files and real libraries.

Every tokenizer found is loaded in its isolated worker (the upload's), and its ids must equal
what its own library gives over the same file: HF tokenizers for a tokenizer.json, the
sentencepiece library for a .model, tiktoken (its own file loader) for a .tiktoken with its
sidecar. Files that cannot be offered are listed with a one-sentence reason, never a traceback;
a file added later is found by the next scan; the command line counts with `local:` and `hf:`.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import sentencepiece as spm
import tiktoken
import tiktoken.load
import tokenizers

from tests.hostile_tokenizers import SLOW_PATTERN, SLOW_TEXT, plain_bpe, split_on
from tests.local_models_files import QWEN_SPECIALS, TEXTS, hf_cache, models_folder
from tokenizer_core.reference import local_models
from tokenizer_core.reference.local_models import find, open_isolated, scan, scan_hf_cache
from tokenizer_core.reference.open_models import QWEN_PAT

from .test_cli import ROOT

NOWHERE = Path("/nonexistent/huggingface/hub")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return models_folder(tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="module")
def opened(folder):
    found = scan(folder, NOWHERE)
    tokenizers_by_name = {m.name: open_isolated(m) for m in found.models}
    yield found, tokenizers_by_name
    for tokenizer in tokenizers_by_name.values():
        tokenizer.close()


def own_library_ids(path: Path, kind: str, tmp_path: Path):
    """text -> ids by the file's own library, read from the file itself."""
    if kind == "tokenizer.json":
        hf = tokenizers.Tokenizer.from_file(str(path))
        return lambda text: hf.encode(text, add_special_tokens=False).ids
    if kind == "sentencepiece":
        processor = spm.SentencePieceProcessor(model_file=str(path))
        return lambda text: processor.encode(text)
    sidecar = json.loads(path.with_name(path.name + ".json").read_text())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(tmp_path)  # tiktoken's loader caches what it read
    encoding = tiktoken.Encoding(
        path.stem, pat_str=sidecar["pat_str"],
        mergeable_ranks=tiktoken.load.load_tiktoken_bpe(str(path)),
        special_tokens=sidecar["special_tokens"])
    return encoding.encode_ordinary


def test_every_kind_is_found_by_name_with_its_size_and_sha256(opened, folder):
    found, _ = opened
    by_name = {m.name: m for m in found.models}
    assert set(by_name) == {"local:deepseek", "local:mistral7b", "local:qwen", "local:lower",
                            "local:trained"}
    assert [m.kind for m in found.models] == [
        "tokenizer.json", "tokenizer.json", "sentencepiece", "tiktoken", "sentencepiece"]
    deepseek = by_name["local:deepseek"]
    assert [f.name for f in deepseek.files] == ["tokenizer.json", "tokenizer_config.json"]
    assert deepseek.sha256 == local_models.sha256_of(folder / "deepseek" / "tokenizer.json")
    assert deepseek.sha256 == "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"
    qwen = by_name["local:qwen"]
    assert qwen.size == sum(f.stat().st_size for f in qwen.files)
    assert not found.not_offered


def test_ids_equal_each_files_own_library(opened, tmp_path):
    found, opened_tokenizers = opened
    for model in found.models:
        ids_of = own_library_ids(model.path, model.kind, tmp_path)
        for text in TEXTS:
            tokens = opened_tokenizers[model.name].encode(text, disallowed_special=())
            assert [t.id for t in tokens] == ids_of(text), (model.name, text)


def test_offsets_stay_inside_the_text_as_typed(opened):
    _, opened_tokenizers = opened
    text = TEXTS[1]
    for name, tokenizer in opened_tokenizers.items():
        tokens = tokenizer.encode(text, disallowed_special=())
        assert all(0 <= t.start <= t.end <= len(text) for t in tokens), name
        assert tokens[-1].end == len(text), name


def test_the_sidecars_special_tokens_are_special(opened):
    _, opened_tokenizers = opened
    qwen = opened_tokenizers["local:qwen"]
    assert qwen.special_tokens == QWEN_SPECIALS
    (token,) = qwen.encode("<|im_start|>", allowed_special="all")
    assert token.id == 151_644 and token.special


def test_files_that_cannot_be_offered_are_listed_with_a_reason(tmp_path):
    (tmp_path / "good.json").write_text(plain_bpe())
    (tmp_path / "notes.txt").write_text("my lesson notes")
    (tmp_path / "empty").mkdir()
    (tmp_path / "lonely.tiktoken").write_bytes(b"aGk= 0\n")
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "tokenizer.json").write_text(plain_bpe())
    (tmp_path / ".hidden.json").write_text("{}")
    found = scan(tmp_path, NOWHERE)
    assert [m.name for m in found.models] == ["local:good"]  # the folder; the file is a twin
    reasons = {n.path.name: str(n.reason) for n in found.not_offered}
    assert reasons == {
        "empty": "the folder empty holds no tokenizer.json",
        "good.json": "good.json would be named local:good, which good already is; rename one of "
                     "them",
        "lonely.tiktoken": "lonely.tiktoken has no sidecar lonely.tiktoken.json naming its regex "
                           "and special tokens (see docs/models.md)",
        "notes.txt": "notes.txt is not a tokenizer file this app reads: a folder with "
                     "tokenizer.json, a .json, a SentencePiece .model, or a .tiktoken with its "
                     ".tiktoken.json sidecar",
    }


def test_a_file_over_the_uploads_bound_is_not_offered(tmp_path):
    (tmp_path / "big.json").write_text(plain_bpe())
    found = scan(tmp_path, NOWHERE, max_bytes=100)
    (reason,) = found.not_offered
    assert not found.models and "the bound for a tokenizer file is 100 bytes" in str(reason.reason)


@pytest.mark.parametrize(("files", "says"), [
    ({"broken.json": b'{"hello": 1}'}, "this is not a tokenizer.json that HF tokenizers"),
    ({"broken.model": b"not a protobuf at all"}, "this is not a SentencePiece model that "
                                                  "sentencepiece"),
    ({"broken.tiktoken": b"aGk= 0\n", "broken.tiktoken.json": b'{"special_tokens": {}}'},
     'the sidecar needs "pat_str", the split regex, as a string'),
    ({"broken.tiktoken": b"not base64 ranks\n",
      "broken.tiktoken.json": json.dumps({"pat_str": QWEN_PAT}).encode()},
     "this is not a tiktoken rank file with a usable sidecar"),
    ({"broken.tiktoken": b"aGk= 0\n", "broken.tiktoken.json": b'{"pat_str": "(unclosed"}'},
     "tiktoken refused it"),
])
def test_a_broken_file_is_refused_in_one_sentence_by_its_worker(tmp_path, files, says):
    for file_name, data in files.items():
        (tmp_path / file_name).write_bytes(data)
    (model,) = scan(tmp_path, NOWHERE).models
    with pytest.raises(ValueError) as refused:
        open_isolated(model)
    message = str(refused.value)
    assert message.startswith("local:broken: ") and says in message, message
    assert "Traceback" not in message and "\n" not in message


def test_a_hostile_file_is_stopped_and_the_others_keep_working(tmp_path, opened):
    (tmp_path / "slow.json").write_text(split_on(SLOW_PATTERN))
    (model,) = scan(tmp_path, NOWHERE).models
    slow = open_isolated(model, timeout=2)  # it loads: the probe text has no long run of `a`
    started = time.monotonic()
    with pytest.raises(ValueError, match="took longer than 2 s to encode this text"):
        slow.encode(SLOW_TEXT)
    assert time.monotonic() - started < 15
    _, opened_tokenizers = opened
    assert opened_tokenizers["local:deepseek"].encode("still here")  # its own worker, untouched


def test_a_file_added_later_is_found_by_the_next_scan(tmp_path):
    assert not scan(tmp_path, NOWHERE).models
    (tmp_path / "new.json").write_text(plain_bpe())
    assert [m.name for m in scan(tmp_path, NOWHERE).models] == ["local:new"]


def test_the_folder_and_the_cache_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKEX_MODELS_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    assert local_models.models_dir() == tmp_path / "mine"
    assert local_models.hf_cache_dir() == tmp_path / "home" / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    assert local_models.hf_cache_dir() == tmp_path / "cache"
    monkeypatch.delenv("TOKEX_MODELS_DIR")
    assert local_models.models_dir() == ROOT / "models"


def test_a_hugging_face_cache_is_found_by_huggingface_hubs_scanner(tmp_path, folder):
    data = (folder / "deepseek" / "tokenizer.json").read_bytes()
    cache = hf_cache(tmp_path / "hub", "deepseek-ai/DeepSeek-V4-Flash", data)
    hf_cache(cache, "someone/no-fast-tokenizer", b"{}", "b" * 40)
    # a repo with no tokenizer.json (only a config) is not offered, and not an error
    empty = next((cache / "models--someone--no-fast-tokenizer" / "snapshots").iterdir())
    (empty / "tokenizer.json").rename(empty / "config.json")
    models, not_offered = scan_hf_cache(cache)
    (model,) = models
    assert model.name == "hf:deepseek-ai/DeepSeek-V4-Flash" and model.origin == "hf-cache"
    assert model.sha256 == "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"
    assert not not_offered
    tokenizer = open_isolated(find(model.name, scan(tmp_path / "no-folder", cache)))
    try:
        hf = tokenizers.Tokenizer.from_file(str(model.path))
        for text in TEXTS:
            assert [t.id for t in tokenizer.encode(text)] == hf.encode(
                text, add_special_tokens=False).ids
    finally:
        tokenizer.close()


def test_an_unknown_name_lists_what_there_is(folder):
    with pytest.raises(ValueError, match="no tokenizer named 'local:nope' in the models folder"):
        find("local:nope", scan(folder, NOWHERE))


def run_cli(*args: str, stdin: bytes, env: dict[str, str]):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "tokenizer_core", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=120, env={**os.environ, **env})


def test_count_on_the_command_line_takes_local_and_hf_names(tmp_path, folder):
    data = (folder / "deepseek" / "tokenizer.json").read_bytes()
    cache = hf_cache(tmp_path / "hub", "deepseek-ai/DeepSeek-V4-Flash", data)
    env = {"TOKEX_MODELS_DIR": str(folder), "HF_HUB_CACHE": str(cache), "HF_HUB_OFFLINE": "1"}
    text = "\n".join(TEXTS)
    result = run_cli("count", "--tokenizer", "local:qwen", "--tokenizer", "local:mistral7b",
                     "--tokenizer", "hf:deepseek-ai/DeepSeek-V4-Flash", stdin=text.encode(),
                     env=env)
    assert result.returncode == 0, result.stderr.decode()
    counts = {row["name"]: row["tokens"] for row in json.loads(result.stdout)["tokenizers"]}
    qwen = own_library_ids(folder / "qwen.tiktoken", "tiktoken", tmp_path)
    mistral = own_library_ids(folder / "mistral7b.model", "sentencepiece", tmp_path)
    deepseek = own_library_ids(folder / "deepseek" / "tokenizer.json", "tokenizer.json", tmp_path)
    assert counts == {"local:qwen": len(qwen(text)), "local:mistral7b": len(mistral(text)),
                      "hf:deepseek-ai/DeepSeek-V4-Flash": len(deepseek(text))}
    missing = run_cli("count", "--tokenizer", "local:nope", stdin=b"hi", env=env)
    assert missing.returncode == 1
    (line,) = missing.stderr.decode().splitlines()
    assert line.startswith("error: no tokenizer named 'local:nope'")


def test_encode_on_the_command_line_gives_the_librarys_ids(folder, tmp_path):
    result = run_cli("encode", "--tokenizer", "local:lower", stdin=TEXTS[1].encode(),
                     env={"TOKEX_MODELS_DIR": str(folder), "HF_HUB_CACHE": str(NOWHERE)})
    assert result.returncode == 0, result.stderr.decode()
    ids = [t["id"] for t in json.loads(result.stdout)["tokens"]]
    assert ids == own_library_ids(folder / "lower.json", "tokenizer.json", tmp_path)(TEXTS[1])
