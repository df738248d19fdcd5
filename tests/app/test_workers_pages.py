"""Pages whose heavy work runs in the worker pool (tokenizer_core/workers.py), driven by
AppTest: the training happens in another process, and the page shows exactly what the same
training made in this process shows."""

from __future__ import annotations

import os

import pytest

from tokenizer_core import corpus_from_text, workers
from tokenizer_core.trainers.unigram import train_unigram
from tokenizer_core.workers import WorkerPool
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
