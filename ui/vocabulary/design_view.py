"""The Vocabulary page's "Design" tab: prune a BPE trained here by a corpus's use, or add a
domain's words, and measure both on held-out text; either downloads as an HF tokenizer.json.

Each corpus is cut in two at a line break (80% / 20%): tokens are counted and words chosen on
the first part, and the costs measured on the held-out part, so a change is not judged on the
text it was made from. General text is the built-in English sample.
"""

from __future__ import annotations

import json

import streamlit as st

from tokenizer_core import render_tokens
from tokenizer_core.measure.vocabulary_design import (
    Designed,
    cost,
    domain_words,
    extend,
    model_json,
    prune,
)
from tokenizer_core.measure.vocabulary_export import hf_tokenizer_json
from tokenizer_core.measure.vocabulary_usage import token_counts
from tokenizer_core.messages import Refusal
from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.pretokenize import regex_chunks
from tokenizer_core.samples import corpus_text, english_reference_corpus, sample_text
from ui.common import catalog
from ui.common.i18n import N_, _, explain, number, percent
from ui.common.safe_text import literal
from ui.common.token_view import render_options
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.common.uploads import decode_text, text_upload_ui
from ui.vocabulary import found
from ui.vocabulary.limits import (
    MAX_DESIGN_UPLOAD_BYTES,
    MAX_DOMAIN_WORDS,
    MAX_MIN_COUNT,
    MAX_PASTED_CHARS,
    MAX_SAMPLE_SCAN,
    SAMPLE_LINES,
)

MODELS = {"ours:bpe": None,  # its catalog label
          catalog.BILINGUAL: N_("Our byte-level BPE (English + Chinese samples, 1,000 merges)")}
CORPORA = {"english": N_("Python's documentation (English)"), "chinese": N_("Chinese (built-in)"),
           "code": N_("Code (built-in)"), "emoji": N_("Emoji (built-in)")}


def _model_label(name: str) -> str:
    return catalog.label(name) if MODELS[name] is None else _(MODELS[name])
UPLOAD = "upload"
WORD_SOURCES = {"frequent": N_("Most frequent words split into 3+ tokens"),
                "pasted": N_("A list I paste")}
MIN_UPLOAD_CHARS = 200


def model(name: str) -> ByteLevelBPE:
    loaded = catalog.load(name)
    assert isinstance(loaded, ByteLevelBPE), f"{name} is not a byte-level BPE trained here"
    return loaded


@st.cache_data(max_entries=8, show_spinner=False)
def corpus(key: str) -> str:
    return english_reference_corpus() if key == "english" else corpus_text(key)


def halves(text: str) -> tuple[str, str]:
    """(the part to count on, the held-out part): cut at the line break nearest 80%."""
    cut = text.rfind("\n", 0, len(text) * 4 // 5) + 1 or len(text) * 4 // 5
    return text[:cut], text[cut:]


def pruned(name: str, text: str, min_count: int) -> Designed:
    with st.spinner(_("Pruning…")):
        return _pruned(name, text, min_count)


@st.cache_resource(max_entries=8, show_spinner=False)
def _pruned(name: str, text: str, min_count: int) -> Designed:
    base = model(name)
    return prune(base, token_counts(base, halves(text)[0]), min_count)


def extended(name: str, words: tuple[str, ...]) -> Designed:
    with st.spinner(_("Adding the words…")):
        return _extended(name, words)


@st.cache_resource(max_entries=8, show_spinner=False)
def _extended(name: str, words: tuple[str, ...]) -> Designed:
    return extend(model(name), words)


@st.cache_data(max_entries=8, show_spinner=False)
def frequent_words(name: str, text: str, n: int) -> list[str]:
    return domain_words(model(name), halves(text)[0], n)


def _use_upload(text: str, filename: str) -> None:
    st.session_state["vc_design_text"] = text
    st.session_state["vc_design_name"] = filename
    st.session_state["vc_design_corpus"] = UPLOAD


def _decode(data: bytes, filename: str) -> str:
    text = decode_text(data, filename, max_bytes=MAX_DESIGN_UPLOAD_BYTES,
                       kept=_("the corpus chosen above is unchanged"))
    if len(text.strip()) < MIN_UPLOAD_CHARS:
        raise Refusal(N_("{filename} has {length} characters of text; a domain corpus needs at "
                         "least {bound} to keep a held-out part."),
                      filename=filename, length=len(text.strip()), bound=MIN_UPLOAD_CHARS)
    return text


def _corpus_label(key: str) -> str:
    if key == UPLOAD:
        name = st.session_state.get("vc_design_name", "upload")
        return _("Your text ({name})", name=literal(name))
    return _(CORPORA[key])


def _download(designed: Designed, filename: str, key: str) -> None:
    hf = hf_tokenizer_json(model_json(designed.model, designed.merges))
    st.download_button(_("Download as tokenizer.json (Hugging Face)"), json.dumps(hf),
                       file_name=filename, mime="application/json", key=key)


def _spans(tokens) -> set[tuple[int, int]]:
    return {(t.start, t.end) for t in tokens}


def _before_after(base: ByteLevelBPE, after: ByteLevelBPE, text: str) -> None:
    """Held-out lines that the change cuts differently (else the first ones), before and after;
    a token whose span the other side does not share is outlined."""
    lines = [line for line in text.splitlines() if line.strip()][:MAX_SAMPLE_SCAN]
    encoded = [(line, base.encode(line, disallowed_special=()),
                after.encode(line, disallowed_special=())) for line in lines]
    changed = [e for e in encoded if _spans(e[1]) != _spans(e[2])]
    shown = (changed or encoded)[:SAMPLE_LINES]
    left, right = st.columns(2)
    left.markdown("**" + _("Before") + "**")
    unchanged = "" if changed else " " + _("(no line here changed)")
    right.markdown("**" + _("After") + "**" + unchanged)
    options = render_options(visible_whitespace=True)
    for line, old, new in shown:
        old_only = frozenset(i for i, t in enumerate(old) if (t.start, t.end) not in _spans(new))
        new_only = frozenset(i for i, t in enumerate(new) if (t.start, t.end) not in _spans(old))
        left.html(render_tokens(line, old, options, old_only))
        right.html(render_tokens(line, new, options, new_only))


def _metrics(base: ByteLevelBPE, designed: Designed, domain: str) -> None:
    general = sample_text("english")
    size, held, other = st.columns(3)
    size.metric(_("Vocabulary"), number(designed.model.vocab_size),
                _signed(designed.model.vocab_size - base.vocab_size), delta_color="off")
    for column, label, text in ((held, _("Held-out domain text: tokens"), domain),
                                (other, _("General text (English sample): tokens"), general)):
        spent = cost(base, designed.model, text)
        change = (spent.after - spent.before) / spent.before if spent.before else 0.0
        column.metric(label, number(spent.after),
                      f"{_signed(spent.after - spent.before)} ({'+' if change >= 0 else ''}"
                      f"{percent(change)})", delta_color="inverse",
                      help=_("{before} tokens before; {size} bytes", before=number(spent.before),
                             size=number(len(text.encode()))))


def _signed(n: int) -> str:
    """+12 / -3 / +0, grouped by the locale (Babel writes the minus itself)."""
    return ("+" if n >= 0 else "") + number(n)


def show(chosen: str) -> None:
    """The tab; `chosen` is the page's tokenizer (only a found one changes what is said)."""
    if found.is_found(chosen):  # a file's model is not ours to rewrite
        st.info(_("Design starts from a byte-level BPE trained here; {name} runs in its own "
                  "process and cannot be pruned or extended on this page.",
                  name=literal(chosen)), icon="ℹ️")
    st.caption(_(
        "Design a vocabulary from one trained here: prune the tokens a corpus hardly uses, or "
        "add a domain's words as tokens, and see the cost on held-out text (the last 20% of the "
        "corpus) and on general English. Both stay byte-level BPE: no text becomes unencodable."
    ))
    pick, where = st.columns(2)
    # format_func: a dict made in this run (its labels in the session's language), not a lookup
    # made later, outside the run, where the session's language is not known
    name = pick.selectbox(_("Start from"), list(MODELS), key="vc_design_model",
                          format_func={m: _model_label(m) for m in MODELS}.get)
    options = [*CORPORA, *([UPLOAD] if "vc_design_text" in st.session_state else [])]
    st.session_state.setdefault("vc_design_corpus", "code")  # a domain to start with
    key = where.selectbox(_("Corpus"), options, key="vc_design_corpus",
                          format_func={o: _corpus_label(o) for o in options}.get)
    text_upload_ui("vc_design", _decode, _use_upload, title=_("Upload a domain corpus (.txt)"))
    text = st.session_state["vc_design_text"] if key == UPLOAD else corpus(key)
    base = model(name)
    held_out = halves(text)[1]
    prune_tab, add_tab = st.tabs([_("Prune"), _("Add domain tokens")])
    with prune_tab:
        min_count = int(st.number_input(
            _("Drop tokens used fewer than N times"), 1, MAX_MIN_COUNT, 5, key="vc_prune_n",
            help=_("Counted on the first 80% of the corpus; tokens that build a kept token "
                   "stay.")))
        designed = pruned(name, text, min_count)
        _metrics(base, designed, held_out)
        _before_after(base, designed.model, held_out)
        _download(designed, f"pruned-{min_count}-tokenizer.json", "vc_prune_download")
    with add_tab:
        how = st.radio(_("Words to add"), ["frequent", "pasted"], horizontal=True,
                       key="vc_add_how",
                       format_func={v: _(t) for v, t in WORD_SOURCES.items()}.get)
        words = _words(how, name, text)
        if not words:
            return
        try:
            designed = extended(name, tuple(words))
        except ValueError as error:
            st.error(literal(explain(error)))
            return
        st.caption(_("{joined} of {words} words now one token each; {added} tokens added (the "
                     "merges that join them).", joined=number(len(designed.joined)),
                     words=number(len(words)), added=number(len(designed.added))))
        _metrics(base, designed, held_out)
        _before_after(base, designed.model, held_out)
        _download(designed, "extended-tokenizer.json", "vc_add_download")


def _words(how: str, name: str, text: str) -> list[str]:
    if how == "frequent":
        n = int(st.number_input(_("How many words"), 1, MAX_DOMAIN_WORDS, 50, key="vc_add_n"))
        words = frequent_words(name, text, n)
        st.caption(_("Words (with the space before them, as the regex cuts them): {words}",
                     words=literal(", ".join(repr(w) for w in words[:30]))
                     + (" …" if len(words) > 30 else "")))
        return words
    pasted = st.text_area(_("One word a line (a leading space is kept: ` tensor`)"),
                          key="vc_add_list", height=120)
    if REPLACEMENT in pasted:  # a lone surrogate the browser replaced (ui/common/unicode_guard.py)
        st.caption(REPLACEMENT_NOTE)
    if len(pasted) > MAX_PASTED_CHARS:
        st.error(_("The list has {length} characters; the bound is {bound}.",
                   length=number(len(pasted)), bound=number(MAX_PASTED_CHARS)))
        return []
    words = list(dict.fromkeys(w for w in pasted.split("\n") if w.strip()))
    if len(words) > MAX_DOMAIN_WORDS:
        st.error(_("{count} words; one extension adds at most {bound}.",
                   count=number(len(words)), bound=number(MAX_DOMAIN_WORDS)))
        return []
    pat_str = model(name).pat_str
    split = [w for w in words if len(regex_chunks(w, pat_str)) != 1]
    if split:
        st.error(_("A token cannot cross the pre-tokenizer's chunks, and these are more than "
                   "one chunk: {words}", words=literal(", ".join(repr(w) for w in split[:10]))))
        return []
    if not words:
        st.info(_("Paste words, one a line, to add them."))
    return words
