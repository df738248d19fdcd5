"""The command line as outside checks use it: JSON out, one clear line and non-zero exit on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .classroom import LOW_NEWEST, TEN_SENTENCES

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tokenizer_core", *args], input=stdin, capture_output=True,
        cwd=ROOT, timeout=120,
    )


def ok_json(*args: str, stdin: bytes | None = None) -> dict:
    result = run(*args, stdin=stdin)
    assert result.returncode == 0, result.stderr.decode()
    return json.loads(result.stdout)


def test_train_word_level_from_a_count_table(tmp_path):
    corpus = tmp_path / "counts.json"
    corpus.write_text(json.dumps(LOW_NEWEST))
    model = ok_json("train", "--algorithm", "bpe", "--level", "word", "--merges", "8", "--counts", str(corpus))
    assert model["algorithm"] == "bpe" and model["level"] == "word"
    assert model["merges"][:3] == [["e", "s"], ["es", "t"], ["est", "</w>"]]
    assert model["counts"][0] == 9
    assert model["vocab_size"] == 11 + 8


def test_train_sentence_level_from_stdin_and_write_output(tmp_path):
    output = tmp_path / "model.json"
    model = ok_json("train", "--level", "sentence", "--merges", "5", "--output", str(output), "-",
                    stdin=TEN_SENTENCES.encode())
    assert model["merges"] == [["e", " "], ["t", "h"], ["th", "e "], ["a", "t"], ["o", "g"]]
    assert json.loads(output.read_text()) == model


def test_train_byte_level_writes_hex_and_encode_reads_it_back(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest 你好你好", encoding="utf-8")
    output = tmp_path / "model.json"
    model = ok_json("train", "--level", "byte", "--merges", "4", "--output", str(output), str(corpus))
    assert model["merges"][0] == ["6c", "6f"]  # 'l' + 'o'
    text = tmp_path / "text.txt"
    text.write_text("lowest", encoding="utf-8")
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(output), str(text))
    assert encoded["tokenizer"] == "model"
    assert "".join(t["hex"] for t in encoded["tokens"]) == b"lowest".hex()
    assert encoded["tokens"][0]["text"] == "low"


def test_lexical_tie_break_changes_the_second_merge():
    model = ok_json("train", "--level", "sentence", "--merges", "2", "--tie-break", "lexical", "-",
                    stdin=TEN_SENTENCES.encode())
    assert model["merges"][1] == ["h", "e "]


@pytest.mark.parametrize("name", ["gpt2", "core:gpt2"])
def test_encode_gpt2_golden(name):
    encoded = ok_json("encode", "--tokenizer", name, stdin="the cat sat on the mat".encode())
    assert [t["id"] for t in encoded["tokens"]] == [1169, 3797, 3332, 319, 262, 2603]
    assert encoded["tokens"][1] == {"id": 3797, "hex": "20636174", "start": 3, "end": 7, "text": " cat"}


def test_encode_marks_split_characters_with_null_text():
    encoded = ok_json("encode", "--tokenizer", "core:gpt2", stdin="你好，世界🙂".encode())
    assert len(encoded["tokens"]) == 13
    assert encoded["tokens"][0] == {"id": 19526, "hex": "e4bd", "start": 0, "end": 1, "text": None}


def test_word_level_text_is_the_models_own_string(tmp_path):
    corpus = tmp_path / "counts.json"
    corpus.write_text(json.dumps(LOW_NEWEST))
    model = tmp_path / "model.json"
    ok_json("train", "--merges", "8", "--counts", "--output", str(model), str(corpus))
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(model), stdin=b"lowest")
    assert [t["text"] for t in encoded["tokens"]] == ["low", "est</w>"]
    assert encoded["tokens"][1]["hex"] == b"est".hex()


def test_special_tokens_refused_by_default_allowed_on_request():
    result = run("encode", "--tokenizer", "gpt2", stdin=b"hello<|endoftext|>world")
    # the remedy is the command line's own flag, not the Python API's arguments
    assert result.returncode == 1 and result.stderr.decode().splitlines() == [
        "error: the text holds the special token '<|endoftext|>' at character 5; pass "
        "--special allow to encode it as a special token, or --special plain to read it as "
        "ordinary text"
    ]
    assert b"allowed_special" not in result.stderr and b"disallowed_special" not in result.stderr
    encoded = ok_json("encode", "--tokenizer", "gpt2", "--special", "allow", stdin=b"hello<|endoftext|>world")
    assert [t["id"] for t in encoded["tokens"]] == [31373, 50256, 6894]


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["train", "--merges", "3", "/no/such/corpus.txt"], None, b"does not exist"),
        (["train", "--merges", "-1", "-"], b"a b", b"whole number >= 0"),
        (["encode", "--tokenizer", "gpt5"], b"x", b"unknown tokenizer 'gpt5'"),
        (["encode", "--tokenizer", "gpt2"], b"ok \xff\xfe", b"not valid UTF-8"),
        (["train", "--merges", "3", "-"], b"\xc3\x28", b"not valid UTF-8"),
        (["train", "--merges", "3", "--counts", "-"], b"[1, 2]", b"JSON object"),
        (["train", "--merges", "3", "--counts", "-"], b'{"low": 0}', b"positive whole number"),
        (["encode", "--tokenizer", "model"], b"x", b"needs --model"),
    ],
)
def test_bad_input_gives_one_clear_line_and_non_zero_exit(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode != 0
    assert message in result.stderr
    assert result.stderr.count(b"\n") == 1 and result.stdout == b""


@pytest.mark.parametrize("content", ["{not json", '{"algorithm": "bpe"}', '["a"]', '{"algorithm": "bpe", "level": "word", "merges": [["a", "b"]], "alphabet": ["a"]}'])
def test_malformed_model_file_is_refused(tmp_path, content):
    model = tmp_path / "model.json"
    model.write_text(content)
    result = run("encode", "--tokenizer", "model", "--model", str(model), stdin=b"ab")
    assert result.returncode != 0 and result.stderr.startswith(b"error: ")


def test_wordpiece_train_and_encode_round_trip(tmp_path):
    output = tmp_path / "wp.json"
    model = ok_json("train", "--algorithm", "wordpiece", "--merges", "3", "--counts", "--output",
                    str(output), "-", stdin=b'{"hug": 1, "pug": 1, "pun": 1, "bun": 1}')
    assert model["algorithm"] == "wordpiece" and len(model["scores"]) == 3
    assert model["merges"][0] == ["h", "##u"]  # the ratio ties five pairs; the first met wins
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(output), stdin=b"hug xyz")
    assert [t["text"] for t in encoded["tokens"]][-1] == "[UNK]"
    assert encoded["tokens"][-1]["hex"] == b"xyz".hex()


def test_wordpiece_refuses_other_levels():
    result = run("train", "--algorithm", "wordpiece", "--level", "byte", "--merges", "2", "-", stdin=b"ab")
    assert result.returncode != 0 and b"--level word" in result.stderr


def test_special_tokens_get_the_first_ids_and_never_merge(tmp_path):
    output = tmp_path / "model.json"
    corpus = b"low lower<|endoftext|>newest widest<|endoftext|>low"
    model = ok_json("train", "--level", "byte", "--merges", "30", "--special-token", "<|endoftext|>",
                    "--output", str(output), "-", stdin=corpus)
    assert model["special_tokens"] == ["<|endoftext|>"]
    joined = ["".join(bytes.fromhex(p).decode("latin-1") for p in m) for m in model["merges"]]
    assert not any("<|" in j or "|>" in j for j in joined)  # the special string never trained
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(output), "--special", "allow",
                      stdin=b"low<|endoftext|>low")
    assert [t["id"] for t in encoded["tokens"]][1] == 0
    assert encoded["tokens"][1]["text"] == "<|endoftext|>"


def test_encode_bounds_characters_not_only_bytes(monkeypatch, tmp_path, capsys):
    # ASCII is one byte a character, so a byte ceiling of 4x the bound let 4x the characters in
    from tokenizer_core import bounds, cli

    monkeypatch.setattr(bounds, "MAX_ENCODE_CHARS", 10)
    text = tmp_path / "text.txt"
    text.write_text("a" * 11, encoding="utf-8")
    assert cli.main(["encode", "--tokenizer", "gpt2", str(text)]) == 1
    assert capsys.readouterr().err == (
        "error: text has 11 characters; the bound is 10 (split it and encode the parts)\n"
    )
    text.write_text("a" * 10, encoding="utf-8")
    assert cli.main(["encode", "--tokenizer", "gpt2", str(text)]) == 0


@pytest.mark.slow
def test_warm_trains_the_apps_tokenizers_into_the_store_once(tmp_path):
    folder = tmp_path / "store"
    env = {**os.environ, "TOKEX_CACHE_DIR": str(folder)}
    first = json.loads(subprocess.run([sys.executable, "-m", "tokenizer_core", "warm"], cwd=ROOT,
                                      env=env, capture_output=True, check=True).stdout)
    assert first["store"] == str(folder)
    assert [t["name"] for t in first["tokenizers"]] == ["ours:bpe", "ours:wordpiece", "lg:bpe-en-zh"]
    entries = sorted(folder.glob("*.json"))
    assert len(entries) == 3
    stamps = [p.stat().st_mtime_ns for p in entries]
    again = subprocess.run([sys.executable, "-m", "tokenizer_core", "warm"], cwd=ROOT, env=env,
                           capture_output=True, check=True)
    assert json.loads(again.stdout)["pruned"] == 0
    assert [p.stat().st_mtime_ns for p in sorted(folder.glob("*.json"))] == stamps  # loaded only


def test_warm_with_the_store_off_says_so():
    env = {**os.environ, "TOKEX_CACHE_DIR": "off"}
    result = subprocess.run([sys.executable, "-m", "tokenizer_core", "warm"], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == "error: the store is off (TOKEX_CACHE_DIR=off); nothing to warm\n"
