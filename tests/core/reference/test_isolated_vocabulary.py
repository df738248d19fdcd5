"""A models-folder file's vocabulary, read in its worker process (isolated.py's `vocab` request),
equals what the file's own library says: HF tokenizers' get_vocab / id_to_token, sentencepiece's
id_to_piece, tiktoken's decode_single_token_bytes. A vocabulary of too many ids is refused with
the count, and the worker goes on encoding. The command line's `vocab` reads the same table."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sentencepiece as spm
import tiktoken
import tokenizers
from tiktoken.load import load_tiktoken_bpe

from tests.local_models_files import (
    QWEN_SPECIALS,
    lower_tokenizer_json,
    train_sentencepiece_file,
)
from tokenizer_core.measure.vocabulary import vocabulary
from tokenizer_core.messages import Refusal
from tokenizer_core.reference import local_models
from tokenizer_core.reference.isolated import MAX_VOCAB_IDS, PROBE_TEXT
from tokenizer_core.reference.open_models import (
    DEEPSEEK_FILE,
    MISTRAL7B_FILE,
    QWEN_FILE,
    QWEN_PAT,
    packaged_path,
)

ROOT = Path(__file__).resolve().parents[3]
TIMEOUT = 60.0  # generous: the machine is shared; a well-behaved file never comes near it


def gpt2_bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte alphabet exactly as OpenAI's gpt-2/src/encoder.py writes it (the oracle for a
    byte-level tokenizer.json's token strings; not this project's code)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(
        range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(2**8):
        if b not in bs:
            bs.append(b)
            cs.append(2**8 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("models")
    (folder / "deepseek").mkdir()
    (folder / "deepseek" / "tokenizer.json").write_bytes(packaged_path(DEEPSEEK_FILE).read_bytes())
    (folder / "lower.json").write_text(lower_tokenizer_json())
    (folder / "mistral7b.model").write_bytes(packaged_path(MISTRAL7B_FILE).read_bytes())
    train_sentencepiece_file(folder / "trained.model")
    (folder / "qwen.tiktoken").write_bytes(packaged_path(QWEN_FILE).read_bytes())
    (folder / "qwen.tiktoken.json").write_text(
        json.dumps({"pat_str": QWEN_PAT, "special_tokens": QWEN_SPECIALS}))
    # 256 byte tokens and one special token at id 10**9: tiktoken's n_vocab is 10**9 + 1
    (folder / "huge.tiktoken").write_text("".join(
        f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)))
    (folder / "huge.tiktoken.json").write_text(
        json.dumps({"pat_str": r"\S+|\s+", "special_tokens": {"<|far|>": 10**9}}))
    return folder


@pytest.fixture(scope="module")
def found(folder):
    scanned = local_models.scan(folder, folder / "no-hf-cache")
    opened = {m.name: local_models.open_isolated(m, timeout=TIMEOUT) for m in scanned.models}
    yield opened
    for tokenizer in opened.values():
        tokenizer.close()


def table_of(found, name: str) -> dict[int, tuple[bytes, bool]]:
    return {r.id: (r.bytes, r.special) for r in vocabulary(found[name]).rows}


@pytest.mark.parametrize("name", ["local:deepseek", "local:lower"])
def test_a_tokenizer_json_has_hfs_tokens(found, folder, name):
    path = folder / ("deepseek/tokenizer.json" if name == "local:deepseek" else "lower.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    vocab = hf.get_vocab(with_added_tokens=True)
    added = hf.get_added_tokens_decoder()
    byte_level = "ByteLevel" in path.read_text(encoding="utf-8")
    to_byte = {c: b for b, c in gpt2_bytes_to_unicode().items()}
    expected = {}
    for piece, i in vocab.items():
        assert hf.id_to_token(i) == piece
        data = (bytes(to_byte[c] for c in piece) if byte_level and i not in added
                else piece.encode("utf-8"))
        expected[i] = (data, bool(i in added and added[i].special))
    table = table_of(found, name)
    assert table == expected
    assert vocabulary(found[name]).size == hf.get_vocab_size(with_added_tokens=True)
    assert byte_level == (name == "local:deepseek")  # both kinds are checked


@pytest.mark.parametrize("name,file", [("local:mistral7b", "mistral7b.model"),
                                       ("local:trained", "trained.model")])
def test_a_sentencepiece_model_has_the_librarys_pieces(found, folder, name, file):
    sp = spm.SentencePieceProcessor(model_file=str(folder / file))
    expected = {}
    for i in range(sp.get_piece_size()):
        piece = sp.id_to_piece(i)
        data = bytes([int(piece[3:5], 16)]) if sp.is_byte(i) else piece.encode("utf-8")
        expected[i] = (data, bool(sp.is_control(i) or sp.is_unknown(i)))
    assert table_of(found, name) == expected
    assert any(sp.is_byte(i) for i in range(sp.get_piece_size()))  # byte fallback is covered


def test_a_tiktoken_file_has_tiktokens_tokens_and_ranks(found, folder):
    encoding = tiktoken.Encoding("qwen", pat_str=QWEN_PAT,
                                 mergeable_ranks=load_tiktoken_bpe(str(folder / "qwen.tiktoken")),
                                 special_tokens=QWEN_SPECIALS)
    specials = set(QWEN_SPECIALS.values())
    expected = {i: (encoding.decode_single_token_bytes(i), i in specials)
                for i in range(encoding.n_vocab)}
    vocab = vocabulary(found["local:qwen"])
    assert {r.id: (r.bytes, r.special) for r in vocab.rows} == expected
    assert vocab.size == encoding.n_vocab and vocab.gaps == ()
    # a merge's rank is its place among tiktoken's multi-byte tokens, in rank order
    merged = sorted(i for i in range(encoding.n_vocab) if i not in specials
                    and len(encoding.decode_single_token_bytes(i)) > 1)
    assert [vocab.row(i).rank for i in merged[:5]] == [0, 1, 2, 3, 4]


def test_too_many_ids_are_refused_with_the_count_and_the_worker_goes_on(found):
    huge = found["local:huge"]
    with pytest.raises(Refusal) as refused:
        vocabulary(huge)
    assert refused.value.values["size"] == 10**9 + 1
    assert refused.value.values["bound"] == MAX_VOCAB_IDS
    assert "local:huge: its vocabulary has 1,000,000,001 ids" in str(refused.value)
    assert [t.id for t in huge.encode("ab", disallowed_special=())] == [97, 98]
    with pytest.raises(Refusal):  # the bound is the caller's: Qwen's 151,665 ids over 1,000
        found["local:qwen"].vocabulary_tokens(max_ids=1_000)
    assert found["local:qwen"].encode(PROBE_TEXT, disallowed_special=())


def test_the_command_lines_vocab_reads_a_folder_file(folder):
    result = subprocess.run(
        [sys.executable, "-m", "tokenizer_core", "vocab", "--tokenizer", "local:trained"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "TOKEX_MODELS_DIR": str(folder),
             "HF_HUB_CACHE": str(folder / "no-hf-cache")})
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    sp = spm.SentencePieceProcessor(model_file=str(folder / "trained.model"))
    assert out["size"] == sp.get_piece_size()
    pieces = {t["id"]: t["text"] for t in out["tokens"]}
    assert all(pieces[i] == sp.id_to_piece(i) for i in range(sp.get_piece_size())
               if not sp.is_byte(i))
