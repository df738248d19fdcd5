"""Pages whose heavy work runs in the worker pool (tokenizer_core/workers.py), driven by
AppTest: the training happens in another process, and the page shows exactly what the same
training made in this process shows (Unigram EM; Merge steps' training)."""

from __future__ import annotations

import os

import pytest

from tests.shared import html_frames
from tokenizer_core import corpus_from_text, train_bpe, workers
from tokenizer_core.lessons.bpe_steps import build_lesson
from tokenizer_core.samples import load_preset
from tokenizer_core.trainers.unigram import train_unigram
from tokenizer_core.workers import WorkerPool
from ui.merge_steps.limits import TOP_CANDIDATES
from ui.merge_steps.source import build_corpus
from ui.merge_steps.tables import MERGES_HEADERS, headed, merges_frame
from ui.unigram.shrink import removals_frame, rounds_frame
from ui.unigram.source import TABS, corpus_text

from .conftest import open_link


@pytest.fixture
def pool(monkeypatch):
    """A pool of this test's own, so that its workers are the page's."""
    fresh = WorkerPool(1)
    monkeypatch.setattr(workers, "_pool", fresh)
    yield fresh
    fresh.close()


def test_the_unigram_page_trains_in_a_worker_and_shows_the_in_process_training(app, pool):
    open_link(app, "pages/unigram.py", {"ug_corpus": "code", "ug_vocab": "280",
                                        "ug_share": "0.3", "ug_tab": TABS[0]})
    assert not app.exception
    [pid] = pool.pids()  # the worker that trained it, idle now
    assert pid != os.getpid()
    here = train_unigram(corpus_from_text(corpus_text("code"), "word"), 280, shrink_share=0.3)
    assert app.dataframe[0].value.equals(rounds_frame(here))
    assert app.dataframe[1].value.equals(removals_frame(here))


def test_the_merge_steps_page_trains_in_a_worker_and_shows_the_in_process_lesson(app, pool):
    open_link(app, "pages/merge_steps.py", {"ms_source": "preset:low_newest", "ms_level": "word",
                                            "ms_merges": "12", "ms_tie": "lexical"})
    [pid] = pool.pids()
    assert pid != os.getpid()
    corpus = build_corpus(load_preset("low_newest"), "word")
    here = build_lesson(train_bpe(corpus, 12, "lexical", top_k=TOP_CANDIDATES,
                                  record_history=True))
    table = headed(merges_frame(here), MERGES_HEADERS)
    # drawn as an HTML table (a light first visit): its cells, as text, are the lesson's
    assert any(frame.equals(table.astype(str)) for frame in html_frames(app)), html_frames(app)
