"""The Vocabulary page offers the models folder and the Hugging Face cache (#21), driven by AppTest.

The folder is made by the test (tests/local_models_files.py: a tokenizer.json trained here by HF
tokenizers, a SentencePiece model trained here by sentencepiece, Qwen's real rank file with a
sidecar), named by TOKEX_MODELS_DIR; the cache is laid out as huggingface_hub lays one out. Each
table, search, count and comparison is checked against the file's own library; a file that does
not load is listed with its reason, and one claiming a billion ids says why in one line while
the others work. Every table is read by the file's worker once per server, whatever the sessions.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path

import pytest
import regex
import sentencepiece as spm
import tiktoken
import tokenizers
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest
from tiktoken.load import load_tiktoken_bpe

from tests.local_models_files import (
    QWEN_SPECIALS,
    hf_cache,
    lower_tokenizer_json,
    train_sentencepiece_file,
)
from tests.shared import tiktoken_encoding, token_bytes
from tokenizer_core.reference import local_models
from tokenizer_core.reference.isolated import IsolatedTokenizer
from tokenizer_core.reference.open_models import QWEN_FILE, QWEN_PAT, packaged_path
from ui.vocabulary.limits import MAX_FOUND_VOCAB_IDS, MAX_TABLE_ROWS

from .conftest import REPO, TIMEOUT_S, open_box, open_link, open_page, shown

PAGE = "pages/vocabulary.py"
FOUND = ["local:huge", "local:lower", "local:qwen", "local:trained", "hf:course/lower"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("places")
    folder = root / "models"
    folder.mkdir()
    lower = lower_tokenizer_json()
    (folder / "lower.json").write_text(lower)
    train_sentencepiece_file(folder / "trained.model")
    (folder / "qwen.tiktoken").write_bytes(packaged_path(QWEN_FILE).read_bytes())
    (folder / "qwen.tiktoken.json").write_text(
        json.dumps({"pat_str": QWEN_PAT, "special_tokens": QWEN_SPECIALS}))
    (folder / "broken.json").write_text('{"hello": 1}')
    # a hostile sidecar: one special token at id 10**9 makes tiktoken's n_vocab 10**9 + 1
    (folder / "huge.tiktoken").write_text("".join(
        f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)))
    (folder / "huge.tiktoken.json").write_text(
        json.dumps({"pat_str": r"\S+|\s+", "special_tokens": {"<|far|>": 10**9}}))
    cache = hf_cache(root / "hub", "course/lower", lower.encode("utf-8"))
    return folder, cache


@pytest.fixture
def places(built, monkeypatch):
    folder, cache = built
    monkeypatch.setenv("TOKEX_MODELS_DIR", str(folder))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    return built


@pytest.fixture(scope="module")
def qwen(built) -> tiktoken.Encoding:
    """tiktoken's own Encoding over the folder's file: the oracle for local:qwen."""
    return tiktoken.Encoding("qwen", pat_str=QWEN_PAT, special_tokens=QWEN_SPECIALS,
                             mergeable_ranks=load_tiktoken_bpe(str(built[0] / "qwen.tiktoken")))


def chosen(app: AppTest, name: str, tab: str | None = None) -> AppTest:
    app.selectbox(key="vc_tokenizer").set_value(name).run()
    if tab is not None:
        app.session_state["vc_tab"] = tab
        app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def metric(app: AppTest, label: str) -> str:
    return next(m.value for m in app.metric if shown(m.label) == label)


def test_the_picker_offers_both_places_and_each_table_is_its_own_librarys(app, places):
    folder, _ = places
    open_page(app, PAGE)
    options = app.selectbox(key="vc_tokenizer").options
    assert [o for o in options if o.startswith(("local:", "hf:"))] == FOUND
    chosen(app, "local:trained")
    sp = spm.SentencePieceProcessor(model_file=str(folder / "trained.model"))
    assert metric(app, "Size (largest id + 1)") == f"{sp.get_piece_size():,}"
    table = app.dataframe[0].value
    assert list(table["id"]) == list(range(min(sp.get_piece_size(), MAX_TABLE_ROWS)))
    assert list(table["hex"].str.replace(" ", "")) == [
        (bytes([int(sp.id_to_piece(i)[3:5], 16)]) if sp.is_byte(i)
         else sp.id_to_piece(i).encode("utf-8")).hex() for i in table["id"]]
    # where it is, its size and sha256, as the Playground's listing says them
    sha256 = local_models.sha256_of(folder / "trained.model")
    assert any(sha256 in c.value and "trained" in shown(c.value) for c in app.caption)
    chosen(app, "hf:course/lower")
    hf = tokenizers.Tokenizer.from_str(lower_tokenizer_json())
    table = app.dataframe[0].value
    assert metric(app, "Tokens") == f"{hf.get_vocab_size():,}"
    assert list(table["hex"].str.replace(" ", "")) == [
        hf.id_to_token(i).encode("utf-8").hex() for i in table["id"]]


def test_search_by_text_id_bytes_and_regex_finds_what_tiktoken_holds(app, places, qwen):
    open_page(app, PAGE)
    chosen(app, "local:qwen")
    texts = {}
    for i in range(qwen.n_vocab):
        try:
            texts[i] = qwen.decode_single_token_bytes(i).decode("utf-8")
        except UnicodeDecodeError:
            pass
    app.text_input(key="vc_query").set_value("ization").run()
    expected = [i for i, t in texts.items() if "ization" in t]
    assert f"{len(expected):,} tokens match." in [c.value for c in app.caption]
    assert list(app.dataframe[0].value["id"]) == expected
    app.selectbox(key="vc_kind").set_value("regex").run()
    app.text_input(key="vc_query").set_value(r"^ [A-Z][a-z]+ization$").run()
    assert not app.error, [e.value for e in app.error]
    assert list(app.dataframe[0].value["id"]) == [
        i for i, t in texts.items() if regex.search(r"^ [A-Z][a-z]+ization$", t)]
    app.selectbox(key="vc_kind").set_value("bytes").run()
    app.text_input(key="vc_query").set_value("e4 bd a0").run()
    assert list(app.dataframe[0].value["id"]) == [
        i for i in range(qwen.n_vocab) if b"\xe4\xbd\xa0" in qwen.decode_single_token_bytes(i)]
    app.selectbox(key="vc_kind").set_value("id").run()
    app.text_input(key="vc_query").set_value(str(QWEN_SPECIALS["<|im_start|>"])).run()
    assert list(app.dataframe[0].value["token"]) == ["<|im_start|>"]


def test_every_tab_works_on_a_folder_file(app, places, qwen):
    open_page(app, PAGE)
    chosen(app, "local:qwen", "Charts")
    assert len(app.get("plotly_chart")) == 2
    chosen(app, "local:qwen", "Compare")  # against o200k_base, the default
    a = {qwen.decode_single_token_bytes(i) for i in range(qwen.n_vocab)}
    b = token_bytes(tiktoken_encoding("o200k_base"))
    assert metric(app, "Shared tokens (same bytes)") == f"{len(a & b):,}"
    assert metric(app, "Only in local:qwen") == f"{len(a - b):,}"
    chosen(app, "local:qwen", "Glitches & growth")
    # the corpus goes to the worker in parts; tiktoken counts the same parts
    from ui.vocabulary.found import parts
    from ui.vocabulary.usage_view import reference_corpus

    used: Counter[int] = Counter()
    for part in parts(reference_corpus()):
        used.update(qwen.encode_ordinary(part))
    ordinary = qwen.n_vocab - len(QWEN_SPECIALS)
    unused = sum(1 for i in range(qwen.n_vocab) if i not in QWEN_SPECIALS.values() and not used[i])
    assert metric(app, "Never used") == f"{unused:,} of {ordinary:,}"
    assert [m.value for m in app.metric if m.label == "Mean length (bytes)"]  # tiktoken's ranks
    chosen(app, "local:qwen", "Real sizes")
    app.toggle(key="vc_sizes").set_value(True).run()
    sizes = next(d.value for d in app.dataframe if "size (largest id + 1)" in d.value.columns)
    row = sizes.set_index("tokenizer").loc["local:qwen"]
    assert (row["size (largest id + 1)"], row["special tokens"]) == (
        qwen.n_vocab, len(QWEN_SPECIALS))
    sha256 = local_models.sha256_of(places[0] / "qwen.tiktoken")
    assert any(sha256 in m.value for m in app.markdown)
    for tab, said in (("Pre-tokenization", "is not drawn here"),
                      ("Design", "cannot be pruned or extended")):
        chosen(app, "local:qwen", tab)
        assert not app.error, (tab, [e.value for e in app.error])
        assert any(said in i.value for i in app.info), tab


def test_a_file_claiming_a_billion_ids_says_why_while_the_others_work(app, places):
    open_page(app, PAGE)
    open_box(app, "vc_found_box")  # the listing, with why a file is not offered
    warnings = [shown(w.value) for w in app.warning]
    (broken,) = [w for w in warnings if "broken.json" in w]
    assert "this is not a tokenizer.json that HF tokenizers" in broken
    chosen(app, "local:huge")
    (error,) = [shown(e.value) for e in app.error]
    assert error == (f"local:huge: its vocabulary has 1,000,000,001 ids; a vocabulary table is "
                     f"read up to {MAX_FOUND_VOCAB_IDS:,} ids")
    assert "Traceback" not in error
    assert not [d for d in app.dataframe if "hex" in d.value.columns]  # no table, no half of one
    assert any("needs the vocabulary of" in i.value for i in app.info)
    chosen(app, "local:trained")
    assert not app.error and metric(app, "Tokens") == "1,000"


def test_a_link_opens_a_folder_file(app, places):
    open_link(app, PAGE, {"vc_tokenizer": "local:qwen"})
    assert app.selectbox(key="vc_tokenizer").value == "local:qwen"
    assert metric(app, "Size (largest id + 1)") == "151,665"


def test_the_worker_sends_a_table_once_for_every_session(app, places, monkeypatch):
    """A class: each new session opens the same file; the table comes from the server's cache
    (its name and sha256), and the worker is asked once."""
    asked = []
    real = IsolatedTokenizer.vocabulary_tokens

    def counted(self, *args, **kwargs):
        asked.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(IsolatedTokenizer, "vocabulary_tokens", counted)
    for session in range(3):
        other = app if session == 0 else AppTest.from_file(str(REPO / "app.py"),
                                                           default_timeout=TIMEOUT_S)
        open_page(other, PAGE)
        chosen(other, "local:qwen")
        assert metric(other, "Tokens") == "151,665"
    assert asked == ["local:qwen"]


def test_the_reason_is_said_in_chinese(app, places, test_thread):
    test_thread.language = "zh"
    open_page(app, PAGE, {"lang": "zh"})
    chosen(app, "local:huge")
    (error,) = [shown(e.value) for e in app.error]
    assert error == (f"local:huge：它的词表有 1,000,000,001 个 id；词表表格最多读取 "
                     f"{MAX_FOUND_VOCAB_IDS:,} 个 id")


@given(st.text(alphabet="ab \n", max_size=400), st.integers(min_value=1, max_value=60))
def test_the_corpus_parts_join_to_the_corpus_and_are_cut_after_line_breaks(text, most):
    from ui.vocabulary.found import parts

    cut = parts(text, most)
    assert "".join(cut) == text
    assert all(0 < len(part) <= most for part in cut)
    for part, following in zip(cut, cut[1:]):
        if "\n" in part[:most]:  # a line break to cut after: the part ends with one
            assert part.endswith("\n"), (part, following)


def test_a_regex_that_backtracks_on_the_corpus_is_stopped_in_its_tab_only(app, places,
                                                                         monkeypatch):
    """A Split regex that backtracks on long runs of `a` loads (the probe has none) and its table
    is read; when the reference corpus holds such a run, its worker is stopped at the time limit
    and Glitches & growth says why in one line, while another file's counts still come."""
    import time

    from tests.hostile_tokenizers import SLOW_PATTERN, SLOW_TEXT, split_on
    from ui.common import limits
    from ui.vocabulary import usage_view
    from ui.vocabulary.found import parts

    folder, _ = places
    (folder / "slow.json").write_text(split_on(SLOW_PATTERN))
    try:
        monkeypatch.setattr(usage_view, "reference_corpus", lambda: "Hello.\n" + SLOW_TEXT)
        open_page(app, PAGE)
        chosen(app, "local:slow")
        slow = tokenizers.Tokenizer.from_str(split_on(SLOW_PATTERN))
        assert metric(app, "Tokens") == f"{slow.get_vocab_size():,}"
        started = time.monotonic()
        chosen(app, "local:slow", "Glitches & growth")
        assert time.monotonic() - started < 3 * limits.MAX_TOKENIZER_JSON_SECONDS
        (stopped,) = [shown(e.value) for e in app.error]
        assert f"local:slow took longer than {limits.MAX_TOKENIZER_JSON_SECONDS} s" in stopped
        assert any("has no merge ranks" in i.value for i in app.info)  # the rest of the tab
        chosen(app, "local:trained", "Glitches & growth")
        sp = spm.SentencePieceProcessor(model_file=str(folder / "trained.model"))
        used = {i for part in parts(usage_view.reference_corpus()) for i in sp.encode(part)}
        ordinary = [i for i in range(sp.get_piece_size())
                    if not (sp.is_control(i) or sp.is_unknown(i))]
        assert not app.error
        assert metric(app, "Never used") == (
            f"{len([i for i in ordinary if i not in used]):,} of {len(ordinary):,}")
    finally:
        (folder / "slow.json").unlink()
