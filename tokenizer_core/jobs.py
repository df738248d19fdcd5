"""The pages' heaviest work as worker jobs (workers.py), each taking plain values (the text goes
once) and returning something small. The Compression page's results are made as stored.py's
builders make them and come back as the store's JSON: the server keeps that very text in its
on-disk store (ui/compression/compute.py) and reads it with stored.py's own reader, so a result
from a worker and one from the store are the same thing.

Why JSON: what crosses the pipe back is the small text the store keeps anyway (a curve of 16,000
merges is about 0.5 MB), not a pickled object graph.

subtle: these jobs do not touch the store themselves. A worker's environment is its server's as
it was when the worker started (a test that points TOKEX_CACHE_DIR elsewhere meets workers
started before), and the server must hold what it asks for; so the server writes, once.

Leaves out: running them (workers.py) and the page's progress bars (the app).
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict
from typing import Callable

from .interface import Tokenizer
from .lessons.bpe_steps import Lesson, build_lesson
from .measure import compression, quality, stored
from .measure.metrics import word_set
from .measure.quality import HFFamily, Quality
from .trainers.bpe import train_bpe
from .trainers.corpus import Corpus, corpus_from_text
from .trainers.unigram import UnigramTraining, train_unigram

Progress = Callable[[int, int], None]


def curve_json(text: str, held_out_pct: int, max_merges: int,
               progress: Progress | None = None) -> str:
    """What stored.curve builds on a store miss, as the store's JSON (stored.curve_recipe)."""
    curve = compression.compression_curve(stored.split(text, held_out_pct), max_merges,
                                          progress=progress)
    return stored.curve_to_json(curve)


def hf_point_json(family: HFFamily, text: str, held_out_pct: int, size: int) -> str:
    """What stored.hf_point builds on a store miss, as the store's JSON (stored.hf_recipe): the
    model at `size`, or null when HF refuses that size. ValueError as stored.hf_point raises it
    (HF is not trained on this text at all)."""
    parts = stored.split(text, held_out_pct)
    points = quality.hf_lines(family, parts.train, parts.held_out, (size,))
    return stored.hf_point_to_json(points[0] if points else None)


def references_json(text: str, held_out_pct: int) -> str:
    """What stored.reference_points builds on a store miss, as the store's JSON
    (stored.references_recipe): every built-in reference tokenizer's held-out count, each
    tokenizer loaded once per worker (`reference`)."""
    return stored.references_to_json(stored.measure_references(text, held_out_pct, reference))


@functools.cache
def reference(name: str) -> Tokenizer:
    """A built-in reference tokenizer (stored.REFERENCE_TOKENIZERS), loaded once per worker: the
    nine take about 2 s to load, and a worker measures one row per job."""
    return stored.reference_tokenizer(name)


@functools.lru_cache(maxsize=4)
def _seen_words(text: str, held_out_pct: int) -> frozenset[str]:
    return word_set(stored.split(text, held_out_pct).train)


def quality_json(text: str, held_out_pct: int, spec: str, make: Callable[[], Tokenizer]) -> str:
    """What stored.quality_row builds on a store miss, as the store's JSON (stored.quality_recipe):
    every quality number of the tokenizer `make` builds, on the held-out part. `make` crosses the
    pipe pickled: ours as its curve's first merges, an HF model as its text, a reference by name
    (`reference`)."""
    parts = stored.split(text, held_out_pct)
    measured = quality.measure(make(), parts.held_out, _seen_words(text, held_out_pct), name=spec)
    return json.dumps(asdict(measured))


def quality_from_json(payload: str) -> Quality:
    """A quality row from the store's JSON, read as stored.quality_row reads it."""
    return stored._quality_from_json(payload)


def unigram_training(text: str, vocab_size: int, shrink_share: float,
                     progress: Progress | None = None) -> UnigramTraining:
    """Our Unigram trained on the text's words (`▁word`), as the Unigram page trains it. The
    training is plain tuples and floats: about 0.5 MB pickled at the page's largest."""
    return train_unigram(corpus_from_text(text, "word"), vocab_size, shrink_share=shrink_share,
                         progress=progress)


def bpe_lesson(corpus: Corpus, merges: int, tie_break: str, top_k: int,
               progress: Progress | None = None) -> Lesson:
    """The Merge steps page's training with every step's candidates and history, told step by
    step (the corpus is the page's, a few thousand words: about 30 KB pickled; the lesson about
    0.7 MB at the page's bounds)."""
    training = train_bpe(corpus, merges, tie_break, top_k=top_k, record_history=True,
                         progress=progress)
    return build_lesson(training)
