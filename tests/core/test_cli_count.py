"""`count` and `premium` on the command line, and the encodings added with them (o200k_harmony,
r50k_base): counts equal each model's own library, premiums equal the Languages page's.

tiktoken's own encodings are built by tiktoken itself (`tiktoken.get_encoding`, openai_public's
constructors, its regexes and special tokens), offline: the files it would download are put in
its cache folder under the names it looks for, made from the shipped packages, and tiktoken
checks each against its own sha256. A download would go to a closed port and fail the test.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import json
import re
import unicodedata
from pathlib import Path

import pytest
import tiktoken
import tiktoken.load
import tiktoken_ext.openai_public as openai_public

from tests.shared import own_library_counter
from tokenizer_core import bounds, cli
from tokenizer_core.measure.language_costs import language_premiums, token_counts
from tokenizer_core.reference.rankfiles import (
    CL100K_BASE_FILE,
    GPT2_ENCODER_JSON,
    GPT2_VOCAB_BPE,
    O200K_BASE_FILE,
    PackagedFile,
    load_encoding_spec,
)
from tokenizer_core.registry import NAMES, load_tokenizer
from tokenizer_core.samples import corpus_text, multilingual_set, sample_text

from .test_cli import ROOT, ok_json, run
from .test_cli_bounds import one_error_line

OPENAI = ("gpt2", "r50k_base", "cl100k_base", "o200k_base", "o200k_harmony")
MIXED = "\n".join([sample_text("english"), corpus_text("chinese"), corpus_text("code"),
                   corpus_text("emoji")])
EN_ZH = ROOT / "data" / "parallel" / "en_zh.tsv"


def package_path(file: PackagedFile) -> Path:
    spec = importlib.util.find_spec(file.package)
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)), file.resource)


def tiktoken_file(ranks: dict[bytes, int]) -> bytes:
    """Ranks in tiktoken's file format (what tiktoken.load.dump_tiktoken_bpe writes)."""
    return b"".join(base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
                    for token, rank in sorted(ranks.items(), key=lambda item: item[1]))


@pytest.fixture(scope="module")
def own(tmp_path_factory):
    """name -> tiktoken's own Encoding, as `tiktoken.get_encoding(name)` builds it."""
    cache = tmp_path_factory.mktemp("tiktoken-cache")
    vocab_bpe, encoder_json = package_path(GPT2_VOCAB_BPE), package_path(GPT2_ENCODER_JSON)
    # r50k_base.tiktoken from GPT-2's files by tiktoken's own data gym reader (not our code)
    r50k = tiktoken.load.data_gym_to_mergeable_bpe_ranks(str(vocab_bpe), str(encoder_json))
    files = {
        "vocab.bpe": vocab_bpe.read_bytes(), "encoder.json": encoder_json.read_bytes(),
        "cl100k_base.tiktoken": gzip.decompress(package_path(CL100K_BASE_FILE).read_bytes()),
        "o200k_base.tiktoken": gzip.decompress(package_path(O200K_BASE_FILE).read_bytes()),
        "r50k_base.tiktoken": tiktoken_file(r50k),
    }
    source = Path(openai_public.__file__).read_text(encoding="utf-8")
    for url in set(re.findall(r'"(https://[^"]+)"', source)):
        name = url.rsplit("/", 1)[1]
        if name in files:
            (cache / hashlib.sha1(url.encode()).hexdigest()).write_bytes(files[name])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
        for proxy in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
            patch.setenv(proxy, "http://127.0.0.1:9")  # nothing listens: a download fails
        yield {name: tiktoken.get_encoding(name) for name in OPENAI}


def counts(*args: str, stdin: bytes | None = None) -> dict:
    result = ok_json("count", *args, stdin=stdin)
    assert set(result) == {"characters", "bytes", "tokenizers"}
    return result


def flags(names) -> list[str]:
    return [arg for name in names for arg in ("--tokenizer", name)]


# --- count -------------------------------------------------------------------------------------


def test_count_equals_tiktokens_own_encodings_in_every_special_mode(own):
    text = MIXED + " <|endoftext|> <|start|>user<|message|>hi<|end|> <|endofprompt|>"
    data = text.encode("utf-8")
    plain = counts(*flags(OPENAI), "--special", "plain", stdin=data)
    assert plain["characters"] == len(text) and plain["bytes"] == len(data)
    assert [r["name"] for r in plain["tokenizers"]] == list(OPENAI)
    assert {r["name"]: r["tokens"] for r in plain["tokenizers"]} == {
        name: len(own[name].encode_ordinary(text)) for name in OPENAI}
    allow = counts(*flags(OPENAI), "--special", "allow", stdin=data)
    assert {r["name"]: r["tokens"] for r in allow["tokenizers"]} == {
        name: len(own[name].encode(text, allowed_special="all")) for name in OPENAI}
    # special strings change the count, so the modes were really applied
    assert allow["tokenizers"][-1]["tokens"] < plain["tokenizers"][-1]["tokens"]
    refused = run("count", "--tokenizer", "gpt2", stdin=data)
    assert refused.returncode == 1
    assert one_error_line(refused.stderr).startswith(
        "error: --tokenizer gpt2: the text holds the special token '<|endoftext|>' at character")
    clean = counts(*flags(OPENAI), stdin=MIXED.encode())  # refuse, and nothing to refuse
    assert [r["tokens"] for r in clean["tokenizers"]] == [len(own[n].encode(MIXED)) for n in OPENAI]


OPEN = ("llama3", "qwen2.5", "mistral-nemo", "mistral-7b", "deepseek-v4", "bert-base-uncased")


def test_count_equals_each_open_models_own_library():
    # NFC text: Qwen's own library normalizes first, the registry encodes the text as typed
    text = unicodedata.normalize("NFC", MIXED + " [INST] <s> <|im_start|>")
    got = counts(*flags(OPEN), "--special", "plain", stdin=text.encode())
    assert {r["name"]: r["tokens"] for r in got["tokenizers"]} == {
        name: own_library_counter(name)(text) for name in OPEN}


def test_count_allows_an_hf_tokenizers_own_special_tokens_as_hf_reads_them():
    import tokenizers

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    deepseek = load_tokenizer("deepseek-v4")
    special = sorted(deepseek.special_tokens)[0]
    text = f"{special}Hello, 世界 {special}"
    hf = tokenizers.Tokenizer.from_file(str(packaged_path(OPEN_MODELS["deepseek-v4"].file)))
    got = counts("--tokenizer", "deepseek-v4", "--special", "allow", stdin=text.encode())
    assert got["tokenizers"][0]["tokens"] == len(hf.encode(text, add_special_tokens=False).ids)
    plain = counts("--tokenizer", "deepseek-v4", "--special", "plain", stdin=text.encode())
    assert plain["tokenizers"][0]["tokens"] > got["tokenizers"][0]["tokens"]


def test_count_of_a_model_file_is_the_length_of_encode(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest newest widest 你好你好", encoding="utf-8")
    model = tmp_path / "model.json"
    ok_json("train", "--level", "byte", "--merges", "6", "--output", str(model), str(corpus))
    text = tmp_path / "text.txt"
    text.write_text("lowest 你好 widest", encoding="utf-8")
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(model), str(text))
    got = counts("--tokenizer", "model", "--model", str(model), "--tokenizer", "gpt2", str(text))
    assert got["characters"] == 16 and got["bytes"] == 20  # 2 Chinese characters: 3 bytes each
    assert got["tokenizers"][0] == {"name": "model", "tokens": len(encoded["tokens"])}


def test_count_names_each_tokenizer_once_in_the_order_given():
    got = counts("--tokenizer", "o200k_base", "--tokenizer", "gpt2", "--tokenizer", "o200k_base",
                 stdin=b"hello world")
    assert got == {"characters": 11, "bytes": 11, "tokenizers": [
        {"name": "o200k_base", "tokens": 2}, {"name": "gpt2", "tokens": 2}]}


def test_count_of_empty_text_is_zero():
    assert counts("--tokenizer", "gpt2", stdin=b"")["tokenizers"] == [{"name": "gpt2", "tokens": 0}]


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["--tokenizer", "nope"], b"hi", "error: unknown tokenizer 'nope'"),
        (["--tokenizer", "p50k_base"], b"hi", "error: unknown tokenizer 'p50k_base'"),
        (["--tokenizer", "gpt2", "missing.txt"], None,
         "error: text 'missing.txt' does not exist or is not a file"),
        (["--tokenizer", "gpt2"], b"ok \xff", "error: text '-' is not valid UTF-8 (byte 0xff"),
        (["--tokenizer", "model"], b"hi", "error: --tokenizer model needs --model MODEL.json"),
        (["--tokenizer", "gpt2", "--model", "m.json"], b"hi",
         "error: --model goes with --tokenizer model"),
    ],
)
def test_count_bad_input_is_one_error_line(args, stdin, message):
    result = run("count", *args, stdin=stdin)
    assert result.returncode == 1
    assert one_error_line(result.stderr).startswith(message)


def test_count_has_encodes_bound_and_a_bound_on_tokenizers(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bounds, "MAX_ENCODE_BYTES", 10)
    text = tmp_path / "text.txt"
    text.write_text("你好你好", encoding="utf-8")  # 12 bytes
    assert cli.main(["count", "--tokenizer", "gpt2", str(text)]) == 1
    assert capsys.readouterr().err == (
        f"error: text {str(text)!r} is larger than the bound of 10 bytes (split it and count "
        "the parts)\n")
    text.write_text("a" * 10, encoding="utf-8")
    assert cli.main(["count", "--tokenizer", "gpt2", str(text)]) == 0
    tokens = len(load_tokenizer("gpt2").encoding.encode("a" * 10))  # tiktoken's: aaaa aaaa aa
    assert json.loads(capsys.readouterr().out)["tokenizers"] == [{"name": "gpt2", "tokens": tokens}]
    monkeypatch.setattr(bounds, "MAX_COUNT_TOKENIZERS", 2)
    three = ["--tokenizer", "gpt2", "--tokenizer", "cl100k_base", "--tokenizer", "o200k_base"]
    assert cli.main(["count", *three, str(text)]) == 1
    assert capsys.readouterr().err == (
        "error: 3 tokenizers named; the bound is 2 a run (run the command again for the "
        "others)\n")


# --- premium -----------------------------------------------------------------------------------


def read_tsv(path: Path) -> tuple[list[str], list[list[str]]]:
    """A plain reader of the test's own: header, then rows, skipping comments and blanks."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return lines[0].split("\t"), [[f.strip() for f in line.split("\t")] for line in lines[1:]]


def test_premium_golden_by_tiktoken_directly_on_the_built_in_pairs(own):
    header, rows = read_tsv(EN_ZH)
    assert header == ["en", "zh"] and len(rows) == 50
    names = ("cl100k_base", "o200k_base", "o200k_harmony")
    got = ok_json("premium", *flags(names), str(EN_ZH))
    assert got["languages"] == ["en", "zh"]
    for name in names:
        totals = [sum(len(own[name].encode_ordinary(row[i])) for row in rows) for i in (0, 1)]
        assert got["tokens"][name] == {"en": totals[0], "zh": totals[1]}
        assert got["premium"][name] == {"en": 1.0, "zh": totals[1] / totals[0]}
    assert got["premium"]["cl100k_base"]["zh"] > got["premium"]["o200k_base"]["zh"] > 1


def test_premium_equals_the_languages_pages_numbers_on_the_many_language_file():
    names = ("gpt2", "o200k_base", "mistral-7b")  # tiktoken, and one that makes Token records
    got = ok_json("premium", *flags(names), str(ROOT / "data" / "parallel" / "multi.tsv"))
    parallel = multilingual_set()  # what the page reads (ui/languages/many.py)
    assert got["languages"] == list(parallel.languages) == ["en", "zh", "ja", "ko", "ar", "hi",
                                                            "ru", "es"]
    texts = [t for row in parallel.rows for t in row.texts]
    for name in names:  # as ui/languages/many.py's _language_results makes them
        known = dict(zip(texts, token_counts(load_tokenizer(name), texts)))
        page = language_premiums(parallel, known.__getitem__)
        assert got["premium"][name] == page.ratios()
        assert list(got["tokens"][name].values()) == [t.tokens for t in page.totals]


def test_premium_reads_stdin_and_special_strings_as_plain_text(own):
    data = "en\tzh\tja\n<|endoftext|> hi\t你好\tこんにちは\n".encode()
    got = ok_json("premium", "--tokenizer", "gpt2", "-", stdin=data)
    enc = own["gpt2"]
    en, zh, ja = (len(enc.encode_ordinary(t)) for t in ("<|endoftext|> hi", "你好", "こんにちは"))
    assert got["tokens"]["gpt2"] == {"en": en, "zh": zh, "ja": ja}
    assert got["premium"]["gpt2"] == {"en": 1.0, "zh": zh / en, "ja": ja / en}


@pytest.mark.parametrize(
    "content, message",
    [
        ("en zh\nhello 你好\n", "a parallel file needs at least two languages in its header"),
        ("en\tzh\nhello\n", "line 2: expected 2 tab-separated fields"),
        ("en\tzh\nhello\t \n", "line 2: the 'zh' field is empty"),
        ("en\tzh\n", "no rows after the header"),
    ],
)
def test_premium_bad_file_is_one_error_line_naming_the_line(tmp_path, content, message):
    path = tmp_path / "bad.tsv"
    path.write_text(content, encoding="utf-8")
    result = run("premium", "--tokenizer", "gpt2", str(path))
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert line.startswith(f"error: {path}") and message in line


def test_premium_file_over_the_bound_is_refused_before_parsing(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bounds, "MAX_PARALLEL_FILE_BYTES", 20)
    path = tmp_path / "big.tsv"
    path.write_text("en\tzh\n" + "hello\t你好\n" * 3, encoding="utf-8")
    assert cli.main(["premium", "--tokenizer", "gpt2", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"error: parallel file {str(path)!r} is larger than the bound of 20 bytes\n")


# --- the added encodings -------------------------------------------------------------------------


def test_o200k_harmony_is_tiktokens_own_definition(own):
    spec, theirs = load_encoding_spec("o200k_harmony"), own["o200k_harmony"]
    assert spec.pat_str == theirs._pat_str
    assert spec.special_tokens == theirs._special_tokens
    assert spec.mergeable_ranks == theirs._mergeable_ranks
    assert load_tokenizer("o200k_harmony").vocab_size == theirs.n_vocab == 201_088


def test_o200k_harmony_encodes_a_chat_with_tiktokens_ids(own):
    chat = ("<|start|>system<|message|>You are ChatGPT.<|end|><|start|>user<|message|>"
            "你好, what's 12345 + 678?<|end|><|start|>assistant<|channel|>final<|message|>")
    encoded = ok_json("encode", "--tokenizer", "o200k_harmony", "--special", "allow",
                      stdin=chat.encode())
    ids = [t["id"] for t in encoded["tokens"]]
    assert ids == own["o200k_harmony"].encode(chat, allowed_special="all")
    assert ids[:3] == [200006, 17360, 200008]  # <|start|> system <|message|>
    assert [t["text"] for t in encoded["tokens"]][-1] == "<|message|>"
    plain = ok_json("encode", "--tokenizer", "o200k_harmony", "--special", "plain",
                    stdin=MIXED.encode())
    assert [t["id"] for t in plain["tokens"]] == own["o200k_harmony"].encode_ordinary(MIXED)


def test_r50k_base_ranks_are_the_file_tiktoken_publishes():
    source = Path(openai_public.__file__).read_text(encoding="utf-8")
    published = re.search(r'r50k_base\.tiktoken",\s*expected_hash="([0-9a-f]{64})"', source)
    assert published is not None
    data = tiktoken_file(load_encoding_spec("r50k_base").mergeable_ranks)
    assert hashlib.sha256(data).hexdigest() == published.group(1)


def test_the_added_names_are_in_the_registry_and_p50k_is_not():
    assert {"o200k_harmony", "r50k_base"} <= set(NAMES)
    assert not {"p50k_base", "p50k_edit", "core:o200k_harmony"} & set(NAMES)


def test_count_tokens_agrees_with_encode_on_harmonys_thousand_special_tokens():
    from tokenizer_core.counting import count_tokens
    from tokenizer_core.interface import DisallowedSpecialToken

    harmony = load_tokenizer("o200k_harmony")
    text = "plain <| not special |> <|call|>x<|reserved_201087|> <|end|>"
    for special in ({"allowed_special": "all"}, {"disallowed_special": ()}):
        assert count_tokens(harmony, text, special) == len(harmony.encode(text, **special))
    with pytest.raises(DisallowedSpecialToken) as counted:
        count_tokens(harmony, text, {})
    with pytest.raises(DisallowedSpecialToken) as encoded:
        harmony.encode(text)
    assert (counted.value.token, counted.value.position) == (
        encoded.value.token, encoded.value.position) == ("<|call|>", 24)
