"""The Merge steps page's corpus: a classroom preset, a built-in sample, or the user's own text.

`source_ui()` draws the pickers (corpus, level, merges, tie-break, the text box and upload) and
returns a `Source`: plain values to key the caches on, the raw corpus (text or count table),
or the reason it cannot be trained (empty text, over a bound). Nothing the user typed is ever
replaced by an error: a bad upload (too big, not UTF-8) leaves the box as it was.

The corpus (your own text too, when short), level, merges and tie-break are written into the
link (`save_link`) and read back from it once per session by the one tolerant reader, so a link
reopens the same lesson (a lesson file keeps your text whatever its length); the page adds the
step. Every widget keeps its value while the user visits other pages (`KEEP`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal, Mapping

import streamlit as st

from tokenizer_core import Corpus, corpus_from_counts, corpus_from_text
from tokenizer_core.levels import LEVELS, Level
from tokenizer_core.samples import Preset, load_preset, presets, sample_text
from ui.common.i18n import N_, _, number
from ui.common.page_state import KEEP, first_visit, write_link
from ui.common.query_params import LinkReader
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.common.uploads import decode_text, text_upload_ui
from ui.merge_steps.limits import (
    MAX_CORPUS_CHARS,
    MAX_DISTINCT_ENTRIES,
    MAX_MERGES,
    MAX_UPLOAD_BYTES,
    MAX_URL_TEXT_CHARS,
)

OWN = "own"
SAMPLES: dict[str, str] = {
    "english": N_("English prose"),
    "chinese": N_("Chinese prose"),
    "code": N_("Python code"),
    "emoji": N_("Emoji chat"),
}  # English labels (translated where shown)
SAMPLE_MERGES = 60
TIE_LABELS: dict[str, str] = {"first": N_("first met"), "lexical": N_("lexical")}
# The levels as the pickers show them (the values stay English: they are in links and files)
LEVEL_LABELS: dict[str, str] = {"word": N_("word"), "sentence": N_("sentence"), "byte": N_("byte")}
# A word each lesson's model can encode, for the encode replay (every character is in its alphabet).
REPLAY_WORDS: dict[str, str] = {
    "low_newest": "lowest",
    "hug_pug": "bug",
    "ten_sentences": "the cat is happy",
    "low_lower": "lowest",
    "the_table": "their",
}
# The WordPiece encoding tab's starting vocabulary and words (a classroom example).
CLASSROOM_VOCAB = "\n".join([
    "[UNK]", "un", "re", "play", "believ", "##believ", "##play", "##able", "##ably", "##ing",
    "##ed", "##er", "##s", "##ful", "##do",
])
CLASSROOM_TEXT = "unbelievable replaying believable playful undo xylophone"
TieBreak = Literal["first", "lexical"]


@dataclass(frozen=True)
class Source:
    key: str  # plain value naming the corpus: "preset:low_newest", "sample:english", "own:<sha>"
    title: str
    level: Level
    merges: int
    tie_break: TieBreak
    raw: str | Mapping[str, int]  # the corpus as text, or a {word: count} table
    error: str | None = None
    description: str = ""
    empty: bool = False  # no text yet: the error is an invitation, not a fault

    @property
    def text(self) -> str | None:
        return self.raw if isinstance(self.raw, str) else None

    @property
    def cache_key(self) -> tuple[str, str, int, str]:
        return (self.key, self.level, self.merges, self.tie_break)


@st.cache_resource(show_spinner=False)
def lessons() -> dict[str, Preset]:
    """data/presets.json by id, read once per server (format_func asks for it per option)."""
    return {p.id: p for p in presets()}


def choices() -> list[str]:
    return [f"preset:{i}" for i in lessons()] + [f"sample:{s}" for s in SAMPLES] + [OWN]


def english_label(choice: str) -> str:
    """The label the picker showed in English (links this page wrote before carried it)."""
    kind, _sep, name = choice.partition(":")
    if kind == "preset":
        return "Lesson · " + lessons()[name].title
    if kind == "sample":
        return "Sample · " + SAMPLES[name]
    return "Your own text or upload"


def choice_label(choice: str) -> str:
    """The picker's label in the session's language."""
    kind, _sep, name = choice.partition(":")
    if kind == "preset":
        return _("Lesson · {title}", title=_(lessons()[name].title))
    if kind == "sample":
        return _("Sample · {title}", title=_(SAMPLES[name]))
    return _("Your own text or upload")


def default_replay_text(choice: str, text: str | None) -> str:
    kind, _sep, name = choice.partition(":")
    if kind == "preset":
        return REPLAY_WORDS.get(name, "")
    words = (text or "").split()
    return " ".join(words[:3])


def init_state() -> None:
    """All of the page's session state, set once per session; on the session's first visit a
    link's values win (read by the one tolerant reader: a value that does not fit gives the
    default and a note)."""
    defaults = {
        "ms_source": "preset:low_newest", "ms_level": "word", "ms_merges": 10, "ms_tie": "first",
        "ms_text": "", "ms_step": 0, "ms_step_seq": 0, "ms_replay_model": "model", "ms_wp_score": "ratio",
        "ms_wp_which": "classroom", "ms_wp_vocab": CLASSROOM_VOCAB, "ms_wp_text": CLASSROOM_TEXT,
    }
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    link = first_visit("merge_steps")
    if link is not None:
        _read_link(link)


def _read_link(link: LinkReader) -> None:
    """The lesson a link names. Corpora and tie-breaks are taken by id or by their label (the
    links this page wrote before carried labels)."""
    state = st.session_state
    sources = {c: c for c in choices()} | {english_label(c): c for c in choices()}
    state["ms_source"] = link.read_choice("ms_source", sources, state["ms_source"],
                                          shown=choice_label(state["ms_source"]))
    state["ms_level"] = link.read_choice("ms_level", {v: v for v in LEVELS}, state["ms_level"])
    state["ms_merges"] = link.read_int("ms_merges", state["ms_merges"], low=1, high=MAX_MERGES)
    ties = {t: t for t in TIE_LABELS} | {label: t for t, label in TIE_LABELS.items()}
    state["ms_tie"] = link.read_choice("ms_tie", ties, state["ms_tie"])
    state["ms_step"] = link.read_int("ms_step", state["ms_step"], low=0, high=MAX_MERGES,
                                     shown=_("step {k}", k=state["ms_step"]))
    state["ms_text"] = link.read_text("ms_text", state["ms_text"], max_chars=MAX_URL_TEXT_CHARS,
                                      file_max_chars=MAX_CORPUS_CHARS)


def save_link(step: int | None = None) -> None:
    """The corpus, level, merges, tie-break and step (once there is a lesson) into the link,
    in one write: each change of the link is an entry in the browser's history."""
    state = st.session_state
    params = {"ms_source": state.get("ms_source"), "ms_level": state.get("ms_level"),
              "ms_merges": state.get("ms_merges"), "ms_tie": state.get("ms_tie"), "ms_step": step}
    whole = {}
    text = state.get("ms_text")
    if state.get("ms_source") == OWN and isinstance(text, str) and text:
        whole["ms_text"] = text  # a lesson file keeps the corpus; a link, when it is short
        if len(text) <= MAX_URL_TEXT_CHARS:
            params["ms_text"] = text
    write_link("merge_steps", params, whole=whole)


def _on_source_change() -> None:
    """A new corpus: its suggested level and merges, and back to step 0."""
    choice = st.session_state.get("ms_source") or "preset:low_newest"
    kind, _sep, name = choice.partition(":")
    if kind == "preset":
        preset = lessons()[name]
        st.session_state["ms_level"] = preset.level
        st.session_state["ms_merges"] = preset.merges
    elif kind == "sample":
        st.session_state["ms_level"] = "byte"
        st.session_state["ms_merges"] = SAMPLE_MERGES
    st.session_state["ms_step"] = 0


def decode_upload(data: bytes, filename: str) -> str:
    """The upload's text, or ValueError saying why not (the box keeps its text)."""
    return decode_text(data, filename, max_bytes=MAX_UPLOAD_BYTES, max_chars=MAX_CORPUS_CHARS,
                       kept="your text in the box is unchanged", takes="this page trains on")


def _use_upload(text: str, filename: str) -> None:
    """A good upload becomes the corpus: into the box, "your own text" chosen, back to step 0."""
    st.session_state["ms_text"] = text
    st.session_state["ms_source"] = OWN
    st.session_state["ms_step"] = 0


def check_merges(merges: object) -> str | None:
    if not isinstance(merges, int) or merges < 1:
        return _("Ask for at least 1 merge.")
    if merges > MAX_MERGES:
        return _(
            "{merges} merges is over this page's bound of {bound}: every step is kept for the "
            "class to replay. Ask for {bound} or fewer (the command line "
            "`python -m tokenizer_core train` goes further).",
            merges=number(merges), bound=number(MAX_MERGES))
    return None


def build_corpus(raw: str | Mapping[str, int], level: Level) -> Corpus:
    """The corpus at a level; ValueError saying why when it cannot be trained."""
    if isinstance(raw, Mapping):
        corpus = corpus_from_counts(raw, level)
    else:
        corpus = corpus_from_text(raw, level)
    if len(corpus) > MAX_DISTINCT_ENTRIES:
        raise ValueError(_(
            "this corpus has {entries} distinct entries at the {level} level; the bound is "
            "{bound}. Use a shorter text.", entries=number(len(corpus)),
            level=_(LEVEL_LABELS[level]), bound=number(MAX_DISTINCT_ENTRIES)))
    if not corpus.sequences:
        raise ValueError(_("the corpus has no words in it: type some text."))
    return corpus


# What changes when a lesson written for one level is trained at another (its own notes would
# speak of `est</w>` at the byte level, where there is no `</w>`).
LEVEL_NOTES: dict[str, str] = {
    "word": N_("This lesson's notes are written for the {written_for} level. At the word level "
               "each word is split into characters and ends with </w>, and merges stay inside "
               "words."),
    "sentence": N_("This lesson's notes are written for the {written_for} level. At the sentence "
                   "level there is no </w>: spaces are ordinary characters, so merges may cross "
                   "words."),
    "byte": N_("This lesson's notes are written for the {written_for} level. At the byte level "
               "there is no </w>: each chunk GPT-2's regex cuts is split into its UTF-8 bytes (in "
               "running text a word keeps the space before it), and a word ends where its chunk "
               "ends."),
}


def _other_level_note(written_for: str, level: str) -> str:
    return _(LEVEL_NOTES[level], written_for=_(LEVEL_LABELS[written_for]))


def _own_text_ui() -> str:
    text = st.text_area(
        _("Your corpus"), key="ms_text", height=140, persist_state=KEEP,
        placeholder=_("Paste a few sentences, or upload a .txt file below."),
        help=_("Up to {n} characters are trained on.", n=number(MAX_CORPUS_CHARS)),
    )
    if REPLACEMENT in text:  # what the browser put for half a surrogate pair, or the text's own
        st.caption(REPLACEMENT_NOTE)
    text_upload_ui("ms", decode_upload, _use_upload)
    return text


def source_ui() -> Source:
    """Pickers for corpus, level, merges and tie-break; returns what to train."""
    all_choices = choices()
    if st.session_state.get("ms_source") not in all_choices:
        st.session_state["ms_source"] = all_choices[0]
    left, level_col, merges_col, tie_col = st.columns([3, 2.6, 1.4, 2.1])
    choice = left.selectbox(
        _("Corpus"), all_choices, key="ms_source", format_func=choice_label,
        on_change=_on_source_change, persist_state=KEEP,
    )
    level = level_col.segmented_control(
        _("Level"), LEVELS, key="ms_level", required=True, persist_state=KEEP,
        format_func=lambda v: _(LEVEL_LABELS[v]),
        help=_("word: each word ends with </w> and merges stay inside words. sentence: each line "
               "is one sequence and spaces are characters, so merges may cross words. byte: the "
               "UTF-8 bytes of the chunks GPT-2's regex cuts (256 base tokens, never unknown)."),
    )
    # subtle: no min_value or max_value. The browser refuses a number out of the widget's range
    # without a rerun, so the box would show 0 under a message about the last value it sent;
    # every number reaches check_merges instead, and its message is about the number shown.
    merges = merges_col.number_input(
        _("Merges"), step=1, key="ms_merges", persist_state=KEEP,
        help=_("From 1 to {n}.", n=number(MAX_MERGES)),
    )
    tie_break = tie_col.segmented_control(
        _("Tie-break"), ("first", "lexical"), key="ms_tie",
        format_func=lambda v: _(TIE_LABELS[v]), required=True, persist_state=KEEP,
        help=_("When pairs share the top count: first met = the one met first reading the corpus "
               "top to bottom, left to right (what the textbook loop does); lexical = the "
               "alphabetically smallest."),
    )
    kind, _sep, name = choice.partition(":")
    raw: str | dict[str, int]
    description = ""
    if kind == "preset":
        preset = lessons()[name]
        raw, title = load_preset(name), preset.title
        description = _(preset.description) if level == preset.level else _other_level_note(
            preset.level, level)
    elif kind == "sample":
        raw, title = sample_text(name), SAMPLES[name]
    else:
        raw, title = _own_text_ui(), _("your text")
    key = choice
    if kind == OWN:  # the text's hash names it: a plain value to key the caches on
        digest = hashlib.sha256(str(raw).encode("utf-8")).hexdigest()
        key = "own:" + digest[:20]
    error = check_merges(merges)
    empty = kind == OWN and not raw.strip()  # type: ignore[union-attr]
    if empty:
        error = _("Type or paste a corpus above (or upload a .txt file) to watch BPE learn "
                  "from it.")
    elif kind == OWN and len(raw) > MAX_CORPUS_CHARS:
        error = _(
            "Your text has {chars} characters; this page trains on up to {bound} so that every "
            "step stays instant. Shorten it: your text is kept.",
            chars=number(len(raw)), bound=number(MAX_CORPUS_CHARS))
    return Source(key, title, level, int(merges), tie_break,  # type: ignore[arg-type]
                  raw, error, description, empty)
