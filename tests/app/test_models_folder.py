"""The models folder and the Hugging Face cache in the Playground (#21), driven by AppTest.

The folder is made by the test from real tokenizer files the pinned packages ship
(tests/local_models_files.py) and named by TOKEX_MODELS_DIR; the cache is laid out as
huggingface_hub lays one out and named by HF_HUB_CACHE. Counts are checked against each file's
own library; what does not load is listed with its reason; a file added while the server runs
is offered after *Look again* (or in a new session), with no restart.
"""

from __future__ import annotations

import shutil

import pytest
import sentencepiece as spm
import tokenizers
from streamlit.testing.v1 import AppTest

from tests.hostile_tokenizers import plain_bpe
from tests.local_models_files import hf_cache, models_folder
from tokenizer_core.reference import local_models
from tokenizer_core.samples import sample_text
from ui.common import limits

from .conftest import REPO, TIMEOUT_S, open_box, open_page, shown

PAGE = "pages/playground.py"
DEEPSEEK_HF = "hf:deepseek-ai/DeepSeek-V4-Flash"


@pytest.fixture
def places(tmp_path, monkeypatch):
    folder = models_folder(tmp_path / "models")
    shutil.rmtree(folder / "deepseek")  # DeepSeek's file comes from the cache here instead
    (folder / "broken.json").write_text('{"hello": 1}')
    from tokenizer_core.reference.open_models import DEEPSEEK_FILE, packaged_path

    cache = hf_cache(tmp_path / "hub", "deepseek-ai/DeepSeek-V4-Flash",
                     packaged_path(DEEPSEEK_FILE).read_bytes())
    monkeypatch.setenv("TOKEX_MODELS_DIR", str(folder))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    return folder, cache


def count_of(app: AppTest, names: list[str]) -> list[str]:
    app.multiselect(key="pg_tokenizers").set_value(names).run()
    assert not app.exception, [e.value for e in app.exception]
    return [m.value for m in app.metric]


def test_the_playground_offers_the_folder_and_the_cache_with_their_own_librarys_counts(
        app, places):
    folder, cache = places
    open_page(app, PAGE)
    options = app.multiselect(key="pg_tokenizers").options
    found = [o for o in options if o.startswith(("local:", "hf:"))]
    assert found == ["local:lower", "local:mistral7b", "local:qwen", "local:trained", DEEPSEEK_HF]
    text = sample_text("mixed_default")
    mistral = spm.SentencePieceProcessor(model_file=str(folder / "mistral7b.model"))
    lower = tokenizers.Tokenizer.from_file(str(folder / "lower.json"))
    deepseek = tokenizers.Tokenizer.from_file(
        str(next((cache / "models--deepseek-ai--DeepSeek-V4-Flash" / "snapshots").iterdir())
            / "tokenizer.json"))
    expected = [len(mistral.encode(text)), len(lower.encode(text, add_special_tokens=False)),
                len(deepseek.encode(text, add_special_tokens=False))]
    assert count_of(app, ["local:mistral7b", "local:lower", DEEPSEEK_HF]) == [
        f"{n:,}" for n in expected]
    assert not app.error


def test_the_listing_shows_size_and_sha256_and_why_a_file_is_not_offered(app, places):
    folder, _ = places
    open_page(app, PAGE)
    open_box(app, "pg_found_box")  # the listing is drawn while its box is open
    (table,) = [d.value for d in app.dataframe if "sha256" in d.value.columns]
    qwen = table[table["Name"] == "local:qwen"].iloc[0]
    assert qwen["sha256"] == local_models.sha256_of(folder / "qwen.tiktoken")
    size = sum((folder / f).stat().st_size for f in ("qwen.tiktoken", "qwen.tiktoken.json"))
    assert qwen["Bytes"] == f"{size:,}"  # in the locale's digits, as every number on screen
    warnings = [shown(w.value) for w in app.warning]
    (broken,) = [w for w in warnings if "broken.json" in w]
    assert "this is not a tokenizer.json that HF tokenizers" in broken
    assert "Traceback" not in broken
    assert "local:broken" not in app.multiselect(key="pg_tokenizers").options


def test_a_file_added_while_the_server_runs_is_offered_after_look_again(app, places):
    folder, _ = places
    open_page(app, PAGE)
    assert "local:late" not in app.multiselect(key="pg_tokenizers").options
    (folder / "late.json").write_text(plain_bpe())
    open_box(app, "pg_found_box")  # its button is drawn while the box is open
    app.button(key="pg_rescan").click().run()
    assert "local:late" in app.multiselect(key="pg_tokenizers").options
    # and a new session (another student) sees it from the start, with no restart
    other = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_page(other, PAGE)
    assert "local:late" in other.multiselect(key="pg_tokenizers").options
    assert count_of(other, ["local:late"]) == [
        f"{len(tokenizers.Tokenizer.from_str(plain_bpe()).encode(sample_text('mixed_default')).ids):,}"]


def test_the_folder_has_the_bounds_of_an_upload():
    assert local_models.MAX_FILE_BYTES == limits.MAX_TOKENIZER_JSON_BYTES
    assert local_models.LOAD_SECONDS == limits.MAX_TOKENIZER_JSON_SECONDS


def frames_naming(app: AppTest, name: str) -> list:
    return [d.value for d in app.dataframe
            if name in " ".join(map(str, [*d.value.columns, *d.value.index,
                                          *d.value.astype(str).to_numpy().ravel()]))]


def test_languages_offers_them_on_every_tab(app, places):
    open_page(app, "pages/languages.py")
    picker = app.multiselect(key="lg_tokenizers")
    assert "local:qwen" in picker.options and DEEPSEEK_HF in picker.options
    picker.set_value(["gpt2", "local:qwen"]).run()
    for tab in ("Byte ruler", "English vs Chinese", "Many languages", "Emoji",
                "Grow a vocabulary"):
        app.session_state["lg_tab"] = tab
        app.run()
        assert not app.exception, (tab, [e.value for e in app.exception])
        assert not app.error, (tab, [e.value for e in app.error])
    app.session_state["lg_tab"] = "English vs Chinese"
    app.run()
    assert frames_naming(app, "local:qwen")


def test_sequences_offers_them_and_frames_their_ids(app, places):
    import re

    folder, _ = places
    open_page(app, "pages/sequences.py")
    box = app.selectbox(key="sq_tokenizer")
    assert "local:mistral7b" in box.options
    box.set_value("local:mistral7b").run()
    app.toggle(key="sq_ids").set_value(True).run()
    assert not app.exception, [e.value for e in app.exception]
    markup = "".join(h.proto.body for h in app.get("html"))
    mistral = spm.SentencePieceProcessor(model_file=str(folder / "mistral7b.model"))
    lines = app.text_area(key="sq_a").value.split("\n")
    rows = re.findall(r'<tr class="toks">(.*?)</tr>', markup)
    assert len(rows) == len(lines)
    for line, row in zip(lines, rows):
        ids = [int(x) for x in re.findall(r">(\d+)</td>", row)]
        assert ids[1 : 1 + len(mistral.encode(line))] == mistral.encode(line)  # after the BOS
    for tab in ("Long text", "Batching", "Chat templates"):
        app.session_state["sq_tab"] = tab
        app.run()
        assert not app.exception, (tab, [e.value for e in app.exception])


def test_a_link_naming_a_folder_tokenizer_reopens_it(app, places):
    from .conftest import open_link

    open_link(app, PAGE, {"tok": "gpt2,local:qwen"})
    assert app.multiselect(key="pg_tokenizers").value == ["gpt2", "local:qwen"]
    tok = app.query_params["tok"]  # the link the page writes back keeps it
    assert (tok if isinstance(tok, str) else tok[0]) == "gpt2,local:qwen"


def test_a_hostile_file_is_stopped_in_its_panel_while_the_others_count(app, places):
    """A Split regex that backtracks on long runs of `a` loads (the probe text has none) and is
    offered; on such a text its worker is killed at the upload's time limit and its panel says
    why, while the other panels count as their libraries do."""
    import time

    from tests.hostile_tokenizers import SLOW_PATTERN, SLOW_TEXT, split_on

    folder, _ = places
    (folder / "slow.json").write_text(split_on(SLOW_PATTERN))
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(SLOW_TEXT).run()
    started = time.monotonic()
    assert count_of(app, ["local:slow", "local:mistral7b"]) == [
        f"{len(spm.SentencePieceProcessor(model_file=str(folder / 'mistral7b.model')).encode(SLOW_TEXT)):,}"]
    assert time.monotonic() - started < 3 * limits.MAX_TOKENIZER_JSON_SECONDS
    (stopped,) = [shown(e.value) for e in app.error]
    assert f"local:slow took longer than {limits.MAX_TOKENIZER_JSON_SECONDS} s" in stopped


def test_compression_gives_each_found_tokenizer_a_point_counted_by_its_own_library(app, places):
    """#21: the folder's and the cache's tokenizers are reference points on Compression, in the
    quality table, with their own library's count of the held-out part."""
    from tests.app.test_compression import open_compression, quality_rows
    from tokenizer_core.measure.compression import split_held_out
    from tokenizer_core.samples import english_reference_corpus

    folder, _cache = places
    open_compression(app, corpora=("english",))
    assert not app.exception, [e.value for e in app.exception]
    held_out = split_held_out(english_reference_corpus(), 0.2).held_out
    rows = quality_rows(app)
    lower = tokenizers.Tokenizer.from_file(str(folder / "lower.json"))
    mistral = spm.SentencePieceProcessor(model_file=str(folder / "mistral7b.model"))
    assert rows[("English", "local:lower")]["tokens"] == len(
        lower.encode(held_out, add_special_tokens=False))
    assert rows[("English", "local:mistral7b")]["tokens"] == len(mistral.encode(held_out))
    assert ("English", DEEPSEEK_HF) in rows
    assert rows[("English", "GPT-2")]["tokens"] > 0  # the built-in points are still there


def test_a_found_tokenizers_normalizer_is_said_under_its_panel(app, places):
    """`lower.json` lower-cases and strips accents (NFD, Lowercase, StripAccents) before it
    cuts, as HF runs it. Its panel said nothing (the sentence came only from built-in
    tokenizers); now its worker tells it: "Café Über" has three characters so changed (C, é, Ü,
    counted by hand), of nine."""
    folder, _cache = places
    lower = tokenizers.Tokenizer.from_file(str(folder / "lower.json"))
    text = "Café Über"
    assert lower.normalizer.normalize_str(text) == "cafe uber"  # HF's own normalizer changes it
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(text).run()
    count_of(app, ["local:lower", "local:mistral7b"])
    notes = [c.value for c in app.caption if "before cutting" in c.value]
    assert len(notes) == 1, notes  # local:lower's; Mistral 7B's nmt_nfkc leaves this text be
    assert "3 of the 9 characters as typed were changed" in notes[0], notes
