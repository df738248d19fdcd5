"""The Languages page's tokenizers and cached numbers.

All come from ui/common/catalog.py, loaded once per server there: OpenAI's three, today's four
open models (tokenizer_core/reference/open_models.py), our English BPE, and one it keeps off the
Playground's list, our byte-level BPE trained on the built-in English *and* Chinese samples. The
picker compares MAX_PAGE_TOKENIZERS at once; the headline and the heat table show every one.
Tokens come from catalog.tokenize (shared, never pickled); token counts
are kept here by plain keys: (tokenizer name, a digest of the texts).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Sequence

import streamlit as st

from tokenizer_core.measure.language_costs import Progress, token_counts
from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.registry import BILINGUAL_MERGES
from ui.common import catalog
from ui.common.i18n import N_, _, number
from ui.languages.limits import COUNT_CACHE_ENTRIES

BILINGUAL = catalog.BILINGUAL
# BERT (uncased) is left out: it cannot spell much of Chinese, Arabic or Hindi (one [UNK] per
# word, and accent stripping deletes Hindi's vowel signs), so its premiums would look small
# exactly where it fails; the Playground and Compression (which flags [UNK]) show it.
PREMIUM_MODELS = tuple(n for n in OPEN_MODELS if n != "bert-base-uncased")
NAMES = ("gpt2", "cl100k_base", "o200k_base", *PREMIUM_MODELS, "ours:bpe", BILINGUAL)
# Small on purpose: the open models' files take a second or more each to load on first use.
DEFAULT_NAMES = ["gpt2", "cl100k_base", "o200k_base", "ours:bpe"]
SHORT: dict[str, str] = {  # row headers and chart legends: short enough for a projector
    "gpt2": "GPT-2",
    "cl100k_base": "cl100k_base",
    "o200k_base": "o200k_base",
    **{n: m.label for n, m in OPEN_MODELS.items()},  # Llama 3, Qwen 2.5, Mistral Nemo, DeepSeek-V4
    "ours:bpe": N_("ours (English)"),
    BILINGUAL: N_("ours (EN+ZH)"),
}
# English sentences (message ids; `{merges}` filled where shown, in the session's language)
TRAINED_ON: dict[str, str] = {
    "gpt2": N_("OpenAI's WebText (English web pages)"),
    "cl100k_base": N_("OpenAI, undisclosed (GPT-4)"),
    "o200k_base": N_("OpenAI, undisclosed, more languages (GPT-4o)"),
    "llama3": N_("Meta, undisclosed (Llama 3)"),
    "qwen2.5": N_("Alibaba's Qwen team, undisclosed (Qwen 2 and 2.5)"),
    "mistral-nemo": N_("Mistral AI, undisclosed (Mistral Nemo)"),
    "deepseek-v4": N_("DeepSeek, undisclosed (DeepSeek-V4)"),
    "ours:bpe": N_("{merges} merges on Python's own documentation "
                   "(pydoc_data.topics, ~465 KB of English)"),
    BILINGUAL: N_("{merges} merges on the built-in samples data/samples/english.txt + "
                  "chinese.txt (~7 KB, half Chinese)"),
}
MERGES: dict[str, int] = {"ours:bpe": catalog.OUR_MERGES, BILINGUAL: BILINGUAL_MERGES}
DESCRIPTIONS: dict[str, str] = {
    **{n: catalog.DESCRIPTIONS[n] for n in NAMES if n in catalog.DESCRIPTIONS},
    BILINGUAL: N_("Trained here: byte-level BPE, GPT-2's regex, {merges} merges on the "
                  "built-in English and Chinese samples (about 7 KB, none of it in the parallel "
                  "pairs). Tiny and overfitted, but it shows that the training text, not the "
                  "script, sets the premium."),
}


def names() -> list[str]:
    """The picker's list: NAMES, then the models folder's and the Hugging Face cache's."""
    return [*NAMES, *catalog.found_names()]


def trained_on(name: str) -> str:
    """What the tokenizer was trained on, in the session's language (a file of the models
    folder or the Hugging Face cache does not say: a dash)."""
    if name not in TRAINED_ON:
        return "—"
    return _(TRAINED_ON[name], merges=number(MERGES.get(name, 0)))


def description(name: str) -> str:
    """The picker's help for one tokenizer, in the session's language (the shared catalog's
    descriptions are looked up in the catalog too)."""
    if name not in DESCRIPTIONS:  # a file of the models folder or the Hugging Face cache
        return catalog.description(name)
    return _(DESCRIPTIONS[name], merges=number(MERGES.get(name, 0))) if name in MERGES else _(
        DESCRIPTIONS[name])
COLORS: dict[str, str] = {  # Okabe-Ito: tells apart for colour-blind viewers
    "UTF-8 bytes": "#8c8c8c",
    "GPT-2": "#E69F00",
    "cl100k_base": "#56B4E9",
    "o200k_base": "#009E73",
    "Llama 3": "#0072B2",
    "Qwen 2.5": "#999933",
    "Mistral Nemo": "#332288",
    "Mistral 7B": "#44AA99",
    "DeepSeek-V4": "#882255",
    "ours (English)": "#CC79A7",
    "ours (EN+ZH)": "#D55E00",
}
BYTES_LABEL = N_("UTF-8 bytes")  # the 256-token start: every byte a token
# Labels that are words, not names: shown in the session's language. The English label stays
# the key of every result (results are cached per server, shared by sessions in both languages).
WORDS = frozenset({BYTES_LABEL, SHORT["ours:bpe"], SHORT[BILINGUAL]})


def label(name: str) -> str:
    """The short English label: the key of the page's results (see shown() for the screen)."""
    return SHORT.get(name, name)


def shown(label: str) -> str:
    """A short label as the screen shows it: words translated, names (GPT-2, Llama 3) as they are."""
    return _(label) if label in WORDS else label


def color(shown_label: str) -> str | None:
    """The tokenizer's colour for a label as shown, in either language."""
    for key, value in COLORS.items():
        if shown_label in (key, shown(key)):
            return value
    return None


LONG: dict[str, str] = {
    "ours:bpe": N_("Our byte-level BPE: {merges} merges on English (Python docs)"),
    BILINGUAL: N_("Our byte-level BPE: {merges} merges on English + Chinese samples"),
}


def long_label(name: str) -> str:
    """The tokenizer picker's label: what it is and, for ours, what it was trained on."""
    if name in LONG:
        return _(LONG[name], merges=number(MERGES[name]))
    return _(catalog.BUILT_IN.get(name, name))


def digest(texts: Sequence[str]) -> str:
    """A plain key for many texts (a 20,000-pair file): hashing 1 MB takes milliseconds, while
    Streamlit's cache would hash and pickle the 40,000 strings on every rerun."""
    sha = hashlib.sha256()
    for text in texts:
        sha.update(text.encode("utf-8", "surrogatepass"))
        sha.update(b"\0")  # ("ab", "c") and ("a", "bc") are different texts
    return sha.hexdigest()


class _Counts:
    """Token counts by (tokenizer name, digest of the texts), the newest COUNT_CACHE_ENTRIES,
    shared by every session (counts of the same texts are the same for everyone).

    Not st.cache_data: the count reports progress through the page's own bar, and a bar touched
    inside a cached function would be replayed on every later hit.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[tuple[str, str], tuple[int, ...]] = OrderedDict()

    def get(self, key: tuple[str, str]) -> tuple[int, ...] | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], counts: tuple[int, ...]) -> None:
        with self._lock:
            self._kept[key] = counts
            while len(self._kept) > COUNT_CACHE_ENTRIES:
                self._kept.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _kept_counts() -> _Counts:
    return _Counts()


def known_counts(name: str, key: str) -> tuple[int, ...] | None:
    """Counts already made for the texts whose digest is `key`, or None."""
    return _kept_counts().get((name, key + catalog.version(name)))  # a found file: its sha256


def counts(
    name: str, texts: Sequence[str], progress: Progress | None = None, key: str | None = None
) -> tuple[int, ...]:
    """Tokens of each text on its own (special-token strings as plain text), counted once per
    server for the same tokenizer and texts; `progress` as in token_counts, only when counting.
    `key` is digest(texts) when the caller has it already."""
    key = key or digest(texts)
    found = known_counts(name, key)
    if found is None:
        found = tuple(token_counts(catalog.get(name), texts, progress))
        _kept_counts().put((name, key + catalog.version(name)), found)
    return found
