"""The pages' heaviest work as worker jobs (workers.py), each taking plain values (the text goes
once) and returning something small. The Compression page's results are made through the on-disk
store, exactly as stored.py makes them in the server, and come back as the store's JSON.

Why JSON: what crosses the pipe back is the small text the store keeps anyway (a curve of 16,000
merges is about 0.5 MB), not a pickled object graph; the server reads it with stored.py's own
reader, so a result from a worker and one from the store are the same thing.

Leaves out: running them (workers.py) and the page's progress bars (the app).
"""

from __future__ import annotations

from typing import Callable

from .lessons.bpe_steps import Lesson, build_lesson
from .measure import stored
from .measure.quality import HFFamily
from .trainers.bpe import train_bpe
from .trainers.corpus import Corpus, corpus_from_text
from .trainers.unigram import UnigramTraining, train_unigram

Progress = Callable[[int, int], None]


def curve_json(text: str, held_out_pct: int, max_merges: int,
               progress: Progress | None = None) -> str:
    """stored.curve, as the store's JSON."""
    return stored.curve_to_json(stored.curve(text, held_out_pct, max_merges, progress=progress))


def hf_point_json(family: HFFamily, text: str, held_out_pct: int, size: int) -> str:
    """stored.hf_point, as the store's JSON (ValueError as stored.hf_point raises it)."""
    return stored.hf_point_to_json(stored.hf_point(family, text, held_out_pct, size))


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
