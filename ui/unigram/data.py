"""What the Unigram page computes, cached by plain values so a rerun retrains nothing.

Keys are (corpus name, vocabulary size, shrink share) and the typed text; the corpus text comes
from its name. `st.cache_resource`, not `st.cache_data`: the results are frozen dataclasses and
models nobody mutates, and unpickling a whole training on every rerun would cost more than the
rerun itself.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core import (
    Corpus,
    WordPieceTokenizer,
    corpus_from_counts,
    corpus_from_text,
    train_bpe,
    train_wordpiece,
    wordpiece_corpus,
)
from tokenizer_core.interface import Tokenizer
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.models.unigram import UnigramModel
from tokenizer_core.reference.sentencepiece_models import train_sentencepiece
from tokenizer_core.trainers.unigram import UnigramTraining
from tokenizer_core.trainers.wordpiece import bert_word_counts
from tokenizer_core.workers import Job
from ui.common import workers
from ui.common.cancel import cancel_check, throttled
from ui.common.i18n import _, number
from ui.unigram.source import corpus_text

# SentencePiece's vocabulary also holds pad/unk/bos/eos, the `\n` piece and 256 byte pieces
SENTENCEPIECE_EXTRA = 4 + 1 + 256


@st.cache_resource(max_entries=8, show_spinner=False)
def word_corpus(corpus: str) -> Corpus:
    return corpus_from_text(corpus_text(corpus), "word")


@st.cache_resource(max_entries=12, show_spinner=False)
def training_of(corpus: str, vocab_size: int, shrink_share: float) -> UnigramTraining:
    """Our Unigram, trained on the corpus's words (`▁word`), a bar moving round by round the one
    time it really trains (the bar is made here: a cached function replays the elements it
    makes, and may not touch one made outside). ValueError: the size cannot be met."""
    bar = st.progress(0.0, text=_("Training our Unigram: seeding and re-estimating…"))

    def update(done: int, total: int) -> None:
        bar.progress(min(done / max(total, 1), 1.0),
                     text=_("Training our Unigram: round {done} of about {total}",
                            done=number(done), total=number(total)))

    # In a worker process (ui/common/workers.py): EM's seconds of pure Python never hold the
    # server's interpreter lock, and the worker's memory comes back when it ends.
    job = Job("tokenizer_core.jobs:unigram_training", (corpus_text(corpus), vocab_size,
                                                       shrink_share), progress=True)
    try:
        return workers.run(job, progress=throttled(update),
                           note=lambda text: bar.progress(0.0, text=text))
    finally:
        bar.empty()


@st.cache_resource(max_entries=12, show_spinner=False)
def model_of(corpus: str, vocab_size: int, shrink_share: float) -> UnigramModel:
    return training_of(corpus, vocab_size, shrink_share).model("Unigram (ours)")


@st.cache_resource(max_entries=6, show_spinner=False)  # the page shows a spinner around it
def contenders(corpus: str, vocab_size: int, shrink_share: float) -> dict[str, Tokenizer]:
    """The four (five: SentencePiece trains both kinds) on the same corpus, about the same size.

    BPE and WordPiece learn as many merges as the vocabulary has room for past the alphabet;
    SentencePiece gets its extra pieces on top (see SENTENCEPIECE_EXTRA)."""
    text = corpus_text(corpus)
    words = word_corpus(corpus)
    room = max(vocab_size - len(words.alphabet) - 1, 1)
    bpe = bpe_model(train_bpe(words, room, progress=cancel_check()), name="BPE")
    wp_words = wordpiece_corpus(corpus_from_counts(bert_word_counts(text), "word"))
    wordpiece = WordPieceTokenizer.from_training(
        train_wordpiece(wp_words, room, progress=cancel_check()), name="WordPiece")
    size = vocab_size + SENTENCEPIECE_EXTRA
    return {
        "BPE": bpe,
        "WordPiece": wordpiece,
        "Unigram (ours)": model_of(corpus, vocab_size, shrink_share),
        "SentencePiece Unigram": train_sentencepiece(text, size, "unigram"),
        "SentencePiece BPE": train_sentencepiece(text, size, "bpe"),
    }


def known_words(corpus: str) -> tuple[str, str]:
    """The two most frequent words of the corpus (letters and digits only, when there are such,
    so that no pre-tokenizer splits off punctuation): every tokenizer trained on it spells them."""
    words = word_corpus(corpus)
    plain = [(w, c) for w, c in zip(words.labels, words.counts) if w.isalnum()]
    ranked = sorted(plain or list(zip(words.labels, words.counts)), key=lambda lc: -lc[1])
    first = ranked[0][0]
    second = ranked[1][0] if len(ranked) > 1 else first
    return first, second
