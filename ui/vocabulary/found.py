"""The Vocabulary page's tokenizers of the models folder and the Hugging Face cache (#21).

Such a file never runs in the server: its worker process (isolated.py) reads the vocabulary with
the file's own library and sends the rows (`vocabulary_tokens`, at most MAX_FOUND_VOCAB_IDS ids,
within the worker's time limit), and the server builds the same table as for a built-in one.
Everything made from a file is kept once per server under its name and sha256, shared by every
session (30 students opening the page ask the worker once), and so is a failure: no rerun
waits out the time limit again, and a changed file (another sha256) is read again.

The reference corpus of "Glitches & growth" goes to the worker in parts (MAX_FOUND_USAGE_PART_CHARS
characters, cut after a run of line breaks) so that each part is one encode within the time
limit; a token that would span a cut is counted as its two sides.

Leaves out: finding and loading the files (ui/common/found_models.py).
"""

from __future__ import annotations

from collections import Counter

import streamlit as st

from tokenizer_core.measure.vocabulary import Vocabulary, vocabulary
from tokenizer_core.render import escape
from ui.common import catalog
from ui.common.i18n import _
from ui.common.safe_text import literal
from ui.vocabulary.limits import FOUND_TABLES_KEPT, MAX_FOUND_USAGE_PART_CHARS


def is_found(name: str) -> bool:
    return name in catalog.found_names()


def markdown_name(name: str) -> str:
    """The tokenizer's label for Markdown (metrics, captions): a found one's name is a file's,
    user text, made inert; our own labels are shown as they are."""
    return literal(name) if is_found(name) else catalog.label(name)


def inert(name: str) -> str:
    """The name itself for Markdown: a found one's made inert, a built-in one's as it is."""
    return literal(name) if is_found(name) else name


def chart_name(name: str) -> str:
    """The label for a plotly title (which reads HTML): a found one's name escaped."""
    return escape(name) if is_found(name) else catalog.label(name)


@st.cache_resource(max_entries=FOUND_TABLES_KEPT, show_spinner=False)
def _table(name: str, sha256: str) -> Vocabulary | ValueError:
    try:  # the worker refuses a vocabulary of more than MAX_FOUND_VOCAB_IDS ids
        return vocabulary(catalog.get(name))
    except ValueError as error:  # a Refusal from its worker: too many ids, too slow, it ended
        return error


def table(name: str) -> Vocabulary:
    """The found tokenizer's table; ValueError (a Refusal) with why there is none."""
    with st.spinner(_("Reading the vocabulary of {name} in its own process…",
                      name=literal(name))):
        outcome = _table(name, catalog.version(name))
    if isinstance(outcome, ValueError):
        raise outcome
    return outcome


def parts(text: str, most: int = MAX_FOUND_USAGE_PART_CHARS) -> list[str]:
    """`text` in parts of at most `most` characters, each cut after a run of line breaks where
    there is one (else after a line break, else at `most`); joined, they are `text`."""
    found: list[str] = []
    while len(text) > most:
        head = text[:most]
        blank = head.rfind("\n\n")  # the last one: the end of the head's last run of them
        cut = blank + 2 if blank >= 0 else head.rfind("\n") + 1 or most
        found.append(text[:cut])
        text = text[cut:]
    return [*found, text] if text else found


@st.cache_resource(max_entries=FOUND_TABLES_KEPT, show_spinner=False)
def _usage(name: str, sha256: str, _text: str) -> Counter[int] | ValueError:
    counts: Counter[int] = Counter()
    try:
        tokenizer = catalog.get(name)
        for part in parts(_text):
            counts.update(t.id for t in tokenizer.encode(part, disallowed_special=()))
    except ValueError as error:  # the first part it cannot encode in time ends the count
        return error
    return counts


def usage(name: str, text: str) -> Counter[int]:
    """Each id's count over `text` (the page's reference corpus, one per server), encoded by the
    file's worker part by part; ValueError (a Refusal) with why there are no counts."""
    outcome = _usage(name, catalog.version(name), text)
    if isinstance(outcome, ValueError):
        raise outcome
    return outcome


def size_rows() -> list[tuple[str, int, int, str]]:
    """(name, size, special tokens, where it came from) of each found tokenizer offered: read
    from its worker's load (nothing is asked again)."""
    rows = []
    for name in catalog.found_names():
        tokenizer = catalog.get(name)
        rows.append((name, tokenizer.vocab_size, len(tokenizer.special_tokens),
                     catalog.description(name)))
    return rows
