"""The Unigram page's settings: which built-in corpus, how big a vocabulary, how fast it shrinks,
and the text whose lattice is drawn; kept in the session and in the link.

The corpora are the ones Merge steps and Compression train on (the four built-in samples, alone
or together, and Python's own English documentation cut to MAX_CORPUS_CHARS). No own text here:
the page is about how Unigram learns and cuts, and the Playground takes your text.

Every widget keeps its value while the user visits other pages (`KEEP`); the link is read once
per session (`first_visit`) by the one tolerant reader, and written back once per run.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from tokenizer_core.samples import english_reference_corpus, sample_text
from ui.common.i18n import N_, _, number, percent
from ui.common.page_state import KEEP, first_visit, write_link
from ui.common.query_params import LinkReader
from ui.unigram.limits import (
    ALPHAS,
    MAX_COMPARE_CHARS,
    MAX_CORPUS_CHARS,
    MAX_LATTICE_CHARS,
    MAX_SEED,
    MAX_VOCAB,
    MIN_VOCAB,
    SHRINK_SHARES,
)

PAGE = "unigram"
SAMPLES = ("english", "chinese", "code", "emoji")
CORPORA: dict[str, str] = {  # English labels, translated where shown (corpus_label)
    "samples": N_("All four samples together"),
    "english": N_("Sample · English prose"),
    "chinese": N_("Sample · Chinese prose"),
    "code": N_("Sample · Python code"),
    "emoji": N_("Sample · Emoji chat"),
    "reference": N_("English reference (Python's docs, first {kb} KB)"),
}


def corpus_label(corpus: str) -> str:
    """A corpus's name in the session's language."""
    return _(CORPORA[corpus], kb=number(MAX_CORPUS_CHARS // 1000))
# The lattice's first word: at the default settings three cuts of three pieces come within two
# nats of each other (▁ ve ry, ▁v e ry, ▁v er y), and greedy longest-first would take the third:
# the choice Viterbi makes is the lesson. ("unbelievable" fell into 11 pieces, nearly letters.)
DEFAULT_WORD = "very"
# The tabs' English names: the link's ug_tab value (the page shows them translated)
TABS = [N_("🔻 Shrinking vocabulary"), N_("🕸️ Lattice & Viterbi"), N_("⚖️ Four tokenizers")]
DEFAULTS: dict[str, object] = {
    "ug_corpus": "samples", "ug_vocab": 800, "ug_share": 0.25, "ug_text": DEFAULT_WORD,
    "ug_alpha": 0.5, "ug_seed": 1, "ug_word": "tokenization",
}


@dataclass(frozen=True)
class Settings:
    corpus: str  # a key of CORPORA: a plain value to key the caches on
    vocab_size: int
    shrink_share: float
    error: str | None = None


@st.cache_resource(max_entries=8, show_spinner=False)
def corpus_text(corpus: str) -> str:
    """The corpus's text, exactly as stored (the English reference cut at the page's bound)."""
    if corpus == "samples":
        return "\n".join(sample_text(name) for name in SAMPLES)
    if corpus == "reference":
        return english_reference_corpus()[:MAX_CORPUS_CHARS]
    return sample_text(corpus)


def init_state() -> LinkReader | None:
    """The page's session state, set once; on the session's first visit a link's values win.
    Returns the link's reader (None after the first visit) for the page's tab."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    link = first_visit(PAGE)
    if link is not None:
        _read_link(link)
    return link


def _read_link(link: LinkReader) -> None:
    state = st.session_state
    state["ug_corpus"] = link.read_choice("ug_corpus", {c: c for c in CORPORA}, state["ug_corpus"])
    state["ug_vocab"] = link.read_int("ug_vocab", state["ug_vocab"], low=MIN_VOCAB, high=MAX_VOCAB)
    state["ug_share"] = link.read_choice("ug_share", {str(s): s for s in SHRINK_SHARES},
                                         state["ug_share"])
    state["ug_text"] = link.read_text("ug_text", state["ug_text"], max_chars=MAX_LATTICE_CHARS)
    state["ug_alpha"] = link.read_choice("ug_alpha", {str(a): a for a in ALPHAS}, state["ug_alpha"])
    state["ug_seed"] = link.read_int("ug_seed", state["ug_seed"], low=0, high=MAX_SEED)
    state["ug_word"] = link.read_text("ug_word", state["ug_word"], max_chars=MAX_COMPARE_CHARS)


def tab_labels() -> list[str]:
    return [_(t) for t in TABS]


def first_tab(link: LinkReader | None) -> str | None:
    """The tab a link opens (its English name, as the link holds it), None after the first
    visit."""
    if not link:
        return None
    return link.read_choice("ug_tab", {t: t for t in TABS}, TABS[0])


def english_tab(shown: object) -> object:
    """The open tab's English name, for the link (the page shows it translated)."""
    return dict(zip(tab_labels(), TABS)).get(shown, shown)  # type: ignore[arg-type]


def save_link() -> None:
    """Corpus, sizes, the typed texts, the sampling seed and the tab, in one write."""
    state = st.session_state
    params = {
        "ug_corpus": state.get("ug_corpus"), "ug_vocab": state.get("ug_vocab"),
        "ug_share": str(state.get("ug_share")), "ug_alpha": str(state.get("ug_alpha")),
        "ug_seed": state.get("ug_seed"), "ug_tab": english_tab(state.get("ug_tab")),
    }
    for key, bound in (("ug_text", MAX_LATTICE_CHARS), ("ug_word", MAX_COMPARE_CHARS)):
        text = state.get(key)
        if isinstance(text, str) and text and len(text) <= bound:
            params[key] = text
    write_link(PAGE, params)


def check_vocab(vocab: object) -> str | None:
    if not isinstance(vocab, int) or vocab < MIN_VOCAB:
        return _("Ask for at least {n} pieces.", n=number(MIN_VOCAB))
    if vocab > MAX_VOCAB:
        return _("{vocab} pieces is over this page's bound of {bound}: every round is kept and "
                 "trained while you wait. Ask for {bound} or fewer (the command line "
                 "`python -m tokenizer_core train --algorithm unigram` goes further).",
                 vocab=number(vocab), bound=number(MAX_VOCAB))
    return None


def settings_ui() -> Settings:
    """Corpus, vocabulary size and shrink share; returns what to train."""
    left, vocab_col, share_col = st.columns([3, 1.4, 2])
    corpus = left.selectbox(_("Corpus"), list(CORPORA), key="ug_corpus",
                            format_func=corpus_label, persist_state=KEEP)
    # no min/max: every number reaches check_vocab, whose message is about the number shown
    vocab = vocab_col.number_input(_("Vocabulary size"), step=50, key="ug_vocab",
                                   persist_state=KEEP,
                                   help=_("Pieces kept at the end, <unk> included: {low} to "
                                          "{high}. Training starts from 4x as many.",
                                          low=number(MIN_VOCAB), high=number(MAX_VOCAB)))
    share = share_col.select_slider(
        _("Pruned per round"), SHRINK_SHARES, key="ug_share", persist_state=KEEP,
        format_func=lambda s: percent(s, 0),
        help=_("The share of the vocabulary removed each round: the pieces whose removal costs "
               "the corpus likelihood least. Single characters are always kept."))
    return Settings(corpus, int(vocab), float(share), check_vocab(vocab))
