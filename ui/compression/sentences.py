"""The fixed-sentence views: one sentence cut by the first few merges and by growing vocabularies.

Classroom: the ten sentences about cats and dogs, trained once up to the largest step; each row
is the tokenizer of the first k merges (5, 15, 30), at the sentence level (spaces are ordinary
characters, merges cross words) or the word level (`</w>` ends each word).
Byte level: the chosen corpus's training run at 500 ... 4,000 vocab, then the real tokenizers.
"""

from __future__ import annotations

from typing import Sequence

import regex
import streamlit as st

from tokenizer_core import (
    CharLevelBPE,
    RenderOptions,
    Token,
    corpus_from_text,
    render_tokens,
    train_bpe,
)
from tokenizer_core.measure.compression import BYTE_VOCAB, CompressionCurve
from tokenizer_core.measure.stored import REFERENCE_TOKENIZERS
from tokenizer_core.samples import load_preset
from tokenizer_core.tokens import show_whitespace
from ui.common import catalog, i18n
from ui.common.i18n import N_, _, ngettext, number
from ui.common.safe_text import literal
from ui.compression.frames import family_label
from ui.compression.limits import BYTE_VOCABS, CLASSROOM_MERGES, KEEP, MAX_SENTENCE_CHARS

CLASSROOM_SENTENCE = "the cat sat on the mat"
# The tabs' names in English: the message ids, and the value a link or test sets (tab_names()).
CLASSROOM_TAB = N_("Classroom: after 5 · 15 · 30 merges")
BYTE_LEVEL_TAB = N_("Byte level: 500 → 4,000 vocab, GPT-2 → GPT-4o")
LEVELS = {"sentence": N_("sentence"), "word": N_("word")}  # the level's value -> its name
WRAPPED_LINE = 55  # characters: a paragraph whose lines are all this long was hard-wrapped
UNK = "<unk>"


@st.cache_data(max_entries=4, show_spinner=False)
def classroom_merges(level: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """(merges, alphabet) of the ten sentences trained up to the largest classroom step."""
    text = load_preset("ten_sentences")
    corpus = corpus_from_text(str(text), level)  # type: ignore[arg-type]
    training = train_bpe(corpus, max(CLASSROOM_MERGES))
    return tuple(training.merges), tuple(training.corpus.alphabet)  # type: ignore[arg-type]


def classroom_tokens(level: str, sentence: str, k: int) -> list[Token]:
    merges, alphabet = classroom_merges(level)
    model = CharLevelBPE(level, merges[:k], alphabet, unk_token=UNK)  # type: ignore[arg-type]
    return model.encode(sentence, disallowed_special=())


def _merge_text(pair: tuple[str, str]) -> str:
    return " + ".join(show_whitespace(p) for p in pair)


def token_row(title: str, sentence: str, tokens: Sequence[Token], options: RenderOptions,
              note: str = "") -> None:
    """A heading with the count, the tokens drawn over the sentence, and a note under it."""
    st.markdown(f"**{title}** · " + ngettext("{n} token", "{n} tokens", len(tokens)))
    st.html(render_tokens(sentence, tokens, options))
    if note:
        st.caption(note)


def classroom_view(options: RenderOptions) -> None:
    left, right = st.columns([1, 2])  # both of the level's buttons, in presentation's type too
    level = left.segmented_control(
        _("Level"), list(LEVELS), key="cp_class_level", persist_state=KEEP,
        format_func=lambda v: _(LEVELS[v]),
        help=_("sentence: spaces are ordinary characters, so merges may cross words. "
               "word: each word ends with </w> and merges stay inside words."),
    ) or "sentence"
    sentence = right.text_input(
        _("Sentence"), key="cp_class_text", persist_state=KEEP, max_chars=MAX_SENTENCE_CHARS,
        help=_("Characters the ten sentences never use become <unk>."),
    )
    if not sentence.strip():
        st.info(_("Type a sentence to cut."), icon="✍️")
        return
    merges, _alphabet = classroom_merges(level)
    previous = 0
    for k in CLASSROOM_MERGES:
        new = ", ".join(_merge_text(p) for p in merges[previous:k])
        token_row(ngettext("After {n} merge", "After {n} merges", k), sentence,
                  classroom_tokens(level, sentence, k), options,
                  _("Merges {first}–{last}: {merges}", first=number(previous + 1),
                    last=number(k), merges=new))
        previous = k


def byte_level_view(corpus_label: str, curve: CompressionCurve, sentence: str,
                    options: RenderOptions) -> None:
    """The sentence at each of BYTE_VOCABS on our run, then every real tokenizer (GPT-2 to
    o200k_base, then the open models)."""
    corpus_label = literal(corpus_label)  # it may name the user's file, and goes into Markdown
    for vocab in BYTE_VOCABS:
        k = vocab - BYTE_VOCAB
        if k > curve.learned_merges:
            st.caption(_(
                "**{vocab} vocab**: not reached. Training on {label} stopped after {merges} "
                "merges, or the page trained only up to a smaller vocabulary.",
                vocab=number(vocab), label=corpus_label, merges=number(curve.learned_merges)))
            continue
        tokens = curve.tokenizer(k).encode(sentence, disallowed_special=())
        title = _("Ours, {vocab} vocab ({merges} merges on {label})", vocab=number(vocab),
                  merges=number(k), label=corpus_label)
        token_row(title, sentence, tokens, options)
    for name in REFERENCE_TOKENIZERS:
        tokenizer = catalog.load(name)
        tokens = tokenizer.encode(sentence, disallowed_special=())
        title = _("{name}, {vocab} vocab", name=family_label(name),
                  vocab=number(tokenizer.vocab_size))
        token_row(title, sentence, tokens, options)
    st.caption(catalog.attribution("llama3"))


def _forget_sentence() -> None:
    st.session_state.pop("cp_byte_text", None)


def byte_level_tab(usable: Sequence[tuple], options: RenderOptions) -> None:
    """Pick a corpus (its held-out sentence is the default) and cut the sentence at each size."""
    by_key = {corpus.key: (corpus, parts, curve) for corpus, parts, curve in usable}
    if st.session_state.get("cp_byte_corpus") not in by_key:
        st.session_state["cp_byte_corpus"] = next(iter(by_key))
        _forget_sentence()
    chosen = st.selectbox(_("Corpus"), list(by_key), key="cp_byte_corpus", persist_state=KEEP,
                          format_func=lambda k: by_key[k][0].label, on_change=_forget_sentence)
    corpus, parts, curve = by_key[chosen]
    if "cp_byte_text" not in st.session_state:  # not setdefault: the default costs a search
        st.session_state["cp_byte_text"] = default_sentence(parts.held_out)
    sentence = st.text_input(_("Sentence (from the held-out part; edit it freely)"),
                             key="cp_byte_text", persist_state=KEEP,
                             max_chars=MAX_SENTENCE_CHARS)
    if sentence.strip():
        byte_level_view(corpus.label, curve, sentence, options)
    else:
        st.info(_("Type a sentence to cut."), icon="✍️")


def tab_names() -> list[str]:
    """The sentence tabs' names in the session's language. st.tabs keeps the open tab's *name*
    in session state (cp_sentence_tab): a name from the other language (a link, a test, or the
    sidebar's switch) is moved to this language's, so switching keeps the same tab open."""
    names = [_(CLASSROOM_TAB), _(BYTE_LEVEL_TAB)]
    state = st.session_state
    for english, name in zip((CLASSROOM_TAB, BYTE_LEVEL_TAB), names):
        if state.get("cp_sentence_tab") in {i18n.translations(lang).gettext(english)
                                            for lang in i18n.LANGUAGES}:
            state["cp_sentence_tab"] = name
    return names


def default_sentence(held_out: str) -> str:
    """A prose sentence of the held-out part to start from: paragraphs with indented (code)
    lines are skipped, hard-wrapped lines joined (every line but the last is long), and the
    first sentence of 40-160 characters that is mostly letters is taken; else the first line
    of 40+ characters, cut at a word."""
    for paragraph in regex.split(r"\n\s*\n", held_out):
        lines = paragraph.strip("\n").splitlines()
        if not lines or any(line[:1].isspace() for line in lines):
            continue
        wrapped = all(len(line) >= WRAPPED_LINE for line in lines[:-1])
        for text in [" ".join(line.strip() for line in lines)] if wrapped else lines:
            found = _prose_sentence(text)
            if found:
                return found
    lines = [line.strip() for line in held_out.splitlines() if len(line.strip()) >= 40]
    line = lines[0] if lines else held_out.strip()
    if len(line) <= 160:
        return line
    cut = line.rfind(" ", 0, 160)
    return line[: cut if cut > 40 else 160]


def _prose_sentence(text: str) -> str | None:
    for sentence in regex.split(r"(?<=[.!?])\s+|(?<=[。！？])", text.strip()):
        letters = len(regex.findall(r"[\p{L}\s]", sentence))
        if 40 <= len(sentence) <= 160 and letters >= 0.85 * len(sentence):
            return sentence
    return None
