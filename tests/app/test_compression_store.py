"""The Compression page reads its curves, HF lines, reference points and quality rows from the
on-disk store: after `warm` (or after one visit) a new server process trains nothing and loads no
vocabulary, and what `warm` makes is what the page's default view asks for."""

from __future__ import annotations

import functools

import pytest
import streamlit as st

import tokenizer_core.measure.stored as stored
import ui.common.catalog as catalog
from tokenizer_core import store
from ui.compression import limits
from ui.compression.corpora import BUILT_IN, builtin_text
from ui.compression.lines import coming_note
from ui.compression.view import DEFAULTS

from .conftest import shown, uploader
from .test_compression import PAGE, open_compression, quality_rows, runs  # noqa: F401 (fixture)

SMALL = ("code", "emoji")  # the two smaller built-in corpora keep the test quick


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "store"))
    return tmp_path / "store"


@pytest.fixture
def loads(monkeypatch) -> list[str]:
    """The real tokenizers (tiktoken vocabularies) loaded while the page runs."""
    loaded: list[str] = []
    for module, function in ((stored, "tiktoken_tokenizer"), (stored, "load_open_model"),
                             (catalog, "load_tokenizer")):
        original = getattr(module, function)

        def counted(name, original=original):
            loaded.append(name)
            return original(name)

        monkeypatch.setattr(module, function, counted)
    return loaded


def new_server_process() -> None:
    """What a restart or a second replica starts with: no result in memory."""
    st.cache_data.clear()
    st.cache_resource.clear()


def test_warm_makes_what_the_default_view_reads():
    assert stored.WARM_HELD_OUT_PCT == limits.DEFAULT_HELD_OUT_PCT
    assert stored.WARM_VOCAB == limits.DEFAULT_VOCAB
    assert stored.WARM_VOCABS == limits.VOCAB_CHOICES
    assert stored.WARM_HF_SIZES == limits.HF_SIZES
    assert list(stored.WARM_HF_FAMILIES) == DEFAULTS["cp_hf"]
    assert stored.WARM_COMPARE == DEFAULTS["cp_compare"]
    assert list(stored.BUILT_IN_CORPORA) == list(BUILT_IN)
    for key, text in stored.BUILT_IN_CORPORA.items():
        assert text() == builtin_text(key)


def test_after_warm_the_page_trains_nothing_and_loads_no_vocabulary(app, folder, runs, loads):  # noqa: F811
    load = functools.cache(stored.reference_tokenizer)  # as warm() does: once for both corpora
    for key in SMALL:
        stored.warm_corpus(stored.BUILT_IN_CORPORA[key](), load)
    runs.update(ours=0, hf=0)
    new_server_process()
    app.session_state["cp_corpora"] = list(SMALL)
    app.run()  # the Playground, the default page, loads its own tokenizers
    loads.clear()
    app.switch_page(PAGE).run()
    assert not app.exception
    assert runs == {"ours": 0, "hf": 0} and loads == []
    assert not app.info  # nothing is announced as still coming
    rows = quality_rows(app)
    assert {tokenizer for _, tokenizer in rows} >= {"Ours: byte-level BPE", "HF Unigram", "GPT-2"}


def test_a_second_server_reads_what_the_first_visit_made(app, folder, runs):  # noqa: F811
    open_compression(app, corpora=SMALL, hf=["wordpiece"])
    made = dict(runs)
    assert made["ours"] == 2 and made["hf"] == 2 * 4  # WordPiece at 500 ... 4,000 on each
    first_rows = quality_rows(app)
    new_server_process()
    open_compression(app, corpora=SMALL, hf=["wordpiece"])
    assert runs == made  # read from the store, not trained again
    assert quality_rows(app).keys() == first_rows.keys()
    # a larger vocabulary trains only the new sizes: 8,000 for HF, one curve per corpus for ours
    app.select_slider(key="cp_vocab").set_value(8_000).run()
    assert runs == {"ours": made["ours"] + 2, "hf": made["hf"] + 2}


def test_the_note_names_what_is_still_coming_and_escapes_user_text():
    from ui.compression.lines import REFERENCES

    assert REFERENCES == ("the points of GPT-2, cl100k_base (GPT-4), o200k_base (GPT-4o), Llama 3, "
                          "Qwen 2.5, Mistral Nemo, Mistral 7B, DeepSeek-V4 and BERT base uncased")
    both = [REFERENCES, "HF WordPiece", "HF Unigram"]
    note = coming_note({"English": both, "Chinese": both,
                        "Your text (*bold*.txt)": ["HF WordPiece"]})
    assert shown(note).startswith(
        f"**Still coming:** {REFERENCES} and the HF WordPiece and "
        "HF Unigram lines on English and Chinese; the HF WordPiece line on Your text (")
    assert "*bold*" not in note  # the file name is user text: no Markdown from it
    assert "the controls work meanwhile" in note


def test_the_real_tokenizers_points_are_counted_in_a_worker(app, folder, loads):
    """A store miss (a new corpus; an upload is one every time) counts the real tokenizers'
    points (GPT-2 ... BERT) in a worker, which keeps its vocabularies loaded for the next
    corpus: the server loads none of them (#22: about a second of its lock per corpus, and the
    nine vocabularies' memory). The points are each library's own counts."""
    from tests.shared import own_library_counter

    app.session_state["cp_corpora"] = ["code"]
    app.session_state["cp_hf"] = []
    app.run()  # the Playground, the default page, loads its own tokenizers
    loads.clear()
    app.switch_page(PAGE).run()
    assert not app.exception
    assert loads == []
    code = builtin_text("code")
    held_out = stored.split(code, limits.DEFAULT_HELD_OUT_PCT).held_out
    recipe = stored.references_recipe(code, limits.DEFAULT_HELD_OUT_PCT)
    sent = stored.references_from_json(store.cached(recipe, lambda: None, str, str))  # the worker's
    counts = {name: stats.tokens for name, _size, stats, _hidden in sent}
    assert list(counts) == list(stored.REFERENCE_TOKENIZERS)
    for name in ("gpt2", "o200k_base", "llama3", "bert-base-uncased"):
        assert counts[name] == own_library_counter(name)(held_out), name
    assert quality_rows(app)[("Code", "GPT-2")]["tokens"] == counts["gpt2"]
    text = "Each upload is a corpus the store has never seen, so its points are counted now.\n" * 8
    uploader(app, "cp_upload").set_value(("new.txt", text.encode(), "text/plain")).run()
    assert not app.exception and not app.error
    rows = quality_rows(app)
    upload_held_out = stored.split(text, limits.DEFAULT_HELD_OUT_PCT).held_out
    assert rows[("Your text (new.txt)", "GPT-2")]["tokens"] == (
        own_library_counter("gpt2")(upload_held_out))
    assert loads == []


# --- the trainings run in worker processes (#22 isolation) --------------------------------------


@pytest.fixture
def pool(monkeypatch):
    """A pool of this test's own (one worker, no queue), so that its workers are the page's."""
    from tokenizer_core import workers

    fresh = workers.WorkerPool(1, queue=0)
    monkeypatch.setattr(workers, "_pool", fresh)
    yield fresh
    fresh.close()


def test_the_curve_trains_in_a_worker_and_the_store_keeps_what_it_sent(app, folder, runs, pool):  # noqa: F811
    """Another process trains it; the store's entry is the JSON a training in this process
    writes, and a second server reads it without a worker."""
    import os

    from tokenizer_core.measure.compression import compression_curve

    open_compression(app, corpora=("code",), cp_vocab=2_000)
    assert runs == {"ours": 1, "hf": 0}
    [pid] = pool.pids()  # the worker that trained it, idle now
    assert pid != os.getpid()
    text = builtin_text("code")
    here = compression_curve(stored.split(text, limits.DEFAULT_HELD_OUT_PCT), 2_000 - 256)
    recipe = stored.curve_recipe(text, limits.DEFAULT_HELD_OUT_PCT, 2_000 - 256)
    assert store.cached(recipe, lambda: None, str, str) == stored.curve_to_json(here)
    rows = quality_rows(app)
    fresh = here.tokenizer(1_000 - 256)
    held_out = stored.split(text, limits.DEFAULT_HELD_OUT_PCT).held_out
    assert rows[("Code", "Ours: byte-level BPE")]["tokens"] == len(fresh.encode(held_out))
    pool.close()
    new_server_process()
    open_compression(app, corpora=("code",), cp_vocab=2_000)
    assert runs == {"ours": 1, "hf": 0} and pool.pids() == []  # read: no worker started


def test_a_full_queue_is_said_on_the_page_and_the_next_run_trains(app, folder, runs, pool, tmp_path):  # noqa: F811
    """Every worker busy and no room to wait: the corpus, then the HF line, says the server is
    busy instead of waiting without end; once the worker is free, a rerun draws them."""
    import threading

    from tokenizer_core.workers import Job

    def occupy():
        flag = tmp_path / f"free-{len(list(tmp_path.glob('free-*')))}"
        thread = threading.Thread(target=pool.run, args=(Job("tests.core.worker_jobs:silent",
                                                             (str(flag),)),))
        thread.start()
        while not pool.pids():  # its worker is up: the pool's one place is taken
            thread.join(0.05)
        return flag, thread

    busy = "The server is busy (jobs ahead of yours: 1); try again in a minute."
    flag, thread = occupy()
    open_compression(app, corpora=("code",))
    assert [shown(w.value) for w in app.warning] == [f"Code: {busy}"]
    assert runs == {"ours": 0, "hf": 0}
    flag.touch()
    thread.join()
    app.run()
    assert not app.warning and runs == {"ours": 1, "hf": 0}
    flag, thread = occupy()
    app.pills(key="cp_hf").set_value(["wordpiece"]).run()
    assert f"No HF WordPiece line on Code: {busy}" in shown(" ".join(c.value for c in app.caption))
    assert runs == {"ours": 1, "hf": 0}
    flag.touch()
    thread.join()
    app.run()
    assert runs["hf"] == 4 and ("Code", "HF WordPiece") in quality_rows(app)
